"""An independent trace of the chapter's A..J tree for lab_browser_test.py:
each algorithm of the Tree view transcribed from its pseudocode, writing
down what the page must show at every step (the node, its window and value,
the pseudocode lines highlighted, the test evaluated) and the marks (cutoffs,
pruned moves, bounds). It shares nothing with the lab's Rust code."""

INF = float("inf")

# The tree: (name, children) for inner nodes, an int for a leaf.
AJ = ("A", [("B", [("E", [3, 5]), ("F", [11, 9])]),
            ("C", [("G", [15]), ("H", [4])]),
            ("D", [("I", [4]), ("J", [1])])])

# Where each statement is in each pseudocode, [MAX, MIN]; PVS has one text.
LINES = {
    "minimax": dict(init=(3, 8), take=(5, 10), ret=(6, 11)),
    "failsoft": dict(init=(3, 11), take=(5, 13), test=(6, 14), cut=(7, 15), window=(8, 16),
                     ret=(9, 17)),
    "failhard": dict(init=(None, None), take=(4, 11), test=(5, 12), cut=(6, 13), window=(7, 14),
                     ret=(8, 15)),
    "pvs": dict(init=(2, 2), take=(10, 10), test=(11, 11), cut=(12, 12), window=(13, 13),
                ret=(14, 14)),
}

# The values the finished drawing shows at the inner nodes, by hand from
# the tree: a cut-off node's value is a bound when moves were left
# unsearched below it (fail-hard: when it was clamped to the window).
FINAL_VALUES = {
    ("minimax", ">="): "A 5 B 5 E 5 F 11 C 4 G 15 H 4 D 1 I 4 J 1",
    ("failsoft", ">="): "A 5 B 5 E 5 F ≥ 11 C 4 G 15 H 4 D ≤ 4 I 4",
    ("failsoft", ">"): "A 5 B 5 E 5 F ≥ 11 C 4 G 15 H 4 D ≤ 4 I 4",
    ("failhard", ">="): "A 5 B 5 E 5 F ≥ 5 C ≤ 5 G 15 H ≤ 5 D ≤ 5 I ≤ 5",
    ("failhard", ">"): "A 5 B 5 E 5 F ≥ 5 C ≤ 5 G 15 H ≤ 5 D ≤ 5 I ≤ 5 J ≤ 5",
    ("pvs", ">="): "A 5 B -5 E 5 F ≥ 11 C -4 G 15 H 4 D ≥ -4 I 4",
}


def text(v):
    if v == INF:
        return "+inf"
    if v == -INF:
        return "-inf"
    return str(v)


def name(t):
    return t[0] if isinstance(t, tuple) else f"leaf {t}"


class Reference:
    """Steps as dicts: kind, label, alpha, beta, best (texts), lines, test
    (None, or (text, held)), cuts (label -> test text shown so far)."""

    def __init__(self, algorithm, test=">="):
        self.algo, self.strict = algorithm, test == ">"
        self.at = LINES[algorithm]
        self.steps, self.cuts, self.evaluated = [], {}, set()

    def push(self, kind, t, a, b, best, lines, test=None):
        self.steps.append(dict(kind=kind, label=name(t), alpha=text(a), beta=text(b),
                               best="" if best is None else text(best), lines=lines,
                               test=test, cuts=dict(self.cuts)))

    def enter(self, t, a, b, side):
        if isinstance(t, tuple):
            init = self.at["init"][side]
            self.push("enter", t, a, b, None, [0] + ([init] if init is not None else []))
        else:
            self.push("enter", t, a, b, None, [1])

    def cut_test(self, max_node, v, a, b):
        ge, le = (">", "<") if self.strict else ("≥", "≤")
        if max_node or self.algo == "pvs":
            held = v > b if self.strict else v >= b
            return f"{text(v)} {ge} β = {text(b)}", held
        held = v < a if self.strict else v <= a
        return f"{text(v)} {le} α = {text(a)}", held

    def cutoff(self, t, i, a, b, v, side, test_text):
        self.cuts[t[0]] = test_text
        self.push("cutoff", t, a, b, v, [self.at["test"][side], self.at["cut"][side]])

    def alphabeta(self, t, max_node, a, b, path=()):
        side = 0 if max_node else 1
        self.enter(t, a, b, side)
        if not isinstance(t, tuple):
            self.evaluated.add(path)
            self.push("leave", t, a, b, t, [1])
            return t
        hard, mm = self.algo == "failhard", self.algo == "minimax"
        value = -INF if max_node else INF
        for i, kid in enumerate(t[1]):
            v = self.alphabeta(kid, not max_node, a, b, path + (i,))
            value = v if hard else (max(value, v) if max_node else min(value, v))
            if mm:
                self.push("update", t, a, b, value, [self.at["take"][side]])
                continue
            test_text, cut = self.cut_test(max_node, value, a, b)
            if not cut:
                a, b = (max(a, value), b) if max_node else (a, min(b, value))
            lines = [self.at["take"][side], self.at["test"][side]]
            self.push("update", t, a, b, value, lines + ([] if cut else [self.at["window"][side]]),
                      (test_text, cut))
            if cut:
                self.cutoff(t, i, a, b, value, side, test_text)
                r = value if not hard else (b if max_node else a)
                self.push("leave", t, a, b, r, [self.at["cut"][side]])
                return r
        r = value if not hard else (a if max_node else b)
        self.push("leave", t, a, b, r, [self.at["ret"][side]])
        return r

    def pvs(self, t, max_node, a, b, path=()):
        self.enter(t, a, b, 0)
        if not isinstance(t, tuple):
            self.evaluated.add(path)
            v = t if max_node else -t
            self.push("leave", t, a, b, v, [1])
            return v
        value = -INF
        for i, kid in enumerate(t[1]):
            if i == 0:
                score, call = -self.pvs(kid, not max_node, -b, -a, path + (i,)), [5]
            else:
                s = -self.pvs(kid, not max_node, -a - 1, -a, path + (i,))
                again = a < s < b
                self.push("research", t, a, b, value, [7, 8],
                          (f"α = {text(a)} < {text(s)} < β = {text(b)}", again))
                if again:
                    score, call = -self.pvs(kid, not max_node, -b, -a, path + (i,)), [9]
                else:
                    score, call = s, []
            value = max(value, score)
            test_text, cut = self.cut_test(True, value, a, b)
            if not cut:
                a = max(a, value)
            self.push("update", t, a, b, value, call + [10, 11] + ([] if cut else [13]),
                      (test_text, cut))
            if cut:
                self.cutoff(t, i, a, b, value, 0, test_text)
                self.push("leave", t, a, b, value, [12])
                return value
        self.push("leave", t, a, b, value, [14])
        return value


def trace(algorithm, test=">="):
    """The reference's steps, the number of leaves it evaluated (each once)
    and the root value for A..J."""
    r = Reference(algorithm, test)
    value = (r.pvs if algorithm == "pvs" else r.alphabeta)(AJ, True, -INF, INF)
    return r.steps, len(r.evaluated), value
