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
mod tests {
    use super::*;

    /// White to move at the start position: the plan's factor is 100 under
    /// the default parameters in any position, which these tests rely on.
    fn white() -> Board {
        Board::default()
    }

    fn clock(wtime: u64, winc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime: Some(wtime),
            winc: Some(winc),
            btime: Some(1),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = Budget::new(&l, &Board::default(), 10, 0).unwrap();
        assert_eq!(
            b,
            Budget {
                soft: 990,
                hard: 990,
                fixed: true
            }
        );
        assert_eq!(b.scaled_soft(0.5), 990);
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        for (t, inc, mtg) in [
            (10, 0, None),
            (100, 1000, None),
            (60_000, 0, Some(1)),
            (5000, 50, None),
        ] {
            let b = Budget::new(&clock(t, inc, mtg), &white(), 10, 0).unwrap();
            assert!(b.soft <= b.hard);
            assert!(b.hard < t.max(2), "{t} {inc}: {b:?}");
        }
    }

    #[test]
    fn a_low_clock_keeps_its_reserve() {
        for t in [15, 30, 60, 100, 200] {
            let b = Budget::new(&clock(t, 10, None), &white(), 10, 0).unwrap();
            let reserve = 10 * RESERVE_OVERHEADS;
            assert!(
                b.hard <= (t - 10).saturating_sub(reserve).max(1),
                "{t}: {b:?}"
            );
        }
        // With time to spare, only the stall reserve is held back.
        let inc = 100;
        let b = Budget::new(&clock(60_000, inc, None), &white(), 10, 0).unwrap();
        assert_eq!(
            b.soft,
            (60_000 - 10 - STALL_RESERVE_MS) / default_moves_to_go() + inc * increment_pct() / 100
        );
    }

    #[test]
    fn the_plan_follows_the_increment_from_the_short_plan_to_the_long_one() {
        let soft = |inc| {
            Budget::new(&clock(60_000, inc, None), &white(), 10, 0)
                .unwrap()
                .soft
        };
        let usable = 60_000 - 10 - STALL_RESERVE_MS;
        for inc in [0, 50, SHORT_INCREMENT_MS] {
            let expect = usable / default_moves_to_go() + inc * increment_pct() / 100;
            assert_eq!(soft(inc), expect, "{inc}");
        }
        for inc in [LONG_INCREMENT_MS, 1000] {
            let expect = usable / long_moves_to_go() + inc * long_increment_pct() / 100;
            assert_eq!(soft(inc), expect, "{inc}");
        }
        // Halfway, each setting is halfway (rounded).
        let mid = (SHORT_INCREMENT_MS + LONG_INCREMENT_MS) / 2;
        let mtg = (default_moves_to_go() + long_moves_to_go()).div_ceil(2);
        let pct = (increment_pct() + long_increment_pct()).div_ceil(2);
        assert_eq!(soft(mid), usable / mtg + mid * pct / 100);
    }

    #[test]
    fn a_guis_moves_to_go_is_capped_and_not_the_sudden_death_default() {
        let soft = |mtg| {
            Budget::new(&clock(60_000, 0, mtg), &white(), 10, 0)
                .unwrap()
                .soft
        };
        assert_eq!(soft(Some(40)), soft(Some(MOVES_TO_GO_CAP as u32)));
        assert_eq!(soft(Some(1000)), soft(Some(MOVES_TO_GO_CAP as u32)));
        assert_eq!(soft(Some(30)), (60_000 - 10 - STALL_RESERVE_MS) / 30);
        assert!(soft(Some(10)) > 2 * soft(Some(30)));
    }

    /// Plays `moves` moves that each spend the soft limit and gain `inc`,
    /// returning the clocks before each move.
    fn clocks(time: u64, inc: u64, moves: usize) -> Vec<u64> {
        let mut t = time;
        let mut seen = Vec::new();
        for _ in 0..moves {
            seen.push(t);
            let b = Budget::new(&clock(t, inc, None), &white(), 10, 0).unwrap();
            t = t.saturating_sub(b.soft) + inc;
        }
        seen
    }

    #[test]
    fn spending_every_hard_limit_keeps_the_stall_reserve() {
        // The worst case of the soft limit's scaling, from above and from
        // under the reserve: with an increment the clock settles on it
        // (plus the overhead) or above.
        for (start, inc) in [(5000, 50), (10_000, 100), (150, 50), (2000, 10)] {
            let mut t: u64 = start;
            for i in 0..400 {
                let b = Budget::new(&clock(t, inc, None), &white(), 10, 0).unwrap();
                assert!(b.hard <= t, "{start}+{inc}: {t} {b:?}");
                if i >= 100 {
                    assert!(t >= STALL_RESERVE_MS + 10, "{start}+{inc}: {t} {b:?}");
                }
                t = t - b.hard + inc;
            }
        }
    }

    #[test]
    fn the_clock_settles_above_a_stall() {
        // 5+0.05: after the opening the clock stays above the stall
        // reserve (planning the whole increment, it settles just above
        // it), and no plan (hard limit) spends more than half an
        // increment into it, so the increment refills it.
        let settled = clocks(5000, 50, 200)[100..].to_vec();
        for &t in &settled {
            assert!(t > STALL_RESERVE_MS + 10, "{t}");
            let b = Budget::new(&clock(t, 50, None), &white(), 10, 0).unwrap();
            let refill_inc = 50 * LOW_CLOCK_INCREMENT_PCT / 100;
            assert!(
                b.hard + STALL_RESERVE_MS <= t - 10 + refill_inc,
                "{t}: {b:?}"
            );
        }
        // Sudden death still spends into the reserve, a share at a time.
        let sd = clocks(1000, 0, 300);
        assert!(
            sd[299] < STALL_RESERVE_MS / 2 && sd[299] > 50,
            "{:?}",
            &sd[290..]
        );
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert!(Budget::new(&Limits::depth(5), &white(), 10, 0).is_none());
        let black: Board = "4k3/8/8/8/8/8/8/4K3 b - - 0 1".parse().unwrap();
        assert!(Budget::new(&clock(1000, 0, None), &black, 10, 0).is_some());
    }

    fn iteration(best: Move, score: Score) -> Iteration {
        Iteration {
            best,
            score,
            best_nodes: 50,
            nodes: 100,
        }
    }

    #[test]
    fn a_stable_best_move_shrinks_the_soft_limit_and_a_falling_score_grows_it() {
        let a: Move = "e2e4".parse().unwrap();
        let b: Move = "d2d4".parse().unwrap();
        let mut t = Trend::default();
        let first = t.soft_factor(&iteration(a, 0));
        let stable = t.soft_factor(&iteration(a, 0));
        assert!(stable < first, "{stable} {first}");
        let changed = t.soft_factor(&iteration(b, 0));
        assert_eq!(changed, first);
        let falling = t.soft_factor(&iteration(b, -100));
        assert!(falling > stable * 1.4, "{falling}");
    }

    #[test]
    fn the_plan_by_phase_is_flat_by_default_and_follows_its_parameters() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 70",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 25",
        ] {
            let board: Board = fen.parse().unwrap();
            assert_eq!(plan_pct(&board), 100, "{fen}");
        }
        let plan = Plan {
            opening_pct: 70,
            ramp_moves: 10,
            middle_pct: 120,
            endgame_pct: 80,
            phase_full: 16,
        };
        assert_eq!(plan.pct(24, 1), 84); // first move: 120% ramped down to 70%
        assert_eq!(plan.pct(24, 6), 102); // half way up the ramp: 120 * 85%
        assert_eq!(plan.pct(24, 11), 120);
        assert_eq!(plan.pct(16, 40), 120);
        assert_eq!(plan.pct(8, 40), 100);
        assert_eq!(plan.pct(0, 40), 80);
        let inverted = Plan {
            middle_pct: 60,
            endgame_pct: 140,
            ..plan
        };
        assert_eq!(inverted.pct(8, 40), 100);
    }
}
