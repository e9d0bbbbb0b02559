//! The alpha-beta tree for the page: every node in the order the search
//! entered it, with its window and value, and the search's steps (enter,
//! return, cut-off) so the page can replay them forward and back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::alphabeta::Observer;
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
}

/// One step of the search: `enter` a node, `leave` it with its value, or
/// `cutoff` at it (its pruned children are listed in `pruned`).
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub kind: &'static str,
    pub node: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pruned: Vec<usize>,
}

/// Records nodes and steps; past `limit` nodes it stops recording and sets
/// `overflow` (and the stop flag, which ends a chess search at once).
pub struct Trace {
    pub nodes: Vec<Node>,
    pub steps: Vec<Step>,
    stack: Vec<usize>,
    pending_edge: String,
    limit: usize,
    pub overflow: bool,
    stop: Option<Arc<AtomicBool>>,
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

    /// Marks the principal variation: from the root, the first searched
    /// child returning its parent's value (the move that set it).
    pub fn mark_pv(&mut self) {
        let mut at = 0;
        while at < self.nodes.len() {
            self.nodes[at].pv = true;
            let value = self.nodes[at].value;
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
        let parent = self.stack.last().copied();
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
        });
        self.stack.push(id);
        self.steps.push(Step {
            kind: "enter",
            node: id,
            pruned: Vec::new(),
        });
    }

    fn leave(&mut self, value: Value) {
        if self.overflow {
            return;
        }
        let Some(id) = self.stack.pop() else {
            return;
        };
        self.nodes[id].value = Some(value);
        self.nodes[id].value_text = format_value(value);
        self.steps.push(Step {
            kind: "leave",
            node: id,
            pruned: Vec::new(),
        });
    }

    fn cutoff(&mut self, pruned: Vec<String>) {
        if pruned.is_empty() || self.full(pruned.len()) {
            return;
        }
        let Some(&at) = self.stack.last() else {
            return;
        };
        self.nodes[at].cutoff = true;
        let max = !self.nodes[at].max;
        let depth = self.nodes[at].depth + 1;
        let ids = pruned
            .into_iter()
            .map(|edge| {
                self.add(Node {
                    parent: Some(at),
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
                })
            })
            .collect();
        self.steps.push(Step {
            kind: "cutoff",
            node: at,
            pruned: ids,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::{self, Cutoff};
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
}
