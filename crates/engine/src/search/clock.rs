//! When the search stops: the time plan (`crate::time`) and the node
//! limits, as the search checks them. The hard limit is checked inside the
//! tree (`hard_stop`), the soft one between iterations
//! (`should_stop_iteration`). Each thread has a copy; only the main thread
//! looks at the time.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::job::Settings;
use super::shared::Shared;
use crate::board::Board;
use crate::time::{Budget, Iteration, Limits, Trend};

/// The clock started at `start`, with optional time and node limits.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    budget: Option<Budget>,
    node_limit: Option<u64>,
    /// A strength limit's nodes per move: like `node_limit`, but only after
    /// depth 1, so that there are always root lines to choose from.
    node_budget: Option<u64>,
    /// `nodestime`: the budget's milliseconds are this many nodes each.
    nodes_per_ms: Option<u64>,
}

impl Clock {
    /// A clock running from `start`: the moment `go` arrived, so that the
    /// time spent starting threads is charged too (the GUI's clock runs).
    pub fn new(limits: &Limits, board: &Board, settings: &Settings, start: Instant) -> Self {
        let side = board.side_to_move();
        Self {
            start,
            budget: Budget::new(limits, side, settings.move_overhead, settings.clock_lag),
            node_limit: limits.nodes,
            node_budget: None,
            nodes_per_ms: settings.nodes_per_ms.filter(|&n| n > 0),
        }
    }

    /// This clock with a strength limit's node budget.
    pub fn with_node_budget(self, node_budget: Option<u64>) -> Self {
        Self {
            node_budget,
            ..self
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// `go nodes` or the node budget (past depth 1) reached; `nodes` is
    /// asked for only under a node limit.
    pub fn node_limit_reached(&self, root_depth: i32, nodes: impl FnOnce() -> u64) -> bool {
        let budget = self.node_budget.filter(|_| root_depth > 1);
        match (self.node_limit, budget) {
            (None, None) => false,
            (a, b) => nodes() >= a.unwrap_or(u64::MAX).min(b.unwrap_or(u64::MAX)),
        }
    }

    /// Milliseconds counted against the budget: after `ponderhit` only;
    /// under `nodestime`, the `nodes` searched (all of them) in
    /// milliseconds of `nodes_per_ms`.
    fn spent_ms(&self, shared: &Shared, nodes: u64) -> Option<u64> {
        if shared.pondering.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(per_ms) = self.nodes_per_ms {
            return Some(nodes / per_ms);
        }
        let since = shared.ponderhit_ms.load(Ordering::Relaxed);
        Some(self.elapsed_ms().saturating_sub(since))
    }

    /// Checked inside the search, with the `nodes` of all threads: hard
    /// time limit or node limit reached.
    pub fn hard_stop(&self, shared: &Shared, nodes: u64) -> bool {
        if self.node_limit.is_some_and(|n| nodes >= n) {
            return true;
        }
        match (self.budget, self.spent_ms(shared, nodes)) {
            (Some(b), Some(spent)) => spent >= b.hard,
            _ => false,
        }
    }

    /// Checked between iterations, with the `nodes` of all threads: the
    /// soft limit, scaled by how settled the search looks (`trend`
    /// remembers the earlier iterations).
    pub fn should_stop_iteration(
        &self,
        shared: &Shared,
        nodes: u64,
        trend: &mut Trend,
        iteration: &Iteration,
    ) -> bool {
        let factor = trend.soft_factor(iteration);
        match (self.budget, self.spent_ms(shared, nodes)) {
            (Some(b), Some(spent)) => spent >= b.scaled_soft(factor),
            _ => false,
        }
    }
}
