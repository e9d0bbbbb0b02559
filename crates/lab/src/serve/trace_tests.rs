//! The trace's tests: the windows of textbook trees, the node limit,
//! fail-hard's returns.

use super::*;
use crate::alphabeta::{self, Bounds, Cutoff};
use crate::explicit::ExplicitTree;
use crate::serve::code::Algorithm;

#[test]
fn textbook_tree_in_visiting_order() {
    let mut t = ExplicitTree::parse("A:max(B:min(D:3,E:5),C:min(F:2,G:1))").unwrap();
    let mut trace = Trace::new(Code::new(Algorithm::FailSoft, false), 100, None);
    let out = alphabeta::search_observed(&mut t, 2, Cutoff::Textbook, &mut trace);
    let pv = trace.mark_pv();
    assert_eq!(out.value, 3);
    let entered: Vec<&str> = trace
        .steps
        .iter()
        .filter(|s| s.kind == "enter")
        .map(|s| trace.nodes[s.node].edge.as_str())
        .collect();
    assert_eq!(entered, ["", "B", "D", "E", "C", "F"]);
    let pruned: Vec<&str> = trace
        .nodes
        .iter()
        .filter(|n| n.pruned)
        .map(|n| n.edge.as_str())
        .collect();
    assert_eq!(pruned, ["G"]);
    assert_eq!(pv, ["B", "D"]);
    assert_eq!(trace.nodes[0].window_text, "(-inf, +inf)");
}

/// (kind, node label, alpha, beta, best) of every step.
fn windows(trace: &Trace) -> Vec<(&str, &str, String, String, String)> {
    trace
        .steps
        .iter()
        .map(|s| {
            let n = &trace.nodes[s.node];
            let name = n.label.as_deref().unwrap_or(&n.edge);
            (
                s.kind,
                name,
                s.alpha_text.clone(),
                s.beta_text.clone(),
                s.best_text.clone(),
            )
        })
        .collect()
}

#[test]
fn every_step_carries_the_live_window() {
    let text =
        "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";
    let mut t = ExplicitTree::parse(text).unwrap();
    let mut trace = Trace::new(Code::new(Algorithm::FailSoft, false), 100, None);
    alphabeta::search_observed(&mut t, 3, Cutoff::Textbook, &mut trace);
    trace.complete_from(&t);
    let w = windows(&trace);
    let s = |v: &str| v.to_string();
    // B has taken in E's 5: its beta is 5, so F is entered with (-inf, 5)
    // and cuts at 11 >= 5.
    let i = w
        .iter()
        .position(|x| x.0 == "update" && x.1 == "B")
        .unwrap();
    assert_eq!(w[i], ("update", "B", s("-inf"), s("5"), s("5")));
    assert_eq!(w[i + 1], ("enter", "F", s("-inf"), s("5"), s("")));
    let cut = w.iter().position(|x| x.0 == "cutoff").unwrap();
    assert_eq!(w[cut], ("cutoff", "F", s("-inf"), s("5"), s("11")));
    // A's window after B returned 5: alpha = 5.
    let a = w
        .iter()
        .position(|x| x.0 == "update" && x.1 == "A")
        .unwrap();
    assert_eq!(w[a], ("update", "A", s("5"), s("+inf"), s("5")));
    assert_eq!(
        w.last().unwrap(),
        &("leave", "A", s("5"), s("+inf"), s("5"))
    );
    // The pruned leaf 9 under F and J's leaf are drawn with their values.
    let pruned: Vec<Option<Value>> = trace
        .nodes
        .iter()
        .filter(|n| n.pruned && n.children.is_empty())
        .map(|n| n.leaf_value)
        .collect();
    assert!(
        pruned.contains(&Some(9)) && pruned.contains(&Some(1)),
        "{pruned:?}"
    );
    assert_eq!(trace.nodes[0].label.as_deref(), Some("A"));
}

#[test]
fn the_node_limit_stops_recording_and_sets_the_flag() {
    let mut t = ExplicitTree::parse("max(min(3,5),min(2,1),min(4,6))").unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut trace = Trace::new(Code::new(Algorithm::FailSoft, false), 4, Some(stop.clone()));
    alphabeta::search_observed(&mut t, 2, Cutoff::Textbook, &mut trace);
    assert!(trace.overflow);
    assert!(stop.load(Ordering::Relaxed));
    assert!(trace.nodes.len() <= 4);
}

#[test]
fn fail_hard_returns_stay_in_the_entry_window() {
    let text =
        "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";
    let mut t = ExplicitTree::parse(text).unwrap();
    let mut trace = Trace::new(Code::new(Algorithm::FailHard, false), 100, None);
    let out = alphabeta::search_with(&mut t, 3, Cutoff::Textbook, Bounds::Hard, &mut trace);
    assert_eq!(out.value, 5);
    for s in trace.steps.iter().filter(|s| s.kind == "leave") {
        let n = &trace.nodes[s.node];
        if n.children.is_empty() {
            continue;
        }
        let v = s.best.unwrap();
        assert!(n.alpha.unwrap() <= v && v <= n.beta.unwrap(), "{n:?}");
    }
    // F cuts at 11 >= 5 and returns beta, 5, where fail-soft returns 11.
    let f = trace.nodes.iter().find(|n| n.edge == "F").unwrap();
    assert_eq!(f.value, Some(5));
}
