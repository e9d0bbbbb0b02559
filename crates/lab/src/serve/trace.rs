//! The alpha-beta tree for the page: every node in the order the search
//! entered it, with its window and value, and the search's steps (enter,
//! return, cut-off) so the page can replay them forward and back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::alphabeta::Observer;
use crate::explicit::ExplicitTree;
use crate::game::Value;
use crate::values::format_value;

/// One node. Searched nodes are numbered in visiting order; pruned stubs
/// (moves never searched) get the next numbers when their parent cuts off.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    pub parent: Option<usize>,
    /// The move into this node (empty at the root).
    pub edge: String,
    /// Plies from the root.
    pub depth: usize,
    pub max: bool,
    /// The window on entry (null for pruned stubs).
    pub alpha: Option<Value>,
    pub beta: Option<Value>,
    /// The value returned (null for pruned stubs).
    pub value: Option<Value>,
    pub window_text: String,
    pub value_text: String,
    /// The node stopped early: its remaining moves are pruned children.
    pub cutoff: bool,
    pub pruned: bool,
    /// On the principal variation.
    pub pv: bool,
    pub children: Vec<usize>,
    /// The name the tree text gives the node (text trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A leaf's value written in the tree text, also when never evaluated
    /// (text trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_value: Option<Value>,
}

impl Node {
    /// A move never searched: a stub under `parent`, with no window or value.
    fn pruned(parent: usize, edge: String, depth: usize, max: bool) -> Self {
        Self {
            parent: Some(parent),
            edge,
            depth,
            max,
            alpha: None,
            beta: None,
            value: None,
            window_text: String::new(),
            value_text: String::new(),
            cutoff: false,
            pruned: true,
            pv: false,
            children: Vec::new(),
            label: None,
            leaf_value: None,
        }
    }
}

/// One step of the search: `enter` a node, `update` it with a child's value
/// (the child is the node's last entered one), `cutoff` at it (its pruned
/// children are listed in `pruned`), or `leave` it with its value.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub kind: &'static str,
    pub node: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pruned: Vec<usize>,
    /// The node's live window after the step, as the search holds it.
    pub alpha: Value,
    pub beta: Value,
    /// The node's best value so far (null on entry; the value at `leave`).
    pub best: Option<Value>,
    pub alpha_text: String,
    pub beta_text: String,
    pub best_text: String,
}

/// The live state of a node on the search stack.
struct Open {
    id: usize,
    alpha: Value,
    beta: Value,
    best: Option<Value>,
}

/// Records nodes and steps; past `limit` nodes it stops recording and sets
/// `overflow` (and the stop flag, which ends a chess search at once).
pub struct Trace {
    pub nodes: Vec<Node>,
    pub steps: Vec<Step>,
    stack: Vec<Open>,
    pending_edge: String,
    limit: usize,
    pub overflow: bool,
    stop: Option<Arc<AtomicBool>>,
    /// Values are for the side to move (negamax): a child's value is the
    /// negation of what its parent takes in.
    pub negamax: bool,
}

impl Trace {
    pub fn new(limit: usize, stop: Option<Arc<AtomicBool>>) -> Self {
        Self {
            nodes: Vec::new(),
            steps: Vec::new(),
            stack: Vec::new(),
            pending_edge: String::new(),
            limit,
            overflow: false,
            stop,
            negamax: false,
        }
    }

    /// True once the recording stopped for the node limit.
    fn full(&mut self, more: usize) -> bool {
        if self.overflow || self.nodes.len() + more > self.limit {
            self.overflow = true;
            if let Some(stop) = &self.stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
        self.overflow
    }

    fn add(&mut self, node: Node) -> usize {
        let id = self.nodes.len();
        if let Some(p) = node.parent {
            self.nodes[p].children.push(id);
        }
        self.nodes.push(node);
        id
    }

    fn step(&mut self, kind: &'static str, pruned: Vec<usize>) {
        let Some(o) = self.stack.last() else {
            return;
        };
        let step = Step {
            kind,
            node: o.id,
            pruned,
            alpha: o.alpha,
            beta: o.beta,
            best: o.best,
            alpha_text: format_value(o.alpha),
            beta_text: format_value(o.beta),
            best_text: o.best.map(format_value).unwrap_or_default(),
        };
        self.steps.push(step);
    }

    /// Marks the principal variation: from the root, the first searched
    /// child returning its parent's value (the move that set it).
    pub fn mark_pv(&mut self) {
        let mut at = 0;
        while at < self.nodes.len() {
            self.nodes[at].pv = true;
            let value = self.nodes[at]
                .value
                .map(|v| if self.negamax { -v } else { v });
            let next = self.nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| !self.nodes[c].pruned && self.nodes[c].value == value);
            match next {
                Some(c) => at = c,
                None => break,
            }
        }
    }

    /// For a text tree: names each node as the text does, gives every leaf
    /// its written value, and adds the subtrees below pruned moves (never
    /// searched, so pruned too), so that every leaf of the text is drawn.
    /// Children are matched by position: the search tries moves in order.
    pub fn complete_from(&mut self, tree: &ExplicitTree) {
        if self.nodes.is_empty() {
            return;
        }
        let mut work = vec![(0, tree.root())];
        while let Some((id, t)) = work.pop() {
            self.nodes[id].label = tree.label_of(t).map(String::from);
            self.nodes[id].leaf_value = tree.leaf_value(t);
            let kids = tree.children_of(t);
            if self.nodes[id].pruned && self.nodes[id].children.is_empty() {
                for (i, &k) in kids.iter().enumerate() {
                    let edge = tree.label_of(k).map_or((i + 1).to_string(), String::from);
                    let depth = self.nodes[id].depth + 1;
                    self.add(Node::pruned(id, edge, depth, tree.is_max(k)));
                }
            }
            let children = self.nodes[id].children.clone();
            work.extend(children.into_iter().zip(kids.iter().copied()));
        }
    }

    /// The moves of the principal variation.
    pub fn pv(&self) -> Vec<String> {
        self.nodes
            .iter()
            .skip(1)
            .filter(|n| n.pv)
            .map(|n| n.edge.clone())
            .collect()
    }
}

impl Observer for Trace {
    const ACTIVE: bool = true;

    fn edge(&mut self, name: String) {
        self.pending_edge = name;
    }

    fn enter(&mut self, alpha: Value, beta: Value, max_node: bool) {
        if self.full(1) {
            return;
        }
        let parent = self.stack.last().map(|o| o.id);
        let edge = std::mem::take(&mut self.pending_edge);
        let id = self.add(Node {
            parent,
            edge,
            depth: self.stack.len(),
            max: max_node,
            alpha: Some(alpha),
            beta: Some(beta),
            value: None,
            window_text: format!("({}, {})", format_value(alpha), format_value(beta)),
            value_text: String::new(),
            cutoff: false,
            pruned: false,
            pv: false,
            children: Vec::new(),
            label: None,
            leaf_value: None,
        });
        self.stack.push(Open {
            id,
            alpha,
            beta,
            best: None,
        });
        self.step("enter", Vec::new());
    }

    fn leave(&mut self, value: Value) {
        if self.overflow {
            return;
        }
        let Some(open) = self.stack.last_mut() else {
            return;
        };
        open.best = Some(value);
        let id = open.id;
        self.nodes[id].value = Some(value);
        self.nodes[id].value_text = format_value(value);
        self.step("leave", Vec::new());
        self.stack.pop();
    }

    fn update(&mut self, value: Value, alpha: Value, beta: Value) {
        if self.overflow {
            return;
        }
        let Some(open) = self.stack.last_mut() else {
            return;
        };
        (open.best, open.alpha, open.beta) = (Some(value), alpha, beta);
        self.step("update", Vec::new());
    }

    fn cutoff(&mut self, pruned: Vec<String>) {
        if pruned.is_empty() || self.full(pruned.len()) {
            return;
        }
        let Some(at) = self.stack.last().map(|o| o.id) else {
            return;
        };
        self.nodes[at].cutoff = true;
        let max = !self.nodes[at].max;
        let depth = self.nodes[at].depth + 1;
        let ids = pruned
            .into_iter()
            .map(|edge| self.add(Node::pruned(at, edge, depth, max)))
            .collect();
        self.step("cutoff", ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::{self, Bounds, Cutoff};
    use crate::explicit::ExplicitTree;

    #[test]
    fn textbook_tree_in_visiting_order() {
        let mut t = ExplicitTree::parse("A:max(B:min(D:3,E:5),C:min(F:2,G:1))").unwrap();
        let mut trace = Trace::new(100, None);
        let out = alphabeta::search_observed(&mut t, 2, Cutoff::Textbook, &mut trace);
        trace.mark_pv();
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
        assert_eq!(trace.pv(), ["B", "D"]);
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
        let text = "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";
        let mut t = ExplicitTree::parse(text).unwrap();
        let mut trace = Trace::new(100, None);
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
        let mut trace = Trace::new(4, Some(stop.clone()));
        alphabeta::search_observed(&mut t, 2, Cutoff::Textbook, &mut trace);
        assert!(trace.overflow);
        assert!(stop.load(Ordering::Relaxed));
        assert!(trace.nodes.len() <= 4);
    }

    #[test]
    fn fail_hard_returns_stay_in_the_entry_window() {
        let text = "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";
        let mut t = ExplicitTree::parse(text).unwrap();
        let mut trace = Trace::new(100, None);
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
}
