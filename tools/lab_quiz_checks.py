"""The browser checks of the Tree view's practice (quiz.js) and of the
published numbers beside Compare and Scores, for lab_browser_test.py.

Every expected answer is computed here from the API's trace of the same
tree (POST /api/tree), never from the page. Mixed into its Checks class,
whose helpers (view, click, el, fill, wait, api_tree, text_tree) they use.
"""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from lab_tree_checks import AJ_TREE
from lab_tree_share_checks import link

PUBLISHED = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"


def plain(text):
    """A value as the answer fields take it: '≥ 11' -> '11', '+inf' -> 'inf'."""
    return text.replace("≥", "").replace("≤", "").strip().lstrip("+")


class QuizChecks:
    # Helpers
    def quiz_open(self, algorithm="failsoft"):
        """A..J searched with `algorithm`, the practice box open, not started."""
        self.text_tree(AJ_TREE, algorithm)
        if not self.el("#quiz-box").get_attribute("open"):
            self.click("#quiz-box summary")

    def quiz_start(self, kind):
        Select(self.el("#quiz-type")).select_by_value(kind)
        if self.el("#quiz-start").text != "End practice":
            self.click("#quiz-start")
        self.wait(lambda: self.el("#quiz-question").get_attribute("data-type") == kind)

    def quiz_trace(self):
        """The API's trace of the tree the question is on, and the node asked."""
        text = self.el("#ed-text").get_attribute("value")
        algorithm = self.el("#tree-algo").get_attribute("value")
        trace = self.api_tree({"game": "text", "text": text, "algorithm": algorithm})
        return trace, int(self.el("#quiz-question").get_attribute("data-node"))

    def click_node(self, node):
        self.click(f'#tree g.tn[data-node="{node}"] .shape')

    def quiz_answer(self, right):
        """Answers the open question rightly or wrongly, checks, and returns
        the page's verdict ('true' or 'false')."""
        kind = self.el("#quiz-question").get_attribute("data-type")
        trace, node = self.quiz_trace()
        nodes, steps = trace["nodes"], trace["steps"]
        if kind == "value":
            value = plain(nodes[node]["value_text"])
            self.fill("#quiz-value", value if right else str(int(value) + 1))
        elif kind == "window":
            enter = next(s for s in steps if s["kind"] == "enter" and s["node"] == node)
            self.fill("#quiz-alpha", plain(enter["alpha_text"]))
            self.fill("#quiz-beta", plain(enter["beta_text"]) if right else "99")
        elif kind == "cutoff":
            k = next(i for i, s in enumerate(steps) if s["kind"] == "cutoff" and s["node"] == node)
            cause = next(s["node"] for s in reversed(steps[:k])
                         if s["kind"] == "leave" and nodes[s["node"]]["parent"] == node)
            other = next(c for c in nodes[node]["children"] if c != cause)
            self.click_node(cause if right else other)
        elif kind == "pruned":
            leaves = [i for i, n in enumerate(nodes) if not n["children"]
                      and n.get("leaf_value") is not None and n.get("same_as") is None]
            for i in leaves:
                if nodes[i]["pruned"]:
                    self.click_node(i)
            if not right:
                self.click_node(next(i for i in leaves if not nodes[i]["pruned"]))
        self.click("#quiz-check")
        self.wait(lambda: self.el("#quiz-result").get_attribute("data-correct") != "")
        return self.el("#quiz-result").get_attribute("data-correct")

    def quiz_next(self):
        before = self.el("#ed-text").get_attribute("value")
        self.click("#quiz-next")
        self.wait(lambda: self.el("#quiz-result").get_attribute("data-correct") == ""
                  and self.el("#quiz-question").get_attribute("data-type") != "")
        return before

    def practice_shot(self, name):
        """A window question on A..J after a hint and a wrong answer."""
        if not self.shots:
            return
        self.quiz_open()
        self.quiz_start("window")
        self.click("#quiz-hint")
        self.wait(lambda: self.el("#quiz-hint-text").text != "")
        self.quiz_answer(False)
        self.d.execute_script("document.getElementById('quiz-box').scrollIntoView()")
        self.shot(name)
        self.click("#quiz-start")

    # The checks
    def quiz_type(self, kind):
        """One question type: a hint, a wrong answer explained with a step
        link that jumps the trace, then a right answer on the next problem."""
        self.quiz_open()
        self.quiz_start(kind)
        self.click("#quiz-hint")
        self.wait(lambda: self.el("#quiz-hint-text").text != "")
        assert self.quiz_answer(False) == "false", self.el("#quiz-result").text
        links = self.d.find_elements(By.CSS_SELECTOR, "#quiz-result a.step-link")
        assert links, self.el("#quiz-result").text
        step = links[-1].get_attribute("data-step")
        links[-1].click()
        self.wait(lambda: self.el("#step-count").text.startswith(f"step {step} of"))
        score = self.el("#quiz-score")
        assert (score.get_attribute("data-right"), score.get_attribute("data-hints")) == ("0", "1"), score.text
        self.quiz_next()
        assert self.quiz_answer(True) == "true", self.el("#quiz-result").text
        assert self.el("#quiz-score").text == "1 of 2 right (1 with a hint)", self.el("#quiz-score").text
        self.click("#quiz-start")  # ends the practice

    def quiz_value(self):
        self.quiz_type("value")

    def quiz_window(self):
        self.quiz_type("window")

    def quiz_cutoff(self):
        self.quiz_type("cutoff")

    def quiz_pruned(self):
        self.quiz_type("pruned")

    def quiz_locks_and_hides(self):
        """While a question is open the summary (its counts) is hidden and
        the trace does not step, by button or key; an answer frees both."""
        self.quiz_open()
        self.quiz_start("pruned")
        assert not self.el("#tree-summary").is_displayed()
        assert self.el("#step-fwd").get_attribute("disabled") is not None
        self.d.execute_script("document.getElementById('step-fwd').click()")
        self.el("body").send_keys(Keys.ARROW_RIGHT)
        self.el("body").send_keys(Keys.END)
        assert self.el("#step-count").text.startswith("step 0 of"), self.el("#step-count").text
        self.quiz_answer(True)
        self.click("#step-fwd")
        self.wait(lambda: self.el("#step-count").text.startswith("step 1 of"))
        self.click("#quiz-start")
        assert self.el("#tree-summary").is_displayed()

    def quiz_ends_on_algorithm_change(self):
        self.quiz_open()
        self.quiz_start("value")
        Select(self.el("#tree-algo")).select_by_value("minimax")
        self.wait(lambda: "algorithm changed" in self.el("#quiz-ended").text)
        assert not self.el("#quiz-panel").is_displayed()
        assert self.el("#quiz-result").text == ""
        assert self.el("#quiz-start").text == "Practice"
        assert self.el("#tree-summary").is_displayed()
        self.click("#step-fwd")
        self.wait(lambda: self.el("#step-count").text.startswith("step 1 of"))
        # Minimax asks for values only, and they are minimax's.
        Select(self.el("#quiz-type")).select_by_value("any")
        self.click("#quiz-start")
        self.wait(lambda: self.el("#quiz-question").get_attribute("data-type") == "value")
        assert self.quiz_answer(True) == "true", self.el("#quiz-result").text
        self.click("#quiz-start")
        Select(self.el("#tree-algo")).select_by_value("failsoft")

    def quiz_link(self):
        """A link with a tree, an algorithm and a question opens that
        question in a fresh browser; ending the practice takes it out of
        the address."""
        trace = self.api_tree({"game": "text", "text": AJ_TREE, "algorithm": "failhard"})
        node = next(s["node"] for s in trace["steps"] if s["kind"] == "enter" and s["node"] != 0
                    and "inf" not in s["alpha_text"] + s["beta_text"])
        fresh = self.new_browser()
        try:
            fresh.get(self.url + link(AJ_TREE, "failhard", 5) + f"&quiz=window&node={node}&level=medium")
            WebDriverWait(fresh, 60).until(lambda d: d.execute_script(
                "return document.getElementById('quiz-question').dataset.type === 'window'"))
            el = lambda i: fresh.find_element(By.ID, i)
            assert el("quiz-question").get_attribute("data-node") == str(node)
            assert el("quiz-level").get_attribute("value") == "medium"
            assert el("quiz-box").get_attribute("open") is not None
            assert el("step-count").text.startswith("step 0 of"), el("step-count").text
            url = fresh.current_url
            assert "quiz=window" in url and f"node={node}" in url and "algo=failhard" in url, url
            el("quiz-start").click()  # ends the practice
            WebDriverWait(fresh, 10).until(lambda d: "quiz=" not in d.current_url)
        finally:
            fresh.quit()

    def compare_published(self):
        """The published position beside the paper's node counts: ✓ where
        equal, ⇄ at depth 3's swapped pair, the note and the time spread."""
        self.set_position("compare", PUBLISHED)
        box = self.el("#cmp-published-rules")
        if not box.is_selected():
            box.click()
        Select(self.el("#cmp-depth")).select_by_value("4")
        Select(self.el("#cmp-runs")).select_by_value("5")
        self.click("#cmp-run")
        self.wait_job("cmp-status")
        cell = lambda a, d, c: self.el(f'#cmp-table tr[data-algorithm="{a}"][data-depth="{d}"] td.{c}').text
        assert cell("minimax", 3, "published") == "988 ⇄", cell("minimax", 3, "published")
        assert cell("alphabeta", 3, "published") == "2,096 ⇄", cell("alphabeta", 3, "published")
        assert cell("alphabeta", 4, "published") == "2,883 ✓", cell("alphabeta", 4, "published")
        assert cell("engine", 4, "published") == "", cell("engine", 4, "published")
        assert "runs)" in cell("minimax", 2, "spread"), cell("minimax", 2, "spread")
        assert self.el("#cmp-published-note").is_displayed()
        assert "swapped" in self.el("#cmp-published-note").text
        assert "vary with the machine" in self.el("#cmp-timing-note").text
        box.click()  # the published rules off again

    def scores_view(self):
        """Table 1 beside ours: every move agrees at depth 3; at depth 2
        there is no published column."""
        self.set_position("scores", PUBLISHED)
        Select(self.el("#scr-depth")).select_by_value("3")
        self.click("#scr-run")
        self.wait_job("scr-status")
        rows = self.d.find_elements(By.CSS_SELECTOR, "#scr-table tbody tr")
        assert len(rows) == 16, len(rows)
        assert self.el('#scr-table tr[data-move="a1a6"] td.published').text == "inf"
        assert self.el('#scr-table tr[data-move="a1a6"] td.score').text == "+M3"
        assert self.el("#scr-summary").text == "16 of 16 moves score as published.", self.el("#scr-summary").text
        assert self.el("#scr-published-note").is_displayed()
        Select(self.el("#scr-depth")).select_by_value("2")
        self.click("#scr-run")
        self.wait_job("scr-status")
        assert len(self.d.find_elements(By.CSS_SELECTOR, "#scr-table th")) == 2
        assert not self.el("#scr-published-note").is_displayed()

    def api_errors_in_words(self):
        """A negative seed gets the server's range message, not a parser's."""
        self.view("ordering")
        self.click("input[name=ord-source][value=bench]")
        self.fill("#ord-seed", "-1")
        self.click("#ord-run")
        self.wait(lambda: self.el("#ord-error").text != "")
        text = self.el("#ord-error").text
        assert "seed must be 0 or more" in text and "bad request body" not in text, text
        self.fill("#ord-seed", "1")
