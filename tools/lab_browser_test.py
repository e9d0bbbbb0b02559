#!/usr/bin/env python3
"""The lab's web application in a real browser: starts `cutoff lab serve`,
drives headless Chromium through Selenium, and checks what the page shows.

Checks: the page loads; an illegal FEN gets a message; a FEN set on the
board and run through Compare to depth 3 shows the node and leaf counts of
`cutoff lab compare --json` for the same FEN and depth; a textbook tree
stepped forward visits its nodes in alpha-beta's order, and stepping back
undoes a step; A..J stepped with every algorithm and cutoff test matches
an independent trace (lab_tree_reference.py) at every step; a tic-tac-toe
move is played by clicking; the drawn Tree
view's checks (lab_tree_checks.py); a position set in one view is every
view's, also after a reload; the Tree view's link, reload, export,
slider, jumps, keys and sizes (lab_tree_share_checks.py); a practice
question opened from a link; errors clear or mark stale results; the
progress line's node count only grows; Ordering and Ablation draw charts,
every column has a tooltip and no chart text leaves its drawing; at 390 px
no view is wider than the screen; the practice questions, the published
numbers beside Compare and Scores (lab_quiz_checks.py). With --screenshots
DIR it also saves a PNG of each view there (1000 px wide, and 390 px).

Needs Debian's chromium and chromium-driver, and `pip install selenium`.
Prints 'N passed, M failed' last; exit 1 if a check failed.
"""

import argparse
import json
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from lab_quiz_checks import QuizChecks
from lab_tree_checks import TreeChecks
from lab_tree_share_checks import TreeShareChecks

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PUBLISHED = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"
TEXT_TREE = "A:max(B:min(D:3,E:5),C:min(F:2,G:1))"
WAIT = 120  # seconds; only a hang reaches it
PREFIX = {"compare": "cmp", "scores": "scr", "ordering": "ord", "ablation": "abl"}  # of the views' ids


def start_server(binary):
    proc = subprocess.Popen([binary, "lab", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    match = re.fullmatch(r"listening on (http://\S+/)", line)
    if not match:
        proc.kill()
        sys.exit(f"lab_browser_test: unexpected first line from the server: {line!r}")
    return proc, match.group(1)


def start_browser(chromium, chromedriver):
    options = Options()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--window-size=1000,700",
                "--hide-scrollbars"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    # The page itself 1000x700, whatever the window's frame takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})
    return driver


class Checks(TreeChecks, TreeShareChecks, QuizChecks):
    def __init__(self, driver, url, binary, shots, new_browser, only):
        self.d, self.url, self.binary, self.shots = driver, url, binary, shots
        self.new_browser, self.only = new_browser, only
        self.passed, self.failed = 0, 0

    def run(self, name, check):
        if self.only and not any(word in name for word in self.only):
            return
        try:
            check()
            self.passed += 1
            print(f"ok   {name}")
        except Exception as e:  # report every failing check, then go on
            self.failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}")

    # Helpers
    def wait(self, condition, timeout=WAIT):
        # The page redraws parts of itself: an element found just before a
        # redraw goes stale, so look it up again.
        return WebDriverWait(self.d, timeout, ignored_exceptions=(StaleElementReferenceException,)
                             ).until(lambda d: condition())

    def click(self, css):
        self.wait(lambda: self.el(css).click() or True)

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def view(self, name):
        self.d.get(f"{self.url}#{name}")
        self.wait(lambda: self.d.execute_script("return document.body.dataset.ready") == "true")
        self.wait(lambda: self.el(f"#view-{name}").is_displayed())

    def fill(self, css, text):
        field = self.el(css)
        field.clear()
        field.send_keys(text)

    def shot(self, name, full=False):
        if not self.shots:
            return
        if full:  # the whole page's height, at the width set
            height = self.d.execute_script("return document.documentElement.scrollHeight")
            width = self.d.execute_script("return window.innerWidth")
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": min(height, 2400), "deviceScaleFactor": 1,
                "mobile": width < 600})
        self.d.save_screenshot(f"{self.shots}/lab-{name}.png")

    def wait_job(self, status_id):
        self.wait(lambda: self.el(f"#{status_id}").get_attribute("data-state")
                  in ("done", "failed", "cancelled"))
        state = self.el(f"#{status_id}").get_attribute("data-state")
        assert state == "done", f"job ended {state}: {self.el('main').text[:300]}"

    # The checks
    def loads(self):
        self.view("position")
        assert "Cutoff search laboratory" in self.d.title
        self.wait(lambda: len(self.d.find_elements(By.CSS_SELECTOR, "#board .sq")) == 64)

    def illegal_fen(self):
        self.view("position")
        self.fill("#fen", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        self.click("#fen-set")
        self.wait(lambda: self.el("#fen-error").text != "")
        message = self.el("#fen-error").text
        assert message.startswith("FEN"), message

    def set_fen_and_move(self):
        self.view("position")
        self.fill("#fen", KIWIPETE)
        self.click("#fen-set")
        self.wait(lambda: "48 legal moves" in self.el("#pos-info").text)
        self.click("#fen-start")
        self.wait(lambda: "20 legal moves" in self.el("#pos-info").text)
        self.click('[data-square="g1"]')
        self.click('[data-square="f3"]')
        self.wait(lambda: self.el("#fen").get_attribute("value").startswith(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b"))
        self.click("#fen-undo")
        self.fill("#fen", KIWIPETE)
        self.click("#fen-set")
        self.wait(lambda: "48 legal moves" in self.el("#pos-info").text)
        self.click('[data-square="f3"]')  # the queen: its targets show
        targets = self.d.find_elements(By.CSS_SELECTOR, "#board .sq.target")
        assert len(targets) == 9, len(targets)
        self.shot("position")

    def set_position(self, view, fen, refused=False):
        """Sets the current position from `view`'s position bar (or checks
        that the server refuses it)."""
        self.view(view)
        bar = f"#{PREFIX[view]}-posbar"
        self.click(f"{bar} .posbar-change")
        self.wait(lambda: self.el(f"{bar} .posbar-input").is_displayed())
        self.fill(f"{bar} .posbar-input", fen)
        self.click(f"{bar} .posbar-set")
        if refused:
            self.wait(lambda: self.el(f"#{PREFIX[view]}-error").text != "")
        else:
            self.wait(lambda: self.el(f"{bar} .posbar-fen").text == fen)

    def compare_matches_cli(self):
        self.view("compare")  # the position set on the board is Compare's
        self.wait(lambda: self.el("#cmp-posbar .posbar-fen").text == KIWIPETE)
        self.compare_run(KIWIPETE, 3, published=False)
        assert self.d.find_elements(By.CSS_SELECTOR, "#cmp-chart svg polyline")

    def published_matches_cli(self):
        # The published position to depth 5, with our rules and with the
        # published python-chess rules.
        for published in (False, True):
            self.set_position("compare", PUBLISHED)
            box = self.el("#cmp-published-rules")
            if box.is_selected() != published:
                box.click()
            self.compare_run(PUBLISHED, 5, published)

    def compare_run(self, fen, depth, published):
        """Runs Compare to `depth` and checks every row against the CLI's."""
        Select(self.el("#cmp-depth")).select_by_value(str(depth))
        self.click("#cmp-run")
        self.wait_job("cmp-status")
        shown = {}
        for tr in self.d.find_elements(By.CSS_SELECTOR, "#cmp-table tbody tr"):
            key = (tr.get_attribute("data-algorithm"), int(tr.get_attribute("data-depth")))
            cells = {c: tr.find_element(By.CSS_SELECTOR, f"td.{c}").text for c in ("nodes", "leaves")}
            shown[key] = tuple(None if v == "-" else int(v.replace(",", "")) for v in cells.values())
        cmd = [self.binary, "lab", "compare", "--json", "--fen", fen, "--depth", str(depth)]
        out = subprocess.run(cmd + (["--published"] if published else []),
                             capture_output=True, text=True, check=True)
        expected = {}
        for line in out.stdout.splitlines():
            row = json.loads(line)
            expected[(row["algorithm"], row["depth"])] = (row["nodes"], row["leaves"])
        assert len(expected) == 5 * depth, expected
        assert shown == expected, f"page {shown} != cli {expected}"

    def tree_steps(self):
        self.view("position")
        Select(self.el("#game")).select_by_value("text")
        self.fill("#tree-text", TEXT_TREE)
        self.view("tree")
        self.click("#tree-build")
        self.wait(lambda: "value 3" in self.el("#tree-summary").text)
        self.click("#step-first")
        entered, kinds = [], []
        total = int(self.el("#step-count").text.split()[-1])
        for _ in range(total):
            self.click("#step-fwd")
            text = self.el("#step-text")
            kinds.append(text.get_attribute("data-kind"))
            if kinds[-1] == "enter":
                entered.append(text.get_attribute("data-label"))
        assert entered == ["A", "B", "D", "E", "C", "F"], entered
        assert kinds.count("cutoff") == 1, kinds
        assert self.el("#step-order").text == "visiting order: A B D E C F"
        self.click("#step-back")
        assert self.el("#step-count").text == f"step {total - 1} of {total}"
        assert self.node_names("pruned") == ["G"], self.node_names("pruned")
        self.click("#step-last")
        assert self.node_names("pv") == ["A", "B", "D"], self.node_names("pv")

    def node_names(self, cls):
        """The labels of the drawn nodes with class `cls`, in visiting order."""
        return self.d.execute_script(
            "return [...document.querySelectorAll('#tree g.tn.' + arguments[0])]"
            ".sort((a, b) => a.dataset.node - b.dataset.node)"
            ".map((g) => g.querySelector('text.name').textContent)", cls)

    def tictactoe_click(self):
        self.view("position")
        Select(self.el("#game")).select_by_value("tictactoe")
        self.click("#ttt-clear")
        self.wait(lambda: "X to move" in self.el("#ttt-info").text)
        self.click('[data-cell="b2"]')
        self.wait(lambda: self.el('[data-cell="b2"]').text == "X")
        self.wait(lambda: "O to move" in self.el("#ttt-info").text, timeout=5)

    def shared_position(self):
        # Set in one view, shown in every other, kept over a reload.
        self.set_position("ordering", KIWIPETE)
        self.view("position")
        Select(self.el("#game")).select_by_value("chess")
        self.wait(lambda: self.el("#fen").get_attribute("value") == KIWIPETE)
        self.wait(lambda: "48 legal moves" in self.el("#pos-info").text)
        for view in ("compare", "ablation"):
            self.view(view)
            self.wait(lambda: self.el(f"#{PREFIX[view]}-posbar .posbar-fen").text == KIWIPETE)
        self.view("position")
        self.click("#fen-published")
        self.wait(lambda: self.el("#fen").get_attribute("value") == PUBLISHED)
        self.d.refresh()
        self.view("compare")
        self.wait(lambda: self.el("#cmp-posbar .posbar-fen").text == PUBLISHED)

    def rows(self, table):
        return len(self.d.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr"))

    def errors_clear_stale_results(self):
        # A refused request removes the last table and chart and says why.
        self.view("ordering")
        self.click("#ord-source-fen")
        Select(self.el("#ord-depth")).select_by_value("1")
        self.click("#ord-run")
        self.wait_job("ord-status")
        assert self.rows("ord-table") == 4 and self.d.find_elements(By.CSS_SELECTOR, "#ord-chart svg")
        self.set_position("ordering", "8/8/8/8/8/8/8/8 w - - 0 1", refused=True)
        assert "not changed" in self.el("#ord-error").text, self.el("#ord-error").text
        self.click("input[name=ord-source][value=bench]")
        self.fill("#ord-positions", "99")
        self.click("#ord-run")
        self.wait(lambda: self.el("#ord-status").get_attribute("data-state") == "failed")
        assert "positions must be 1 to" in self.el("#ord-error").text, self.el("#ord-error").text
        assert self.rows("ord-table") == 0 and not self.d.find_elements(By.CSS_SELECTOR, "#ord-chart svg")
        self.fill("#ord-positions", "4")
        # A job that fails (over its node budget) leaves its rows marked stale.
        self.set_position("compare", KIWIPETE)
        Select(self.el("#cmp-depth")).select_by_value("6")
        self.click("#cmp-run")
        self.wait(lambda: self.el("#cmp-status").get_attribute("data-state") == "failed")
        assert "node budget" in self.el("#cmp-error").text, self.el("#cmp-error").text
        assert "stale" in self.el("#cmp-results").get_attribute("class")
        assert self.el("#cmp-results .stale-note").is_displayed()
        # A refused FEN marks the board stale.
        self.view("position")
        self.fill("#fen", "not a fen")
        self.click("#fen-set")
        self.wait(lambda: "stale" in self.el("#board").get_attribute("class"))
        assert self.el("#fen-error").text.startswith("FEN")

    def progress_counts_nodes(self):
        # The status line's node count, as each poll sets it, only grows.
        self.set_position("compare", KIWIPETE)
        Select(self.el("#cmp-depth")).select_by_value("4")
        Select(self.el("#cmp-eval")).select_by_visible_text("full")
        self.d.execute_script("""
            window.seen = [];
            const el = document.getElementById('cmp-status');
            new MutationObserver(() => window.seen.push([el.dataset.state, Number(el.dataset.nodes || 0), el.textContent]))
              .observe(el, {attributes: true, childList: true, characterData: true, subtree: true});""")
        self.click("#cmp-run")
        self.wait_job("cmp-status")
        Select(self.el("#cmp-eval")).select_by_visible_text("material")
        seen = self.d.execute_script("return window.seen")
        nodes = [n for state, n, _ in seen if state in ("running", "done")]
        assert nodes == sorted(nodes), nodes
        running = {n for state, n, _ in seen if state == "running"}
        assert len(running) >= 2, seen
        assert any("nodes of about" in t for _, _, t in seen), seen
        assert nodes[-1] > 4_000_000, nodes[-1]

    def charts_and_words(self):
        self.view("ordering")
        self.click("#ord-source-fen")
        Select(self.el("#ord-depth")).select_by_value("2")
        self.click("#ord-run")
        self.wait_job("ord-status")
        assert len(self.d.find_elements(By.CSS_SELECTOR, "#ord-chart svg rect.bar")) == 8
        self.view("ablation")
        self.click("#abl-source-fen")
        Select(self.el("#abl-depth")).select_by_value("3")
        self.click("#abl-run")
        self.wait_job("abl-status")
        bars = self.d.find_elements(By.CSS_SELECTOR, "#abl-chart svg rect.bar")
        assert len(bars) == self.rows("abl-table") - 1 > 20, len(bars)
        assert self.d.find_elements(By.CSS_SELECTOR, '#abl-table a[href="/doc.html#pruning-and-reductions"]')
        for table in ("cmp-table", "ord-table", "ord-id", "abl-table"):
            heads = self.d.find_elements(By.CSS_SELECTOR, f"#{table} th")
            assert heads and all(h.get_attribute("title") for h in heads), table
        # Every text of every chart inside its drawing (the legend included).
        outside = self.d.execute_script("""
            const bad = [];
            for (const svg of document.querySelectorAll('.chart-svg')) {
              const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
              for (const t of svg.querySelectorAll('text')) {
                const b = t.getBBox();
                if (b.width && (b.x < 0 || b.y < 0 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5))
                  bad.push(t.textContent);
              }
            }
            return bad;""")
        assert not outside, outside

    def phone_width(self):
        # At 390 px no view is wider than the screen (tables scroll inside).
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        try:
            for view in ("position", "compare", "scores", "ordering", "ablation"):
                self.view(view)
                if view == "position":
                    Select(self.el("#game")).select_by_value("chess")
                else:
                    self.click(f"#{PREFIX[view]}-run")
                    self.wait_job(f"{PREFIX[view]}-status")
                width = self.d.execute_script("return document.documentElement.scrollWidth")
                assert width <= 390, f"{view}: {width} px wide"
                self.shot(f"{view}-390", full=True)
        finally:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})

    def screenshots(self):
        # The views as the docs show them.
        self.view("position")
        Select(self.el("#game")).select_by_value("chess")
        self.click("#fen-published")
        self.set_position("compare", PUBLISHED)
        box = self.el("#cmp-published-rules")
        if not box.is_selected():
            box.click()
        Select(self.el("#cmp-depth")).select_by_value("4")
        Select(self.el("#cmp-runs")).select_by_value("5")
        self.click("#cmp-run")
        self.wait_job("cmp-status")
        self.shot("compare", full=True)
        box.click()
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})
        self.set_position("scores", PUBLISHED)
        Select(self.el("#scr-depth")).select_by_value("3")
        self.click("#scr-run")
        self.wait_job("scr-status")
        self.shot("scores", full=True)
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})
        self.tree_shot("tree")
        self.practice_shot("practice")
        self.view("ordering")
        self.click("input[name=ord-source][value=bench]")
        self.fill("#ord-positions", "2")
        self.click("#ord-run")
        self.wait_job("ord-status")
        self.shot("ordering", full=True)
        self.view("ablation")
        self.click("input[name=abl-source][value=bench]")
        Select(self.el("#abl-depth")).select_by_value("4")
        self.fill("#abl-positions", "2")
        self.click("#abl-run")
        self.wait_job("abl-status")
        self.shot("ablation", full=True)
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", nargs="?", default="target/release/cutoff")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    ap.add_argument("--screenshots", metavar="DIR", help="save lab-<view>.png of each view here")
    ap.add_argument("--only", metavar="WORD", action="append",
                    help="run only the checks whose name holds WORD (repeatable)")
    args = ap.parse_args()
    server, url = start_server(args.binary)
    driver = None
    try:
        try:
            driver = start_browser(args.chromium, args.chromedriver)
        except Exception as e:
            print(f"lab_browser_test: cannot start headless Chromium ({args.chromium}, "
                  f"{args.chromedriver}): {type(e).__name__}: {e}")
            sys.exit(1)
        checks = Checks(driver, url, args.binary, args.screenshots,
                        lambda: start_browser(args.chromium, args.chromedriver), args.only)
        checks.run("the page loads", checks.loads)
        checks.run("an illegal FEN gets a message", checks.illegal_fen)
        checks.run("a FEN is set and moves are played by clicking", checks.set_fen_and_move)
        checks.run("compare to depth 3 shows the CLI's node counts", checks.compare_matches_cli)
        checks.run("the published position to depth 5 shows the CLI's node counts",
                   checks.published_matches_cli)
        checks.run("Compare sets the published node counts beside ours", checks.compare_published)
        checks.run("the Scores view sets Table 1 beside ours", checks.scores_view)
        checks.run("a refused job is explained in the server's words", checks.api_errors_in_words)
        checks.run("a textbook tree steps in visiting order", checks.tree_steps)
        checks.run("the A..J tree shows the trace's window at every step", checks.tree_windows)
        checks.run("the pseudocode follows each algorithm", checks.tree_pseudocode)
        checks.run("A..J, every algorithm and form: each step is the reference trace's",
                   checks.tree_every_step)
        checks.run("the editor's trees search as `cutoff lab tree` does", checks.editor_matches_cli)
        checks.run("quiz, a node's value: hint, wrong, right", checks.quiz_value)
        checks.run("quiz, the window a node is entered with: hint, wrong, right", checks.quiz_window)
        checks.run("quiz, the move that causes a cutoff: hint, wrong, right", checks.quiz_cutoff)
        checks.run("quiz, the leaves never evaluated: hint, wrong, right", checks.quiz_pruned)
        checks.run("a quiz question hides the counts and locks stepping", checks.quiz_locks_and_hides)
        checks.run("the quiz ends when the algorithm changes", checks.quiz_ends_on_algorithm_change)
        checks.run("quiz: a link opens its question in a fresh browser", checks.quiz_link)
        checks.run("the Tree view fits 390 px", checks.tree_phone)
        checks.run("tree: a fresh Tree view opens on A..J, drawn", checks.opens_on_textbook)
        checks.run("tree: a link opens its tree, algorithm and step in a fresh browser",
                   checks.link_opens_state)
        checks.run("tree: a reload keeps the tree, the algorithm and the step", checks.reload_keeps_state)
        checks.run("tree: the slider and the jumps land on the trace's steps", checks.slider_and_jumps)
        checks.run("tree: keys reach only the control they are aimed at", checks.keys_aimed)
        checks.run("tree: an edit keeps the step, a new tree at the end stays at the end",
                   checks.edit_keeps_step)
        checks.run("tree: the PNG and SVG exports are the drawing", checks.png_export)
        checks.run("tree: a 3x3x3 tree at 1280 px, whole, labels of 12 px", checks.readable_1280)
        checks.run("tree: at 390 px the tree on the first screen, the pseudocode a tap away",
                   checks.phone_tree)
        checks.run("200 steps through a depth-3 chess tree (time per step printed)", checks.step_time)
        checks.run("tic-tac-toe is played by clicking", checks.tictactoe_click)
        checks.run("a position set in one view is every view's", checks.shared_position)
        checks.run("an error clears or marks the stale results", checks.errors_clear_stale_results)
        checks.run("progress counts nodes, and only up", checks.progress_counts_nodes)
        checks.run("ordering and ablation draw charts; columns explained", checks.charts_and_words)
        checks.run("every view fits 390 px", checks.phone_width)
        if args.screenshots:
            checks.run("screenshots of every view", checks.screenshots)
    finally:
        if driver:
            driver.quit()
        server.kill()
        server.wait()
    print(f"lab_browser_test: {checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
