"""The Tree view's keeping and sharing checks for lab_browser_test.py: a
link opens its tree, algorithm and step in a fresh browser; a reload keeps
the state; the PNG and SVG exports are the drawing; the step slider and
the jumps land on the steps the server's trace gives; keys reach only the
control they are aimed at; an edit keeps the step; the drawing is
readable at 1280 px and at 390 px. Mixed into lab_browser_test's Checks
class, whose helpers (view, click, el, fill, wait, api_tree) they use."""

import base64
import struct
import time
import xml.etree.ElementTree as ET
from urllib.parse import quote

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from lab_tree_checks import AJ_TREE

METRICS = "Emulation.setDeviceMetricsOverride"


def link(tree, algo, step, test=">="):
    return (f"#tree?game=text&tree={quote(tree, safe=':,()')}&algo={algo}"
            f"&test={quote(test)}&step={step}")


def end_of_node(trace, at):
    """The step `end of this node` goes to from step `at`."""
    steps, nodes = trace["steps"], trace["nodes"]
    if at == 0:
        return len(steps)
    node = steps[at - 1]["node"]
    if steps[at - 1]["kind"] == "leave" and nodes[node]["parent"] is not None:
        node = nodes[node]["parent"]
    leave = [k for k, s in enumerate(steps) if s["kind"] == "leave" and s["node"] == node]
    return leave[-1] + 1 if leave else len(steps)


def next_cutoff(trace, at):
    cuts = [k + 1 for k, s in enumerate(trace["steps"]) if s["kind"] == "cutoff" and k >= at]
    return cuts[0] if cuts else len(trace["steps"])


class TreeShareChecks:
    def tree_state(self, driver=None):
        d = driver or self.d
        return d.execute_script("""
            const S = TreeView.S;
            return {at: S.at, total: S.tree ? S.tree.steps.length : -1,
                    text: S.request && S.request.text, algo: S.algo,
                    shown: document.getElementById('step-count').textContent,
                    slider: document.getElementById('step-slider').value,
                    pseudo: document.querySelector('ol.pseudo') && document.querySelector('ol.pseudo').dataset.algorithm,
                    node: document.getElementById('step-window').dataset.node || null,
                    hash: decodeURIComponent(location.hash)};""")

    def wait_at(self, step, driver=None):
        d = driver or self.d
        WebDriverWait(d, 60).until(lambda _: self.tree_state(d)["at"] == step
                                   and f"step={step}" in self.tree_state(d)["hash"])

    def link_opens_state(self):
        """A link with a tree, an algorithm and a step opens that state in a
        fresh browser (no storage, no history)."""
        trace = self.api_tree({"game": "text", "text": AJ_TREE, "algorithm": "pvs"})
        step = 9
        fresh = self.new_browser()
        try:
            fresh.get(self.url + link(AJ_TREE, "pvs", step))
            WebDriverWait(fresh, 60).until(lambda d: d.execute_script(
                "return document.body.dataset.ready === 'true' && TreeView.S.tree !== null"))
            self.wait_at(step, fresh)
            st = self.tree_state(fresh)
            assert st["text"] == AJ_TREE and st["algo"] == "pvs" and st["pseudo"] == "pvs", st
            assert st["shown"] == f"step {step} of {len(trace['steps'])}", st
            assert st["node"] == str(trace["steps"][step - 1]["node"]), (st, trace["steps"][step - 1])
            assert fresh.find_element(By.ID, "tree-algo").get_attribute("value") == "pvs"
            assert fresh.find_element(By.ID, "ed-text").get_attribute("value") == AJ_TREE
        finally:
            fresh.quit()

    def opens_on_textbook(self):
        """A fresh Tree view shows the chapter's A..J tree, drawn."""
        fresh = self.new_browser()
        try:
            fresh.get(self.url + "#tree")
            WebDriverWait(fresh, 60).until(lambda d: d.execute_script(
                "return TreeView.S.tree !== null && document.querySelectorAll('#tree g.tn').length > 0"))
            st = self.tree_state(fresh)
            assert st["text"] == AJ_TREE, st
            # Before the first step the whole tree shows, faint: leaves to click.
            shown = fresh.execute_script(
                "return [...document.querySelectorAll('#tree g.tn.leaf')].filter((g) => g.getBBox().width > 0"
                " && getComputedStyle(g).display !== 'none').length")
            assert shown == 8, shown
        finally:
            fresh.quit()

    def reload_keeps_state(self):
        """A random tree, fail-hard, the slider at a step: a reload keeps all three."""
        self.editor(7)
        Select(self.el("#tree-algo")).select_by_value("failhard")
        self.wait(lambda: self.tree_state()["algo"] == "failhard")
        st = self.tree_state()
        step = st["total"] // 2
        self.slide(step)
        self.wait_at(step)
        before = self.tree_state()
        self.d.refresh()
        self.wait(lambda: self.d.execute_script(
            "return document.body.dataset.ready === 'true' && TreeView.S.tree !== null"))
        self.wait_at(step)
        after = self.tree_state()
        for key in ("at", "total", "text", "algo", "shown", "node"):
            assert after[key] == before[key], (key, before, after)

    def slide(self, step):
        self.d.execute_script("""
            const s = document.getElementById('step-slider');
            s.value = String(arguments[0]);
            s.dispatchEvent(new Event('input', {bubbles: true}));""", step)

    def slider_and_jumps(self):
        """The slider, next cutoff and end of this node against the trace."""
        for algo in ("failsoft", "pvs"):
            self.text_tree(AJ_TREE, algo)
            trace = self.api_tree({"game": "text", "text": AJ_TREE, "algorithm": algo})
            total = len(trace["steps"])
            for step in (0, 5, total, 11):
                self.slide(step)
                st = self.tree_state()
                assert st["at"] == step and st["shown"] == f"step {step} of {total}", (step, st)
                if step:
                    assert st["node"] == str(trace["steps"][step - 1]["node"]), (step, st)
            got = self.d.execute_script("""
                const out = [];
                for (let at = 0; at <= TreeView.S.tree.steps.length; at++) {
                  for (const id of ['step-cut', 'step-out']) {
                    TreeView.go(at);
                    document.getElementById(id).click();
                    out.push([at, id, TreeView.S.at, document.getElementById('step-slider').value]);
                  }
                }
                return out;""")
            for at, button, landed, slider in got:
                want = next_cutoff(trace, at) if button == "step-cut" else end_of_node(trace, at)
                assert landed == want and slider == str(want), (algo, at, button, landed, want)
            # Clicked from the start, next cutoff visits every cutoff in order.
            self.click("#step-first")
            cuts = []
            for _ in range(total):
                self.click("#step-cut")
                cuts.append(self.tree_state()["at"])
                if cuts[-1] == total:
                    break
            want = [k + 1 for k, s in enumerate(trace["steps"]) if s["kind"] == "cutoff"] + [total]
            assert cuts == want, (algo, cuts, want)

    def keys_aimed(self):
        """Arrows on a focused select or field neither step nor search again;
        on the page they step."""
        self.text_tree(AJ_TREE)
        self.slide(4)
        self.wait_at(4)
        self.d.execute_script("window.asked = 0; const f = window.fetch;"
                              "window.fetch = (...a) => (window.asked++, f(...a));")
        for css in ("#tree-algo", "#tree-test", "#step-speed", "#ed-text"):
            field = self.el(css)
            before = field.get_attribute("value")
            field.send_keys(Keys.ARROW_DOWN)
            field.send_keys(Keys.ARROW_RIGHT)
            time.sleep(0.3)
            assert self.tree_state()["at"] == 4, (css, self.tree_state())
            assert field.get_attribute("value") == before, (css, before, field.get_attribute("value"))
        assert self.d.execute_script("return window.asked") == 0, "a key searched again"
        self.el("#step-fwd").click()  # a button has focus: arrows step
        self.el("#step-fwd").send_keys(Keys.ARROW_RIGHT)
        self.wait(lambda: self.tree_state()["at"] == 6)
        trace = self.api_tree({"game": "text", "text": AJ_TREE, "algorithm": "failsoft"})
        self.el("body").send_keys("c")
        self.wait(lambda: self.tree_state()["at"] == next_cutoff(trace, 6))

    def edit_keeps_step(self):
        """A leaf's new value keeps the step; a new random tree at the end stays at the end."""
        self.text_tree(AJ_TREE)
        self.slide(7)
        self.wait_at(7)
        if not self.el("#ed-box").get_attribute("open"):
            self.click("#ed-box summary")
        # E's leaf 5, open at step 7 (its value drawn as "?").
        leaf = self.d.execute_script(
            "const t = TreeView.S.tree; return t.nodes.findIndex((n, i) => n.leaf_value === 5"
            " && t.nodes[n.parent].label === 'E')")
        self.click(f'#tree g.tn[data-node="{leaf}"] .shape')
        self.fill("#ed-value", "2")
        self.click("#ed-set")
        self.wait(lambda: "E:max(3,2)" in (self.tree_state()["text"] or ""))
        assert self.tree_state()["at"] == 7, self.tree_state()
        self.click("#step-last")
        edited = self.tree_state()["text"]
        self.fill("#ed-seed", "11")
        self.click("#ed-random")
        self.wait(lambda: self.tree_state()["text"] not in (None, edited))
        st = self.tree_state()
        assert st["at"] == st["total"], st

    def png_export(self):
        """The PNG is a PNG of the drawing's size (twice the layout); the SVG
        parses and holds every drawn node."""
        self.text_tree(AJ_TREE)
        self.click("#step-last")
        size = self.d.execute_script("const s = TreeShare.svgText(); return [s.w, s.h, s.text];")
        w, h, svg = size
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg"), root.tag
        drawn = len(self.d.find_elements(By.CSS_SELECTOR, "#tree g.tn"))
        groups = [g for g in root.iter() if g.get("class", "").startswith("tn")]
        assert len(groups) == drawn > 0, (len(groups), drawn)
        url = self.d.execute_async_script(
            "const done = arguments[0]; TreeShare.pngDataUrl().then(done, (e) => done('error ' + e.message));")
        assert url.startswith("data:image/png;base64,"), url[:60]
        png = base64.b64decode(url.split(",", 1)[1])
        assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:8]
        assert png[12:16] == b"IHDR", png[12:16]
        pw, ph = struct.unpack(">II", png[16:24])
        assert (pw, ph) == (round(2 * w), round(2 * h)), ((pw, ph), (w, h))
        # Not a blank page: the drawing's ink makes it far larger than a blank PNG.
        assert len(png) > 5000, len(png)

    def readable_1280(self):
        """At 1280x800 a random 3x3x3 tree is drawn whole at full size:
        labels 12 px or more, the box on the first screen."""
        self.d.execute_cdp_cmd(METRICS, {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        try:
            self.editor(3)
            m = self.drawing_metrics()
            assert m["scale"] >= 0.999, m
            assert m["fits"], m
            assert m["font"] >= 12, m
            assert m["bottom"] <= 800, m
        finally:
            self.d.execute_cdp_cmd(METRICS, {"width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})

    def drawing_metrics(self):
        return self.d.execute_script("""
            const svg = document.querySelector('#tree svg');
            const box = svg.getBoundingClientRect();
            const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
            const lay = TreeView.S.draw.lay;
            const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize));
            const scale = Math.min(box.width / w, box.height / h);
            return {scale, font: Math.min(...sizes) * scale, top: box.top + scrollY, bottom: box.bottom + scrollY,
                    fits: x <= 0 && y <= 0 && x + w >= lay.width && y + h >= lay.height,
                    css: Math.min(...sizes)};""")

    def phone_tree(self):
        """At 390 px: the tree's top on the first screen, labels of 12 px and
        more, every control 40 px or more, the pseudocode one tap away."""
        self.d.execute_cdp_cmd(METRICS, {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        try:
            # A page load from the link (a hash change and a reload raced).
            self.d.get("about:blank")
            self.d.get(self.url + link(AJ_TREE, "failsoft", 16))
            self.wait(lambda: self.d.execute_script(
                "return document.body.dataset.ready === 'true' && TreeView.S.at === 16"))
            m = self.drawing_metrics()
            assert m["top"] + 200 <= 844, m
            assert m["css"] >= 12 and m["font"] >= 11.99, m
            small = self.d.execute_script("""
                return [...document.querySelectorAll('#view-tree button, #view-tree select, #view-tree input, #view-tree summary')]
                  .filter((e) => e.offsetParent !== null && e.type !== 'checkbox')
                  .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect().height])
                  .filter(([, h]) => h < 40);""")
            assert not small, small
            shown = """return ['pseudo', 'tree'].map((id) => getComputedStyle(
                document.getElementById(id).closest('.pseudo-box, .tree-wrap')).display !== 'none')"""
            assert self.d.execute_script(shown) == [False, True], self.d.execute_script(shown)
            self.d.execute_script("document.getElementById('tab-pseudo').click()")
            assert self.d.execute_script(shown) == [True, False], self.d.execute_script(shown)
            assert self.d.execute_script("return document.querySelectorAll('ol.pseudo li.at').length") > 0
            self.d.execute_script("document.getElementById('tab-tree').click()")
            assert self.d.execute_script(shown) == [False, True]
            width = self.d.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, width
        finally:
            self.d.execute_cdp_cmd(METRICS, {"width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})
