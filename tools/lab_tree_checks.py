"""The Tree view's checks for lab_browser_test.py: the drawn tree, its
windows against the API's trace, the pseudocode, every step of A..J with
each algorithm against the independent trace of lab_tree_reference.py, the editor against
`cutoff lab tree`, the phone width and the time per step.
Mixed into its Checks class, whose helpers (view, click, el, fill, wait,
shot) they use."""

import json
import re
import subprocess
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import lab_tree_reference as reference

# The textbook's A..J tree (the Position view's second example).
AJ_TREE = ("A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),"
           "D:min(I:max(4),J:max(1)))")


class TreeChecks:
    def api_tree(self, request):
        req = urllib.request.Request(f"{self.url}api/tree", data=json.dumps(request).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as answer:
            return json.load(answer)

    def text_tree(self, text, algorithm="failsoft", test=">="):
        """Searches `text` in the Tree view and waits for its drawing."""
        self.view("position")
        Select(self.el("#game")).select_by_value("text")
        self.fill("#tree-text", text)
        self.view("tree")
        Select(self.el("#tree-algo")).select_by_value(algorithm)
        self.d.execute_script("document.getElementById('tree-test').value = arguments[0]", test)
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
        assert len(cuts) == 3, cuts
        assert "F (MAX) cuts off because 11 ≥ β = 5" in cuts[0], cuts
        assert "C (MIN) cuts off because 4 ≤ α = 5: it was the last move" in cuts[1], cuts
        assert "D (MIN) cuts off because 4 ≤ α = 5" in cuts[2], cuts
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
        for algo, cut_line in (("failsoft", "6 7"), ("failhard", "5 6"), ("pvs", "11 12")):
            self.text_tree(AJ_TREE, algo)
            assert self.el("ol.pseudo").get_attribute("data-algorithm") == algo
            self.click("#step-first")
            while self.el("#step-text").get_attribute("data-kind") != "cutoff":
                self.click("#step-fwd")
            assert self.el("#pseudo").get_attribute("data-lines") == cut_line, algo
        self.text_tree(AJ_TREE, "minimax")
        assert "0 moves pruned" in self.el("#tree-summary").text

    STEP_STATE = """
        const text = document.getElementById('step-text');
        const win = document.getElementById('step-window');
        const cuts = {}, failed = {}, values = {}, visits = {};
        for (const g of document.querySelectorAll('#tree g.tn')) {
          const name = g.querySelector('text.name').textContent;
          const cut = g.querySelector('text.cut').textContent;
          const visit = g.querySelector('text.visit').textContent;
          if (visit) visits[g.dataset.node] = visit;
          if (!name) continue;
          if (cut) (g.classList.contains('tested-no') ? failed : cuts)[name] = cut;
          values[name] = g.querySelector('text.val').textContent;
        }
        return {kind: text.dataset.kind, label: text.dataset.label, text: text.textContent,
                alpha: win.dataset.alpha, beta: win.dataset.beta, best: win.dataset.best,
                lines: document.getElementById('pseudo').dataset.lines,
                cuts, failed, values, visits};"""

    def tree_every_step(self):
        """A..J stepped with each algorithm and form: every step's node,
        window, value, highlighted lines, test and cutoff marks are those of
        the independent trace in lab_tree_reference.py."""
        sym = lambda t: t.replace("+inf", "+∞").replace("-inf", "−∞")
        for algo, test in reference.FINAL_VALUES:
            steps, evaluated, value = reference.trace(algo, test)
            self.text_tree(AJ_TREE, algo, test)
            summary = self.el("#tree-summary").text
            assert f"value {value}" in summary, summary
            lines = self.d.execute_script(
                "return [...document.querySelectorAll('ol.pseudo li')].map((l) => l.textContent)")
            self.click("#step-first")
            assert self.el("#step-count").text == f"step 0 of {len(steps)}", (algo, test)
            for k, want in enumerate(steps):
                where = f"{algo} {test} step {k + 1}"
                page = self.d.execute_script(
                    "document.getElementById('step-fwd').click();" + self.STEP_STATE)
                # Minimax has no window: only its node and value are checked.
                keys = ("kind", "label", "best") if algo == "minimax" else \
                    ("kind", "label", "alpha", "beta", "best")
                got = {key: page[key] for key in keys}
                assert got == {key: want[key] for key in got}, f"{where}: {got} != {want}"
                want_lines = " ".join(map(str, want["lines"]))
                assert page["lines"] == want_lines, f"{where}: lines {page['lines']} != {want_lines}"
                assert page["cuts"] == {n: sym(t) for n, t in want["cuts"].items()}, \
                    f"{where}: cutoff marks {page['cuts']} != {want['cuts']}"
                if want["test"]:
                    shown = f"{sym(want['test'][0])}? {'yes' if want['test'][1] else 'no'}"
                    assert shown in page["text"], f"{where}: {page['text']!r} lacks {shown!r}"
                    if not want["test"][1] and want["label"] not in want["cuts"]:
                        assert page["failed"] == {want["label"]: shown}, (where, page["failed"])
                    if want["kind"] == "update":  # the test line in the form's comparison
                        big = algo == "pvs" or want["label"] not in "BCD"
                        op = {(True, ">="): "≥", (False, ">="): "≤", (True, ">"): ">",
                              (False, ">"): "<"}[(big, test)]
                        assert any(op in lines[i] for i in want["lines"]), (where, op)
                if want["kind"] == "cutoff":
                    assert any("cutoff" in lines[i] for i in want["lines"]), where
            # The end: every inner node's value, bounds where cut off.
            drawn = " ".join(f"{n} {page['values'][n]}" for n in "ABEFCGHDIJ" if page["values"].get(n))
            want_values = reference.FINAL_VALUES[(algo, test)]
            assert drawn == want_values, f"{algo} {test}: values {drawn!r} != {want_values!r}"
            never = 8 - evaluated
            assert f"({never} of 8 leaves never evaluated)" in summary, (algo, test, summary)
            if algo == "pvs":  # E's second leaf, searched again, is one node
                assert list(page["visits"].values()) == ["visit 2"], page["visits"]

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
        self.click("#tree-fit")  # 27 leaves: wider than the box at full size
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
        self.click("#tree-build")
        self.wait(lambda: self.el("#tree-error").text != "")
        assert "byte" in self.el("#tree-error").text
        assert not self.d.find_elements(By.CSS_SELECTOR, "#tree svg")

    def tree_shot(self, name):
        """The A..J tree just after F's cutoff, the stepper at the top."""
        if not self.shots:
            return
        self.text_tree(AJ_TREE)
        self.click("#step-first")
        for _ in range(16):
            self.click("#step-fwd")
        assert self.el("#step-text").get_attribute("data-kind") == "cutoff"
        phone = self.d.execute_script("return window.innerWidth") < 600
        if phone:  # the first screen, as a student sees it
            self.d.execute_script("window.scrollTo(0, 0)")
            self.shot(name)
            return
        # The stepper, the step's sentence, the tree and the pseudocode.
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1000, "height": 860, "deviceScaleFactor": 1, "mobile": False})
        self.d.execute_script("document.getElementById('step-first').scrollIntoView()")
        self.shot(name)
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})

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
            self.tree_shot("tree-390")
        finally:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})

    def step_time(self):
        """Steps 200 times through the start position's depth-3 tree and prints the milliseconds per step."""
        self.view("position")
        Select(self.el("#game")).select_by_value("chess")
        self.click("#fen-start")
        self.wait(lambda: "20 legal moves" in self.el("#pos-info").text)
        self.view("tree")
        Select(self.el("#tree-game")).select_by_value("chess")
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
        # Reported, not asserted: speed is measured, never a test's verdict.
        count = self.el("#step-count").text
        print(f"     {ms:.2f} ms per step ({count})")
        assert count.startswith("step 200 of "), count
