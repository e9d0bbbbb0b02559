//! The pseudocode the Tree view shows beside the drawing, one text per
//! search it can trace, and which of its lines each step of the trace
//! executes. The lines are chosen here, where the step is recorded, so that
//! the highlighted line is always the one the search ran.

use crate::game::Value;
use crate::values::format_value;

/// The searches the Tree view can trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Minimax,
    FailSoft,
    FailHard,
    Pvs,
}

/// An algorithm in one textbook's form: `strict` cuts at `value > β` (MIN:
/// `value < α`) instead of `value ≥ β`, so equal values do not cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    pub algorithm: Algorithm,
    pub strict: bool,
}

/// How the child's score reached a PVS node: the first child's full-window
/// search, a later child's null-window search, or its search again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    First,
    Null,
    Again,
}

const MINIMAX: &[&str] = &[
    "function MINIMAX(node)",
    "  if node is a leaf: return EVAL(node)",
    "  if MAX is to move at node:",
    "    value ← −∞",
    "    for each child of node:",
    "      value ← max(value, MINIMAX(child))",
    "    return value",
    "  else:",
    "    value ← +∞",
    "    for each child of node:",
    "      value ← min(value, MINIMAX(child))",
    "    return value",
];

const FAIL_SOFT: &[&str] = &[
    "function ALPHABETA(node, α, β)",
    "  if node is a leaf: return EVAL(node)",
    "  if MAX is to move at node:",
    "    value ← −∞",
    "    for each child of node:",
    "      value ← max(value, ALPHABETA(child, α, β))",
    "      if value ≥ β:",
    "        return value   ▹ β cutoff",
    "      α ← max(α, value)",
    "    return value",
    "  else:",
    "    value ← +∞",
    "    for each child of node:",
    "      value ← min(value, ALPHABETA(child, α, β))",
    "      if value ≤ α:",
    "        return value   ▹ α cutoff",
    "      β ← min(β, value)",
    "    return value",
];

const FAIL_HARD: &[&str] = &[
    "function ALPHABETA(node, α, β)   ▹ an inner node returns a value in [α, β]",
    "  if node is a leaf: return EVAL(node)",
    "  if MAX is to move at node:",
    "    for each child of node:",
    "      value ← ALPHABETA(child, α, β)",
    "      if value ≥ β:",
    "        return β   ▹ β cutoff",
    "      α ← max(α, value)",
    "    return α",
    "  else:",
    "    for each child of node:",
    "      value ← ALPHABETA(child, α, β)",
    "      if value ≤ α:",
    "        return α   ▹ α cutoff",
    "      β ← min(β, value)",
    "    return β",
];

const PVS: &[&str] = &[
    "function PVS(node, α, β)   ▹ values for the side to move",
    "  if node is a leaf: return EVAL(node) for the side to move",
    "  value ← −∞",
    "  for each child of node:",
    "    if child is the first:",
    "      score ← −PVS(child, −β, −α)",
    "    else:",
    "      score ← −PVS(child, −α−1, −α)   ▹ null window",
    "      if α < score < β:",
    "        score ← −PVS(child, −β, −α)   ▹ search again",
    "    value ← max(value, score)",
    "    if value ≥ β:",
    "      return value   ▹ β cutoff",
    "    α ← max(α, value)",
    "  return value",
];

/// Line numbers (0-based) per side, `[MAX, MIN]`; `None` where the text has
/// no such line.
struct Lines {
    init: [Option<usize>; 2],
    take: [usize; 2],
    test: [Option<usize>; 2],
    cut: [Option<usize>; 2],
    window: [Option<usize>; 2],
    ret: [usize; 2],
}

const HEAD: usize = 0;
const LEAF: usize = 1;

impl Code {
    pub fn new(algorithm: Algorithm, strict: bool) -> Self {
        Self { algorithm, strict }
    }

    /// Values for the side to move, as negamax returns them.
    pub fn negamax(self) -> bool {
        self.algorithm == Algorithm::Pvs
    }

    /// The pseudocode, with the form's comparison in its cutoff tests.
    pub fn text(self) -> Vec<String> {
        let text = match self.algorithm {
            Algorithm::Minimax => MINIMAX,
            Algorithm::FailSoft => FAIL_SOFT,
            Algorithm::FailHard => FAIL_HARD,
            Algorithm::Pvs => PVS,
        };
        let lines = self.lines();
        text.iter()
            .enumerate()
            .map(|(i, line)| {
                if self.strict && lines.test.contains(&Some(i)) {
                    line.replace('≥', ">").replace('≤', "<")
                } else {
                    line.to_string()
                }
            })
            .collect()
    }

    fn lines(self) -> Lines {
        match self.algorithm {
            Algorithm::Minimax => Lines {
                init: [Some(3), Some(8)],
                take: [5, 10],
                test: [None, None],
                cut: [None, None],
                window: [None, None],
                ret: [6, 11],
            },
            Algorithm::FailSoft => Lines {
                init: [Some(3), Some(11)],
                take: [5, 13],
                test: [Some(6), Some(14)],
                cut: [Some(7), Some(15)],
                window: [Some(8), Some(16)],
                ret: [9, 17],
            },
            Algorithm::FailHard => Lines {
                init: [None, None],
                take: [4, 11],
                test: [Some(5), Some(12)],
                cut: [Some(6), Some(13)],
                window: [Some(7), Some(14)],
                ret: [8, 15],
            },
            Algorithm::Pvs => Lines {
                init: [Some(2), Some(2)],
                take: [10, 10],
                test: [Some(11), Some(11)],
                cut: [Some(12), Some(12)],
                window: [Some(13), Some(13)],
                ret: [14, 14],
            },
        }
    }

    /// PVS writes one text for both sides.
    fn side(self, max: bool) -> usize {
        usize::from(!max && !self.negamax())
    }

    /// Entering a node: a leaf is evaluated; an inner node starts its value.
    pub fn enter(self, max: bool, leaf: bool) -> Vec<usize> {
        if leaf {
            return vec![LEAF];
        }
        let init = self.lines().init[self.side(max)];
        [Some(HEAD), init].into_iter().flatten().collect()
    }

    /// Taking in a child's value, the cutoff test (`test`: its outcome), and
    /// the window's update when the test fails.
    pub fn update(self, max: bool, test: Option<bool>, via: Via) -> Vec<usize> {
        let (l, s) = (self.lines(), self.side(max));
        let call = match (self.negamax(), via) {
            (false, _) | (true, Via::Null) => None,
            (true, Via::First) => Some(5),
            (true, Via::Again) => Some(9),
        };
        let window = if test == Some(false) {
            l.window[s]
        } else {
            None
        };
        let test = test.and(l.test[s]);
        [call, Some(l.take[s]), test, window]
            .into_iter()
            .flatten()
            .collect()
    }

    /// PVS: a later child's null-window search and the test for a search
    /// again.
    pub fn research(self) -> Vec<usize> {
        vec![7, 8]
    }

    /// The cutoff: its test held, the node returns.
    pub fn cutoff(self, max: bool) -> Vec<usize> {
        let (l, s) = (self.lines(), self.side(max));
        [l.test[s], l.cut[s]].into_iter().flatten().collect()
    }

    /// Returning: a leaf's evaluation, the cutoff's return or the loop's end.
    pub fn leave(self, max: bool, leaf: bool, cut: bool) -> Vec<usize> {
        let (l, s) = (self.lines(), self.side(max));
        match (leaf, cut) {
            (true, _) => vec![LEAF],
            (false, true) => l.cut[s].into_iter().collect(),
            (false, false) => vec![l.ret[s]],
        }
    }

    /// The cutoff test as the pseudocode writes it, with the step's numbers:
    /// `11 ≥ β = 5` (MAX, and every PVS node), `4 ≤ α = 5` (MIN).
    pub fn test_text(self, max: bool, value: Value, alpha: Value, beta: Value) -> String {
        let v = format_value(value);
        match (max || self.negamax(), self.strict) {
            (true, false) => format!("{v} ≥ β = {}", format_value(beta)),
            (true, true) => format!("{v} > β = {}", format_value(beta)),
            (false, false) => format!("{v} ≤ α = {}", format_value(alpha)),
            (false, true) => format!("{v} < α = {}", format_value(alpha)),
        }
    }

    /// PVS's test for a search again: `α = 3 < 5 < β = +inf`.
    pub fn research_text(self, score: Value, alpha: Value, beta: Value) -> String {
        format!(
            "α = {} < {} < β = {}",
            format_value(alpha),
            format_value(score),
            format_value(beta)
        )
    }
}
