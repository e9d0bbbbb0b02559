#!/usr/bin/env python3
"""The lab's web application in a real browser: starts `cutoff lab serve`,
drives headless Chromium through Selenium, and checks what the page shows.

Checks: the page loads; an illegal FEN gets a message; a FEN set on the
board and run through Compare to depth 3 shows the node and leaf counts of
`cutoff lab compare --json` for the same FEN and depth; a textbook tree
stepped forward visits its nodes in alpha-beta's order, and stepping back
undoes a step; a tic-tac-toe move is played by clicking. With
--screenshots DIR it also saves a 1000x700 PNG of each view there.

Needs Debian's chromium and chromium-driver, and `pip install selenium`.
Prints 'N passed, M failed' last; exit 1 if a check failed.
"""

import argparse
import json
import re
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PUBLISHED = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"
TEXT_TREE = "A:max(B:min(D:3,E:5),C:min(F:2,G:1))"
# The textbook's A..J tree (the Position view's second example).
AJ_TREE = ("A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),"
           "D:min(I:max(4),J:max(1)))")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
WAIT = 120  # seconds; only a hang reaches it


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


class Checks:
    def __init__(self, driver, url, binary, shots):
        self.d, self.url, self.binary, self.shots = driver, url, binary, shots
        self.passed, self.failed = 0, 0

    def run(self, name, check):
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

    def shot(self, name):
        if self.shots:
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

    def compare_matches_cli(self):
        self.view("compare")
        self.click("#cmp-from-position")
        assert self.el("#cmp-fen").get_attribute("value") == KIWIPETE
        self.compare_run(KIWIPETE, 3, published=False)
        assert self.d.find_elements(By.CSS_SELECTOR, "#cmp-chart svg polyline")

    def published_matches_cli(self):
        # The published position to depth 5, with our rules and with the
        # published python-chess rules.
        for published in (False, True):
            self.view("compare")
            self.click("#cmp-published")
            assert self.el("#cmp-fen").get_attribute("value") == PUBLISHED
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

    # The drawn Tree view
    def api_tree(self, request):
        req = urllib.request.Request(f"{self.url}api/tree", data=json.dumps(request).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as answer:
            return json.load(answer)

    def text_tree(self, text, algorithm="failsoft"):
        """Searches `text` in the Tree view and waits for its drawing."""
        self.view("position")
        Select(self.el("#game")).select_by_value("text")
        self.fill("#tree-text", text)
        self.view("tree")
        Select(self.el("#tree-algo")).select_by_value(algorithm)
        self.d.execute_script("document.getElementById('tree-summary').textContent = ''")
        self.click("#tree-build")
        self.wait(lambda: "nodes visited" in self.el("#tree-summary").text)

    def node_text(self, label, part):
        return self.d.execute_script(
            "const g = [...document.querySelectorAll('#tree g.tn')].find("
            "(g) => g.querySelector('text.name').textContent === arguments[0]);"
            "return g ? g.querySelector('text.' + arguments[1]).textContent : null", label, part)

    def tree_windows(self):
        """A..J stepped: the window shown at every step is the trace's."""
        self.text_tree(AJ_TREE)
        trace = self.api_tree({"game": "text", "text": AJ_TREE, "algorithm": "failsoft"})
        self.click("#step-first")
        total = len(trace["steps"])
        assert self.el("#step-count").text == f"step 0 of {total}"
        cuts = []
        for k, step in enumerate(trace["steps"]):
            self.click("#step-fwd")
            win = self.el("#step-window")
            shown = [win.get_attribute(f"data-{a}") for a in ("node", "alpha", "beta", "best")]
            want = [str(step["node"]), step["alpha_text"], step["beta_text"], step["best_text"]]
            assert shown == want, f"step {k + 1}: page {shown} != trace {want}"
            label = self.el("#step-text").get_attribute("data-label")
            if step["kind"] == "enter" and label == "F":
                assert (step["alpha_text"], step["beta_text"]) == ("-inf", "5"), step
            if step["kind"] == "cutoff":
                cuts.append(self.el("#step-text").text)
        assert len(cuts) == 2, cuts
        assert "F (MAX) cuts off because 11 ≥ β = 5" in cuts[0], cuts
        assert "D (MIN) cuts off because 4 ≤ α = 5" in cuts[1], cuts
        # The drawing: B's window narrowed by E's 5, F's cut explained,
        # pruned leaves with their values, the root's label kept.
        assert self.node_text("B", "win") == "α=−∞ β=5", self.node_text("B", "win")
        assert self.node_text("F", "cut") == "11 ≥ β = 5", self.node_text("F", "cut")
        assert self.node_text("A", "val") == "5"
        pruned = self.d.execute_script(
            "return [...document.querySelectorAll('#tree g.tn.pruned.leaf text.val')]"
            ".map((t) => t.textContent).sort()")
        assert pruned == ["1", "9"], pruned
        # Keys: Home, Right, End, Left.
        body = self.el("body")
        body.send_keys(Keys.HOME)
        self.wait(lambda: self.el("#step-count").text == f"step 0 of {total}")
        body.send_keys(Keys.ARROW_RIGHT)
        self.wait(lambda: self.el("#step-count").text == f"step 1 of {total}")
        body.send_keys(Keys.END)
        body.send_keys(Keys.ARROW_LEFT)
        self.wait(lambda: self.el("#step-count").text == f"step {total - 1} of {total}")

    def tree_pseudocode(self):
        """Each algorithm's trace highlights its lines: a cutoff, a return."""
        for algo, cut_line in (("failsoft", "6"), ("failhard", "5"), ("pvs", "11")):
            self.text_tree(AJ_TREE, algo)
            assert self.el("ol.pseudo").get_attribute("data-algorithm") == algo
            self.click("#step-first")
            while self.el("#step-text").get_attribute("data-kind") != "cutoff":
                self.click("#step-fwd")
            assert self.el("#pseudo").get_attribute("data-lines") == cut_line, algo
        self.text_tree(AJ_TREE, "minimax")
        assert "0 moves pruned" in self.el("#tree-summary").text

    def editor(self, seed):
        self.view("tree")
        Select(self.el("#tree-algo")).select_by_value("failsoft")  # as `cutoff lab tree`
        if not self.el("#ed-box").get_attribute("open"):
            self.click("#ed-box summary")
        self.fill("#ed-seed", str(seed))
        self.fill("#ed-branching", "3")
        self.fill("#ed-depth", "3")
        self.d.execute_script("document.getElementById('tree-summary').textContent = ''")
        self.click("#ed-random")
        self.wait(lambda: "nodes visited" in self.el("#tree-summary").text)

    def summary(self):
        data = {k: self.el("#tree-summary").get_attribute(f"data-{k}")
                for k in ("value", "nodes", "leaves", "pruned")}
        return data, self.el("#ed-text").get_attribute("value")

    def cli_tree(self, text):
        out = subprocess.run([self.binary, "lab", "tree", "--tree", text, "--out", "/dev/null"],
                             capture_output=True, text=True, check=True).stdout
        m = re.match(r"value (\S+), (\d+) nodes visited, (\d+) leaves evaluated, (\d+) moves pruned", out)
        assert m, out
        return dict(zip(("value", "nodes", "leaves", "pruned"), m.groups()))

    def editor_matches_cli(self):
        """A random tree, one leaf edited: the page's search is the CLI's."""
        self.editor(5)
        shown, text = self.summary()
        assert shown == self.cli_tree(text), (shown, text)
        self.click("#step-last")
        leaf = self.d.execute_script(
            "return document.querySelector('#tree g.tn.leaf').dataset.node")
        self.d.execute_script("document.getElementById('tree-summary').textContent = ''")
        self.click(f'#tree g.tn[data-node="{leaf}"] .shape')
        self.fill("#ed-value", "-7")
        self.click("#ed-set")
        self.wait(lambda: "nodes visited" in self.el("#tree-summary").text)
        shown, edited = self.summary()
        assert edited != text and "-7" in edited, (text, edited)
        assert shown == self.cli_tree(edited), (shown, edited)
        # Best first: at most the Knuth-Moore minimum of 3^2 + 3^1 - 1 leaves.
        self.d.execute_script("document.getElementById('tree-summary').textContent = ''")
        self.click("#ed-best")
        self.wait(lambda: "nodes visited" in self.el("#tree-summary").text)
        shown, ordered = self.summary()
        assert int(shown["leaves"]) <= 11, (shown, ordered)
        assert shown == self.cli_tree(ordered), (shown, ordered)
        # Bad text: a message and no drawing left behind.
        self.fill("#ed-text", "max(1,")
        self.click("#ed-search")
        self.wait(lambda: self.el("#tree-error").text != "")
        assert "byte" in self.el("#tree-error").text
        assert not self.d.find_elements(By.CSS_SELECTOR, "#tree svg")

    def quiz(self):
        """The quiz: the right leaves (9 and 1 in A..J), then a wrong one."""
        self.text_tree(AJ_TREE)
        if not self.el("#ed-box").get_attribute("open"):
            self.click("#ed-box summary")
        for answer, correct in ((("9", "1"), "true"), (("3",), "false")):
            self.click("#ed-quiz")
            self.wait(lambda: self.el("#ed-quiz").text == "End the quiz")
            for value in answer:
                node = self.d.execute_script(
                    "return [...document.querySelectorAll('#tree g.tn.leaf')].find("
                    "(g) => g.querySelector('text.val').textContent === arguments[0]).dataset.node",
                    value)
                self.click(f'#tree g.tn[data-node="{node}"] .shape')
            self.click("#quiz-check")
            self.wait(lambda: self.el("#quiz-result").get_attribute("data-correct") != "")
            assert self.el("#quiz-result").get_attribute("data-correct") == correct, \
                self.el("#quiz-result").text
            self.click("#ed-quiz")

    def tree_phone(self):
        """At 390 px the Tree view does not scroll sideways."""
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
        try:
            self.text_tree(AJ_TREE)
            for _ in range(20):
                self.click("#step-fwd")
            if not self.el("#ed-box").get_attribute("open"):
                self.click("#ed-box summary")
            width = self.d.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide"
            if self.shots:
                self.d.save_screenshot(f"{self.shots}/lab-tree-390.png")
        finally:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})

    def step_time(self):
        """Milliseconds per step on the start position's depth-3 tree."""
        self.view("position")
        Select(self.el("#game")).select_by_value("chess")
        self.click("#fen-start")
        self.wait(lambda: "20 legal moves" in self.el("#pos-info").text)
        self.view("tree")
        Select(self.el("#tree-algo")).select_by_value("failsoft")
        self.fill("#tree-depth", "3")
        self.d.execute_script("document.getElementById('tree-summary').textContent = ''")
        self.click("#tree-build")
        self.wait(lambda: "nodes visited" in self.el("#tree-summary").text)
        ms = self.d.execute_script("""
            document.getElementById('step-first').click();
            const n = 200, t0 = performance.now();
            for (let i = 0; i < n; i++) {
              document.getElementById('step-fwd').click();
              document.body.offsetHeight;  // layout included
            }
            return (performance.now() - t0) / n;""")
        print(f"     {ms:.2f} ms per step ({self.el('#step-count').text})")
        assert ms < 25, ms

    def tictactoe_click(self):
        self.view("position")
        Select(self.el("#game")).select_by_value("tictactoe")
        self.click("#ttt-clear")
        self.wait(lambda: "X to move" in self.el("#ttt-info").text)
        self.click('[data-cell="b2"]')
        self.wait(lambda: self.el('[data-cell="b2"]').text == "X")
        self.wait(lambda: "O to move" in self.el("#ttt-info").text, timeout=5)

    def screenshots(self):
        # The views as the docs show them.
        self.view("position")
        Select(self.el("#game")).select_by_value("chess")
        self.click("#fen-published")
        self.view("compare")
        self.click("#cmp-published")
        Select(self.el("#cmp-depth")).select_by_value("5")
        self.click("#cmp-run")
        self.wait_job("cmp-status")
        self.shot("compare")
        self.view("position")
        Select(self.el("#game")).select_by_value("text")
        self.d.find_elements(By.CSS_SELECTOR, "button.example")[1].click()
        self.view("tree")
        self.click("#tree-build")
        self.wait(lambda: "value 5" in self.el("#tree-summary").text)
        self.click("#step-first")
        for _ in range(14):
            self.click("#step-fwd")
        self.shot("tree")
        self.view("ordering")
        self.fill("#ord-positions", "2")
        self.click("#ord-run")
        self.wait_job("ord-status")
        self.shot("ordering")
        self.view("ablation")
        Select(self.el("#abl-depth")).select_by_value("4")
        self.fill("#abl-positions", "2")
        self.click("#abl-run")
        self.wait_job("abl-status")
        self.shot("ablation")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", nargs="?", default="target/release/cutoff")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    ap.add_argument("--screenshots", metavar="DIR", help="save lab-<view>.png of each view here")
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
        checks = Checks(driver, url, args.binary, args.screenshots)
        checks.run("the page loads", checks.loads)
        checks.run("an illegal FEN gets a message", checks.illegal_fen)
        checks.run("a FEN is set and moves are played by clicking", checks.set_fen_and_move)
        checks.run("compare to depth 3 shows the CLI's node counts", checks.compare_matches_cli)
        checks.run("the published position to depth 5 shows the CLI's node counts",
                   checks.published_matches_cli)
        checks.run("a textbook tree steps in visiting order", checks.tree_steps)
        checks.run("the A..J tree shows the trace's window at every step", checks.tree_windows)
        checks.run("the pseudocode follows each algorithm", checks.tree_pseudocode)
        checks.run("the editor's trees search as `cutoff lab tree` does", checks.editor_matches_cli)
        checks.run("the quiz checks an answer", checks.quiz)
        checks.run("the Tree view fits 390 px", checks.tree_phone)
        checks.run("a step of a depth-3 chess tree is quick", checks.step_time)
        checks.run("tic-tac-toe is played by clicking", checks.tictactoe_click)
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
