//! Every step of the chapter's A..J tree, for each algorithm and form,
//! against a reference written here.

use super::*;
use crate::alphabeta::{self, Bounds, Cutoff};
use crate::explicit::ExplicitTree;
use crate::serve::code::Algorithm;

// The reference: the chapter's A..J tree as a literal, searched by a
// recursive transcription of each pseudocode that writes down, step by
// step, what the page must show. It shares no code with the lab's searches
// or the trace.

const INF: Value = Value::MAX;
const AJ: &str =
    "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";

enum T {
    Leaf(Value),
    Inner(&'static str, Vec<T>),
}

fn aj() -> T {
    use T::{Inner as N, Leaf as L};
    N(
        "A",
        vec![
            N(
                "B",
                vec![N("E", vec![L(3), L(5)]), N("F", vec![L(11), L(9)])],
            ),
            N("C", vec![N("G", vec![L(15)]), N("H", vec![L(4)])]),
            N("D", vec![N("I", vec![L(4)]), N("J", vec![L(1)])]),
        ],
    )
}

/// (kind, node path, alpha, beta, best, lines, test).
type RefStep = (
    &'static str,
    String,
    Value,
    Value,
    Option<Value>,
    Vec<usize>,
    Option<bool>,
);

/// Where each statement is in the pseudocode: [MAX, MIN] (PVS: one text).
struct At {
    init: [Option<usize>; 2],
    take: [usize; 2],
    test: [usize; 2],
    cut: [usize; 2],
    window: [usize; 2],
    ret: [usize; 2],
}

struct Reference {
    algorithm: Algorithm,
    strict: bool,
    at: At,
    steps: Vec<RefStep>,
    cut: Vec<String>,
    pruned: Vec<String>,
}

impl Reference {
    fn new(algorithm: Algorithm, strict: bool) -> Self {
        let at = match algorithm {
            Algorithm::Minimax => At {
                init: [Some(3), Some(8)],
                take: [5, 10],
                test: [0, 0],
                cut: [0, 0],
                window: [0, 0],
                ret: [6, 11],
            },
            Algorithm::FailSoft => At {
                init: [Some(3), Some(11)],
                take: [5, 13],
                test: [6, 14],
                cut: [7, 15],
                window: [8, 16],
                ret: [9, 17],
            },
            Algorithm::FailHard => At {
                init: [None, None],
                take: [4, 11],
                test: [5, 12],
                cut: [6, 13],
                window: [7, 14],
                ret: [8, 15],
            },
            Algorithm::Pvs => At {
                init: [Some(2), Some(2)],
                take: [10, 10],
                test: [11, 11],
                cut: [12, 12],
                window: [13, 13],
                ret: [14, 14],
            },
        };
        Self {
            algorithm,
            strict,
            at,
            steps: Vec::new(),
            cut: Vec::new(),
            pruned: Vec::new(),
        }
    }

    fn push(&mut self, kind: &'static str, path: &str, w: (Value, Value), best: Option<Value>) {
        let step = (kind, path.to_string(), w.0, w.1, best, Vec::new(), None);
        self.steps.push(step);
    }

    fn lines(&mut self, lines: Vec<usize>, test: Option<bool>) {
        let last = self.steps.last_mut().unwrap();
        (last.5, last.6) = (lines, test);
    }

    fn enter(&mut self, t: &T, path: &str, w: (Value, Value), side: usize) {
        self.push("enter", path, w, None);
        let lines = match t {
            T::Leaf(_) => vec![1],
            T::Inner(..) => [Some(0), self.at.init[side]]
                .into_iter()
                .flatten()
                .collect(),
        };
        self.lines(lines, None);
    }

    /// MAX-VALUE / MIN-VALUE (minimax: no window; fail-hard: clamped).
    fn alphabeta(&mut self, t: &T, path: &str, max: bool, mut a: Value, mut b: Value) -> Value {
        let side = usize::from(!max);
        self.enter(t, path, (a, b), side);
        let kids = match t {
            T::Leaf(v) => {
                self.push("leave", path, (a, b), Some(*v));
                self.lines(vec![1], None);
                return *v;
            }
            T::Inner(_, kids) => kids,
        };
        let hard = self.algorithm == Algorithm::FailHard;
        let minimax = self.algorithm == Algorithm::Minimax;
        let mut value = if max { -INF } else { INF };
        for (i, kid) in kids.iter().enumerate() {
            let v = self.alphabeta(kid, &child_path(path, kid, i), !max, a, b);
            value = match (hard, max) {
                (true, _) => v,
                (false, true) => value.max(v),
                (false, false) => value.min(v),
            };
            let cut = match (minimax, max, self.strict) {
                (true, ..) => false,
                (false, true, false) => value >= b,
                (false, true, true) => value > b,
                (false, false, false) => value <= a,
                (false, false, true) => value < a,
            };
            if !cut && max {
                a = a.max(value);
            } else if !cut {
                b = b.min(value);
            }
            self.push("update", path, (a, b), Some(value));
            let at = &self.at;
            let lines = match (minimax, cut) {
                (true, _) => vec![at.take[side]],
                (false, true) => vec![at.take[side], at.test[side]],
                (false, false) => vec![at.take[side], at.test[side], at.window[side]],
            };
            self.lines(lines, (!minimax).then_some(cut));
            if cut {
                self.cutoff(path, kids, i, (a, b), value, side);
                let r = match (hard, max) {
                    (false, _) => value,
                    (true, true) => b,
                    (true, false) => a,
                };
                self.push("leave", path, (a, b), Some(r));
                self.lines(vec![self.at.cut[side]], None);
                return r;
            }
        }
        let r = match (hard, max) {
            (false, _) => value,
            (true, true) => a,
            (true, false) => b,
        };
        self.push("leave", path, (a, b), Some(r));
        self.lines(vec![self.at.ret[side]], None);
        r
    }

    fn cutoff(
        &mut self,
        path: &str,
        kids: &[T],
        i: usize,
        w: (Value, Value),
        v: Value,
        side: usize,
    ) {
        self.push("cutoff", path, w, Some(v));
        self.lines(vec![self.at.test[side], self.at.cut[side]], None);
        self.cut.push(path.to_string());
        for (j, kid) in kids.iter().enumerate().skip(i + 1) {
            self.pruned.push(child_path(path, kid, j));
        }
    }

    /// PVS in negamax form: values for the side to move.
    fn pvs(&mut self, t: &T, path: &str, max: bool, mut a: Value, b: Value) -> Value {
        self.enter(t, path, (a, b), 0);
        let kids = match t {
            T::Leaf(v) => {
                let v = if max { *v } else { -*v };
                self.push("leave", path, (a, b), Some(v));
                self.lines(vec![1], None);
                return v;
            }
            T::Inner(_, kids) => kids,
        };
        let mut value = -INF;
        for (i, kid) in kids.iter().enumerate() {
            let p = child_path(path, kid, i);
            let (score, call) = if i == 0 {
                (-self.pvs(kid, &p, !max, -b, -a), Some(5))
            } else {
                let s = -self.pvs(kid, &p, !max, -a - 1, -a);
                let again = a < s && s < b;
                self.push("research", path, (a, b), Some(value));
                self.lines(vec![7, 8], Some(again));
                if again {
                    (-self.pvs(kid, &p, !max, -b, -a), Some(9))
                } else {
                    (s, None)
                }
            };
            value = value.max(score);
            let cut = value >= b;
            if !cut {
                a = a.max(value);
            }
            self.push("update", path, (a, b), Some(value));
            let window = (!cut).then_some(13);
            let lines = [call, Some(10), Some(11), window]
                .into_iter()
                .flatten()
                .collect();
            self.lines(lines, Some(cut));
            if cut {
                self.cutoff(path, kids, i, (a, b), value, 0);
                self.push("leave", path, (a, b), Some(value));
                self.lines(vec![12], None);
                return value;
            }
        }
        self.push("leave", path, (a, b), Some(value));
        self.lines(vec![14], None);
        value
    }
}

fn child_path(path: &str, kid: &T, i: usize) -> String {
    match kid {
        T::Inner(name, _) => format!("{path}/{name}"),
        T::Leaf(_) => format!("{path}/{}", i + 1),
    }
}

/// A node's path as the reference names it: the labels, or the move number
/// of an unlabelled leaf.
fn path_of(trace: &Trace, id: usize) -> String {
    let n = &trace.nodes[id];
    let own = n.label.clone().unwrap_or_else(|| n.edge.clone());
    match n.parent {
        Some(p) => format!("{}/{own}", path_of(trace, p)),
        None => own,
    }
}

fn traced(algorithm: Algorithm, strict: bool) -> Trace {
    let mut t = ExplicitTree::parse(AJ).unwrap();
    let mut trace = Trace::new(Code::new(algorithm, strict), 1000, None);
    let rule = if strict {
        Cutoff::Strict
    } else {
        Cutoff::Textbook
    };
    let (soft, hard) = (Bounds::Soft, Bounds::Hard);
    match algorithm {
        Algorithm::Minimax => alphabeta::search_with(&mut t, 3, Cutoff::Never, soft, &mut trace),
        Algorithm::FailSoft => alphabeta::search_with(&mut t, 3, rule, soft, &mut trace),
        Algorithm::FailHard => alphabeta::search_with(&mut t, 3, rule, hard, &mut trace),
        Algorithm::Pvs => crate::pvs::search_observed(&mut t, 3, &mut trace),
    };
    trace.mark_pv();
    trace.mark_bounds();
    trace.complete_from(&t);
    trace
}

const FORMS: [(Algorithm, bool); 6] = [
    (Algorithm::Minimax, false),
    (Algorithm::FailSoft, false),
    (Algorithm::FailSoft, true),
    (Algorithm::FailHard, false),
    (Algorithm::FailHard, true),
    (Algorithm::Pvs, false),
];

#[test]
fn every_step_of_a_to_j_is_the_reference_step() {
    for (algorithm, strict) in FORMS {
        let mut r = Reference::new(algorithm, strict);
        let value = match algorithm {
            Algorithm::Pvs => r.pvs(&aj(), "A", true, -INF, INF),
            _ => r.alphabeta(&aj(), "A", true, -INF, INF),
        };
        assert_eq!(value, 5);
        let trace = traced(algorithm, strict);
        let got: Vec<RefStep> = trace
            .steps
            .iter()
            .map(|s| {
                let path = path_of(&trace, s.node);
                (
                    s.kind,
                    path,
                    s.alpha,
                    s.beta,
                    s.best,
                    s.lines.clone(),
                    s.test,
                )
            })
            .collect();
        for (k, (g, w)) in got.iter().zip(&r.steps).enumerate() {
            assert_eq!(g, w, "{algorithm:?} strict {strict}: step {}", k + 1);
        }
        assert_eq!(got.len(), r.steps.len(), "{algorithm:?} strict {strict}");
        // The marks: red cutoffs, and the moves they prune.
        let mut cut: Vec<String> = (0..trace.nodes.len())
            .filter(|&id| trace.nodes[id].cutoff)
            .map(|id| path_of(&trace, id))
            .collect();
        cut.dedup();
        r.cut.sort();
        cut.sort();
        assert_eq!(cut, r.cut, "{algorithm:?} strict {strict}");
        let pruned: Vec<String> = trace
            .steps
            .iter()
            .flat_map(|s| s.pruned.iter().map(|&id| path_of(&trace, id)))
            .collect();
        assert_eq!(pruned, r.pruned, "{algorithm:?} strict {strict}");
    }
}

/// The highlighted lines are the statements the reference runs: check the
/// reference's line numbers against the texts the page shows.
#[test]
fn the_reference_lines_are_the_statements() {
    for (algorithm, strict) in FORMS {
        let text = Code::new(algorithm, strict).text();
        let at = Reference::new(algorithm, strict).at;
        let (ge, le) = if strict { (">", "<") } else { ("≥", "≤") };
        for side in 0..2 {
            assert!(text[at.take[side]].contains("value ←"), "{algorithm:?}");
            assert!(text[at.ret[side]].trim_start().starts_with("return"));
            if algorithm == Algorithm::Minimax {
                continue;
            }
            let test = &text[at.test[side]];
            let op = if side == 0 || algorithm == Algorithm::Pvs {
                ge
            } else {
                le
            };
            assert!(
                test.trim_start().starts_with("if value") && test.contains(op),
                "{test}"
            );
            assert!(text[at.cut[side]].contains("cutoff"));
            assert!(
                text[at.window[side]].contains(if side == 0 || algorithm == Algorithm::Pvs {
                    "α ← max"
                } else {
                    "β ← min"
                })
            );
        }
    }
    let pvs = Code::new(Algorithm::Pvs, false).text();
    assert!(pvs[5].contains("−PVS(child, −β, −α)") && pvs[9].contains("search again"));
    assert!(pvs[7].contains("null window") && pvs[8].contains("α < score < β"));
}

/// Cut-off values are bounds; exact values stay plain. (name, value text)
/// of the inner nodes, by hand from the chapter's tree.
#[test]
fn cut_off_values_are_bounds() {
    let want: [(Algorithm, bool, &str); 6] = [
        (
            Algorithm::Minimax,
            false,
            "A 5 B 5 E 5 F 11 C 4 G 15 H 4 D 1 I 4 J 1",
        ),
        (
            Algorithm::FailSoft,
            false,
            "A 5 B 5 E 5 F ≥ 11 C 4 G 15 H 4 D ≤ 4 I 4",
        ),
        (
            Algorithm::FailSoft,
            true,
            "A 5 B 5 E 5 F ≥ 11 C 4 G 15 H 4 D ≤ 4 I 4",
        ),
        // Fail-hard clamps to the window: H's 4 comes back as 5, at most.
        (
            Algorithm::FailHard,
            false,
            "A 5 B 5 E 5 F ≥ 5 C ≤ 5 G 15 H ≤ 5 D ≤ 5 I ≤ 5",
        ),
        (
            Algorithm::FailHard,
            true,
            "A 5 B 5 E 5 F ≥ 5 C ≤ 5 G 15 H ≤ 5 D ≤ 5 I ≤ 5 J ≤ 5",
        ),
        // PVS: for the side to move, null windows give bounds too.
        (
            Algorithm::Pvs,
            false,
            "A 5 B -5 E 5 F ≥ 11 C -4 G 15 H 4 D ≥ -4 I 4",
        ),
    ];
    for (algorithm, strict, text) in want {
        let trace = traced(algorithm, strict);
        let mut seen: Vec<usize> = Vec::new();
        let mut got = Vec::new();
        for (id, n) in trace.nodes.iter().enumerate() {
            let first = trace.first_visit(id);
            if n.children.is_empty() || n.pruned || seen.contains(&first) {
                continue;
            }
            seen.push(first);
            // A node searched twice shows its last visit's value.
            let last = (id..trace.nodes.len())
                .rfind(|&k| trace.first_visit(k) == first && !trace.nodes[k].pruned)
                .unwrap();
            let label = n.label.clone().unwrap();
            got.push(format!("{label} {}", trace.nodes[last].value_text));
        }
        assert_eq!(got.join(" "), text, "{algorithm:?} strict {strict}");
    }
}

/// PVS searches E's second leaf again: one node, two visits, and the
/// leaves count each once.
#[test]
fn a_search_again_is_a_second_visit_of_the_same_node() {
    let trace = traced(Algorithm::Pvs, false);
    let again: Vec<(String, u32)> = (0..trace.nodes.len())
        .filter(|&id| trace.nodes[id].same_as.is_some())
        .map(|id| (path_of(&trace, id), trace.nodes[id].visit))
        .collect();
    assert_eq!(again, [("A/B/E/2".to_string(), 2)]);
    assert_eq!(trace.moves_of(2).len(), 2, "E has two moves");
    // 6 leaves evaluated once each (E's 5 twice): 2 of 8 never.
    assert_eq!(trace.distinct_leaves(), 6);
}
