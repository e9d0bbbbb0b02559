//! Time management: how long to think about one move.
//!
//! Two limits: the soft limit is checked between iterations (do not start an
//! iteration that will probably not finish); the hard limit is checked inside
//! the search and is never exceeded by more than the stop latency. Both are
//! kept below the remaining clock minus the Move Overhead, so the engine does
//! not lose on time. The search sees only `Clock`: `hard_stop` inside the
//! tree, `should_stop_iteration` between iterations. Under `nodestime`
//! (`Settings::nodes_per_ms`) the milliseconds are counted in nodes.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::job::Settings;
use super::limits::Limits;
use super::params::{
    LAST_MOVE_CLOCK_SHARE, LONG_INCREMENT_MS, LOW_CLOCK_INCREMENT_PCT, MOVES_TO_GO_CAP,
    RESERVE_OVERHEADS, SHORT_INCREMENT_MS, STALL_RESERVE_MS, STALL_RESERVE_SHARE,
    default_moves_to_go, effort_base_pct, effort_max_pct, effort_min_pct, falling_divisor,
    falling_max_drop, hard_over_soft_pct, increment_pct, long_increment_pct, long_moves_to_go,
    max_clock_share_pct, stability_0_pct, stability_1_pct, stability_2_pct, stability_3_pct,
    stability_4_pct, stability_5_pct, time_endgame_pct, time_middle_pct, time_opening_pct,
    time_phase_full, time_ramp_moves,
};
use super::score::Score;
use super::shared::Shared;
use crate::board::{Board, Move};
use crate::eval::{PHASE_MAX, phase};

/// Time budget for one move, in milliseconds since the search started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: u64,
    pub hard: u64,
    /// `go movetime`: use exactly the time given, never scaled.
    pub fixed: bool,
}

impl Budget {
    /// Computes the budget for a move in `board`, or `None` when the search
    /// has no time limit. `lag` is what each move is expected to cost the
    /// clock beyond the search's own time (learned by the engine from
    /// earlier moves): every plan is that much shorter.
    pub fn new(limits: &Limits, board: &Board, overhead: u64, lag: u64) -> Option<Budget> {
        let side = board.side_to_move();
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            return Some(Budget {
                soft: t,
                hard: t,
                fixed: true,
            });
        }
        let (time, inc) = limits.clock_of(side)?;
        // What may be spent at all: the clock minus a safety margin per move.
        let usable = time.saturating_sub(overhead).max(1);
        let (sudden_mtg, inc_pct) = plan_for_increment(inc);
        let mtg = limits
            .movestogo
            .map(|m| (m as u64).clamp(1, MOVES_TO_GO_CAP))
            .unwrap_or(sudden_mtg);
        let share = if mtg == 1 {
            LAST_MOVE_CLOCK_SHARE
        } else {
            factor(max_clock_share_pct())
        };
        // Held back from every plan: a stall must find clock to spend.
        let stall = ((usable as f64 * STALL_RESERVE_SHARE) as u64).min(STALL_RESERVE_MS);
        let reserve = (overhead * RESERVE_OVERHEADS).max(stall);
        let cap = ((usable as f64 * share) as u64).min(usable.saturating_sub(reserve));
        // Near the reserve, less than the increment: the clock refills.
        let refill = usable.saturating_sub(STALL_RESERVE_MS) + inc * LOW_CLOCK_INCREMENT_PCT / 100;
        let cap = if inc > 0 {
            cap.min(refill.saturating_sub(lag))
        } else {
            cap
        };
        let base = ((usable - stall) / mtg + inc * inc_pct / 100) * plan_pct(board) / 100;
        let base = base.saturating_sub(lag);
        let soft = base.min(cap).max(1);
        let hard = ((soft as f64 * factor(hard_over_soft_pct())) as u64)
            .min(cap)
            .max(soft);
        Some(Budget {
            soft,
            hard,
            fixed: false,
        })
    }

    /// Scales the soft limit (best-move instability, score drops), keeping it
    /// under the hard limit.
    pub fn scaled_soft(&self, factor: f64) -> u64 {
        if self.fixed {
            return self.hard;
        }
        ((self.soft as f64 * factor) as u64).min(self.hard)
    }
}

/// The moves to go (when the GUI does not say) and the percent of the
/// increment planned, for an increment of `inc` ms: the short plan up to
/// `SHORT_INCREMENT_MS`, the long one from `LONG_INCREMENT_MS`, linearly
/// between.
fn plan_for_increment(inc: u64) -> (u64, u64) {
    let span = LONG_INCREMENT_MS - SHORT_INCREMENT_MS;
    let t = inc.clamp(SHORT_INCREMENT_MS, LONG_INCREMENT_MS) - SHORT_INCREMENT_MS;
    let mix = |short: u64, long: u64| (short * (span - t) + long * t + span / 2) / span;
    (
        mix(default_moves_to_go(), long_moves_to_go()).max(1),
        mix(increment_pct(), long_increment_pct()),
    )
}

/// When to stop: the clock started at `start`, with optional time and node
/// limits. Each thread has a copy; only the main thread looks at the time.
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
        Self {
            start,
            budget: Budget::new(limits, board, settings.move_overhead, settings.clock_lag),
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

/// A finished iteration, as the time manager sees it.
pub struct Iteration {
    pub best: Move,
    pub score: Score,
    /// Nodes under the best move, and in the whole iteration.
    pub best_nodes: u64,
    pub nodes: u64,
}

/// What the time manager remembers from one iteration to the next.
#[derive(Default)]
pub struct Trend {
    best: Option<Move>,
    stable_iterations: u32,
    prev_score: Option<Score>,
}

impl Trend {
    /// The soft limit's factor after `it`: less while the best move stays,
    /// more while the score falls, less when the best move holds most nodes.
    fn soft_factor(&mut self, it: &Iteration) -> f64 {
        if self.best == Some(it.best) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
        }
        self.best = Some(it.best);
        let stability = factor(stability_pct(self.stable_iterations));
        let drop = self
            .prev_score
            .map_or(0, |p| (p - it.score).clamp(0, falling_max_drop()));
        self.prev_score = Some(it.score);
        let falling = 1.0 + drop as f64 / falling_divisor() as f64;
        let share = it.best_nodes as f64 / it.nodes.max(1) as f64;
        let (lo, hi) = (factor(effort_min_pct()), factor(effort_max_pct()));
        // A tuned minimum above the maximum must not panic in `clamp`.
        let effort = (factor(effort_base_pct()) - share).clamp(lo, hi.max(lo));
        stability * falling * effort
    }
}

/// The share (percent) of the usual plan a move in `board` gets: by the
/// material on the board (`time_endgame_pct` bare, `time_middle_pct` from
/// `time_phase_full` of the 24 phase points up), times a ramp over the
/// first `time_ramp_moves` moves from `time_opening_pct` to 100.
fn plan_pct(board: &Board) -> u64 {
    let plan = Plan {
        opening_pct: time_opening_pct(),
        ramp_moves: time_ramp_moves(),
        middle_pct: time_middle_pct(),
        endgame_pct: time_endgame_pct(),
        phase_full: time_phase_full(),
    };
    plan.pct(
        phase(board).max(0) as u64,
        u64::from(board.fullmove_number()),
    )
}

/// The time plan's parameters (see `plan_pct`).
struct Plan {
    opening_pct: u64,
    ramp_moves: u64,
    middle_pct: u64,
    endgame_pct: u64,
    phase_full: u64,
}

impl Plan {
    /// The share at `material` phase points and move number `fullmove`.
    fn pct(&self, material: u64, fullmove: u64) -> u64 {
        let full = self.phase_full.clamp(1, PHASE_MAX as u64);
        let material = material.min(full) as i64;
        // Signed: a tune may set the endgame share above the middlegame's.
        let (end, middle) = (self.endgame_pct as i64, self.middle_pct as i64);
        let by_material = end + (middle - end) * material / full as i64;
        let ramp = self.ramp_moves.max(1);
        let played = fullmove.saturating_sub(1).min(ramp) as i64;
        let opening = self.opening_pct as i64;
        let by_move = opening + (100 - opening) * played / ramp as i64;
        (by_material * by_move / 100).max(1) as u64
    }
}

/// A factor declared in hundredths. The quotient is the nearest double to
/// the decimal, so `60` gives exactly the `0.6` a literal would.
fn factor(pct: i32) -> f64 {
    pct as f64 / 100.0
}

/// The soft-limit factor (percent) after `stable` iterations with the same
/// best move.
fn stability_pct(stable: u32) -> i32 {
    match stable {
        0 => stability_0_pct(),
        1 => stability_1_pct(),
        2 => stability_2_pct(),
        3 => stability_3_pct(),
        4 => stability_4_pct(),
        _ => stability_5_pct(),
    }
}

#[cfg(test)]
#[path = "time_tests.rs"]
mod tests;
