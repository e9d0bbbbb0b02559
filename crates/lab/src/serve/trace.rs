//! The alpha-beta tree for the page: every node in the order the search
//! entered it, with its window and value, and the search's steps (enter,
//! take in a child's value, cut off, return) with the pseudocode lines each
//! one executes, so the page can replay them forward and back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::code::{Code, Via};
use crate::alphabeta::Observer;
use crate::explicit::ExplicitTree;
use crate::game::Value;
use crate::values::format_value;

/// One node. Searched nodes are numbered in visiting order; pruned stubs
/// (moves never searched) get the next numbers when their parent cuts off.
/// A node PVS searches again is recorded once per visit: the later visits
/// name the first in `same_as`, and so do their descendants.
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
    /// The value, written as a bound (`≥ 11`, `≤ 4`) where it is one.
    pub value_text: String,
    /// `lower` or `upper` when the value only bounds the node's minimax
    /// value (for the side to move in PVS), because a cutoff at or below
    /// the node left moves unsearched; null when exact.
    pub bound: Option<&'static str>,
    /// The node stopped early: its cutoff test held (at its last move too,
    /// where it prunes nothing).
    pub cutoff: bool,
    pub pruned: bool,
    /// On the principal variation.
    pub pv: bool,
    pub children: Vec<usize>,
    /// The first visit of the same node, for a later visit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_as: Option<usize>,
    /// Which visit of the node this is: 1, or 2 for a search again.
    pub visit: u32,
    /// The name the tree text gives the node (text trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A leaf's value written in the tree text, also when never evaluated
    /// (text trees only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_value: Option<Value>,
}

impl Node {
    fn new(parent: Option<usize>, edge: String, depth: usize, max: bool) -> Self {
        Self {
            parent,
            edge,
            depth,
            max,
            alpha: None,
            beta: None,
            value: None,
            window_text: String::new(),
            value_text: String::new(),
            bound: None,
            cutoff: false,
            pruned: false,
            pv: false,
            children: Vec::new(),
            same_as: None,
            visit: 1,
            label: None,
            leaf_value: None,
        }
    }

    /// A move never searched: a stub under `parent`, with no window or value.
    fn pruned(parent: usize, edge: String, depth: usize, max: bool) -> Self {
        Self {
            pruned: true,
            ..Self::new(Some(parent), edge, depth, max)
        }
    }
}

/// One step of the search: `enter` a node, `update` it with a child's value
/// (the child is the node's last entered one), `research` (PVS: a later
/// child's null-window score tested for a search again), `cutoff` at it
/// (its pruned children are listed in `pruned`, none at the last move), or
/// `leave` it with its value.
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
    /// The test this step evaluated (`update`: the cutoff test; `research`:
    /// PVS's `α < score < β`) and whether it held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<bool>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub test_text: String,
    /// The pseudocode lines the step executes (0-based).
    pub lines: Vec<usize>,
}

/// The live state of a node on the search stack.
struct Open {
    id: usize,
    alpha: Value,
    beta: Value,
    best: Option<Value>,
    /// Moves started (a search again does not start one).
    moves: usize,
    /// PVS: the next child entered is the last one searched again.
    again_next: bool,
    /// PVS: how the score being taken in was found.
    via: Via,
    cut: bool,
    /// The step that entered it.
    entered: usize,
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
    code: Code,
}

impl Trace {
    pub fn new(code: Code, limit: usize, stop: Option<Arc<AtomicBool>>) -> Self {
        Self {
            nodes: Vec::new(),
            steps: Vec::new(),
            stack: Vec::new(),
            pending_edge: String::new(),
            limit,
            overflow: false,
            stop,
            code,
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

    /// The first visit of node `id`.
    pub fn first_visit(&self, id: usize) -> usize {
        self.nodes[id].same_as.unwrap_or(id)
    }

    /// The children of `id` one per move, in move order (first visits: a
    /// child searched again is listed once).
    pub fn moves_of(&self, id: usize) -> Vec<usize> {
        let kids = &self.nodes[id].children;
        kids.iter()
            .copied()
            .filter(|&c| !self.nodes[c].same_as.is_some_and(|f| kids.contains(&f)))
            .collect()
    }

    /// What the node entered now, the `index`-th move of the open node
    /// `parent`, is a later visit of: the move searched again, or the same
    /// move below an earlier visit of `parent`.
    fn revisit_of(&self, parent: &Open, index: usize) -> Option<usize> {
        if parent.again_next {
            let last = *self.nodes[parent.id].children.last()?;
            return Some(self.first_visit(last));
        }
        let first = self.nodes[parent.id].same_as?;
        self.moves_of(first).get(index).copied()
    }

    fn step(&mut self, kind: &'static str, pruned: Vec<usize>, lines: Vec<usize>) {
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
            test: None,
            test_text: String::new(),
            lines,
        };
        self.steps.push(step);
    }

    /// The last step, to add the test it evaluated.
    fn tested(&mut self, held: bool, text: String) {
        if let Some(s) = self.steps.last_mut() {
            (s.test, s.test_text) = (Some(held), text);
        }
    }

    /// Marks the principal variation: from the root, the first move whose
    /// value is its parent's (its last visit, the one that set it). Returns
    /// its moves.
    pub fn mark_pv(&mut self) -> Vec<String> {
        let mut moves = Vec::new();
        let mut at = 0;
        while at < self.nodes.len() {
            self.nodes[at].pv = true;
            let first = self.first_visit(at);
            self.nodes[first].pv = true;
            let negamax = self.code.negamax();
            let value = self.nodes[at].value.map(|v| if negamax { -v } else { v });
            let kids = self.nodes[at].children.clone();
            let Some(&c) = kids
                .iter()
                .find(|&&c| !self.nodes[c].pruned && self.nodes[c].value == value)
            else {
                break;
            };
            let first = self.first_visit(c);
            at = kids
                .iter()
                .copied()
                .rfind(|&k| self.first_visit(k) == first && !self.nodes[k].pruned)
                .unwrap_or(c);
            moves.push(self.nodes[at].edge.clone());
        }
        moves
    }

    /// Writes each searched node's value as a bound where it is one: what
    /// the search knows of a node is an interval, a leaf's value exactly,
    /// nothing of a pruned move, and an inner node the max (MAX) or min
    /// (MIN) of its moves' intervals, each move's visits intersected. A
    /// returned value below the interval is a lower bound, above it an
    /// upper one (fail-hard clamps to the window).
    pub fn mark_bounds(&mut self) {
        let n = self.nodes.len();
        let mut span = vec![(-Value::MAX, Value::MAX); n];
        // Children are numbered after their parent: one pass from the end.
        for id in (0..n).rev() {
            let node = &self.nodes[id];
            if node.pruned || node.value.is_none() {
                continue;
            }
            if node.children.is_empty() {
                let v = self.max_terms(id);
                span[id] = (v, v);
                continue;
            }
            let mut moves: Vec<(usize, (Value, Value))> = Vec::new();
            for &c in &node.children {
                let f = self.first_visit(c);
                match moves.iter_mut().find(|(m, _)| *m == f) {
                    Some((_, s)) => *s = (s.0.max(span[c].0), s.1.min(span[c].1)),
                    None => moves.push((f, span[c])),
                }
            }
            let spans = moves.iter().map(|(_, s)| *s);
            span[id] = if node.max {
                spans.fold((-Value::MAX, -Value::MAX), |a, s| {
                    (a.0.max(s.0), a.1.max(s.1))
                })
            } else {
                spans.fold((Value::MAX, Value::MAX), |a, s| {
                    (a.0.min(s.0), a.1.min(s.1))
                })
            };
        }
        for (id, &(lo, hi)) in span.iter().enumerate() {
            let Some(value) = self.nodes[id].value else {
                continue;
            };
            let v = self.max_terms(id);
            let lower = if lo == hi && v == lo {
                None
            } else if v <= lo {
                Some(true)
            } else if v >= hi {
                Some(false)
            } else {
                None
            };
            // PVS values are for the side to move: MIN's bounds turn over.
            let flip = self.code.negamax() && !self.nodes[id].max;
            let node = &mut self.nodes[id];
            (node.bound, node.value_text) = match lower.map(|l| l != flip) {
                None => (None, format_value(value)),
                Some(true) => (Some("lower"), format!("≥ {}", format_value(value))),
                Some(false) => (Some("upper"), format!("≤ {}", format_value(value))),
            };
        }
    }

    /// A node's value for MAX.
    fn max_terms(&self, id: usize) -> Value {
        let n = &self.nodes[id];
        let v = n.value.unwrap_or_default();
        if self.code.negamax() && !n.max { -v } else { v }
    }

    /// For a text tree: names each node as the text does, gives every leaf
    /// its written value, and adds the subtrees below pruned moves (never
    /// searched, so pruned too), so that every leaf of the text is drawn.
    /// Children are matched by position: the search tries moves in order.
    /// Later visits take the names of their first.
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
            let children = self.moves_of(id);
            work.extend(children.into_iter().zip(kids.iter().copied()));
        }
        for id in 0..self.nodes.len() {
            if let Some(f) = self.nodes[id].same_as {
                self.nodes[id].label = self.nodes[f].label.clone();
                self.nodes[id].leaf_value = self.nodes[f].leaf_value;
            }
        }
    }

    /// Leaves evaluated, each counted once however often it was searched.
    pub fn distinct_leaves(&self) -> usize {
        let mut seen = vec![false; self.nodes.len()];
        for (id, n) in self.nodes.iter().enumerate() {
            if !n.pruned && n.children.is_empty() && n.value.is_some() {
                seen[self.first_visit(id)] = true;
            }
        }
        seen.iter().filter(|&&s| s).count()
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
        let edge = std::mem::take(&mut self.pending_edge);
        let (parent, same_as) = match self.stack.last() {
            Some(p) => (Some(p.id), self.revisit_of(p, p.moves)),
            None => (None, None),
        };
        // A search again does not start a move.
        if let Some(p) = self.stack.last_mut()
            && !std::mem::take(&mut p.again_next)
        {
            p.moves += 1;
        }
        let mut node = Node::new(parent, edge, self.stack.len(), max_node);
        (node.alpha, node.beta) = (Some(alpha), Some(beta));
        node.window_text = format!("({}, {})", format_value(alpha), format_value(beta));
        node.same_as = same_as;
        node.visit = same_as.map_or(1, |f| {
            let earlier = self.nodes.iter().filter(|n| n.same_as == Some(f)).count();
            earlier as u32 + 2
        });
        let id = self.add(node);
        self.stack.push(Open {
            id,
            alpha,
            beta,
            best: None,
            moves: 0,
            again_next: false,
            via: Via::First,
            cut: false,
            entered: self.steps.len(),
        });
        // Whether it is a leaf shows when it leaves; assume one until then.
        self.step("enter", Vec::new(), Vec::new());
    }

    fn leave(&mut self, value: Value) {
        if self.overflow {
            return;
        }
        let Some(open) = self.stack.last_mut() else {
            return;
        };
        open.best = Some(value);
        let (id, cut, entered) = (open.id, open.cut, open.entered);
        self.nodes[id].value = Some(value);
        self.nodes[id].value_text = format_value(value);
        let (max, leaf) = (self.nodes[id].max, self.nodes[id].children.is_empty());
        self.step("leave", Vec::new(), self.code.leave(max, leaf, cut));
        // The entry step now knows whether it entered a leaf.
        self.steps[entered].lines = self.code.enter(max, leaf);
        self.stack.pop();
    }

    fn update(&mut self, value: Value, alpha: Value, beta: Value, test: Option<bool>) {
        if self.overflow {
            return;
        }
        let Some(open) = self.stack.last_mut() else {
            return;
        };
        // The test compares with the bound as it was: MAX and PVS nodes
        // test beta, which they never change; MIN nodes alpha.
        let (before_alpha, via) = (open.alpha, open.via);
        (open.best, open.alpha, open.beta) = (Some(value), alpha, beta);
        open.cut = test == Some(true);
        open.via = Via::Null;
        let max = self.nodes[open.id].max;
        self.step("update", Vec::new(), self.code.update(max, test, via));
        if let Some(held) = test {
            let text = self.code.test_text(max, value, before_alpha, beta);
            self.tested(held, text);
        }
    }

    fn research(&mut self, score: Value, again: bool) {
        if self.overflow {
            return;
        }
        let Some(open) = self.stack.last_mut() else {
            return;
        };
        (open.again_next, open.via) = (again, if again { Via::Again } else { Via::Null });
        let (alpha, beta) = (open.alpha, open.beta);
        self.step("research", Vec::new(), self.code.research());
        let text = self.code.research_text(score, alpha, beta);
        self.tested(again, text);
    }

    fn cutoff(&mut self, pruned: Vec<String>) {
        if self.full(pruned.len()) {
            return;
        }
        let Some(open) = self.stack.last() else {
            return;
        };
        let (at, first) = (open.id, open.moves);
        self.nodes[at].cutoff = true;
        let max = !self.nodes[at].max;
        let depth = self.nodes[at].depth + 1;
        let below = self.nodes[at].same_as.map(|f| self.moves_of(f));
        let mut ids = Vec::new();
        for (i, edge) in pruned.into_iter().enumerate() {
            let mut stub = Node::pruned(at, edge, depth, max);
            stub.same_as = below.as_ref().and_then(|m| m.get(first + i).copied());
            ids.push(self.add(stub));
        }
        let lines = self.code.cutoff(self.nodes[at].max);
        self.step("cutoff", ids, lines);
    }
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "trace_reference.rs"]
mod reference;
