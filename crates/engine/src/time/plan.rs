//! The plan of one move: its soft and hard limits within the clock.

use super::limits::Limits;
use super::params::{
    HARD_OVER_SOFT, LAST_MOVE_CLOCK_SHARE, LONG_INCREMENT_MS, LOW_CLOCK_INCREMENT_PCT,
    MAX_CLOCK_SHARE, MOVES_TO_GO_CAP, RESERVE_OVERHEADS, SHORT_INCREMENT_MS, STALL_RESERVE_MS,
    STALL_RESERVE_SHARE, default_moves_to_go, increment_pct, long_increment_pct, long_moves_to_go,
};
use crate::board::Color;

/// Time budget for one move, in milliseconds since the search started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: u64,
    pub hard: u64,
    /// `go movetime`: use exactly the time given, never scaled.
    pub fixed: bool,
}

impl Budget {
    /// The budget of `side`'s move under `limits`, or `None` without a
    /// time limit. `overhead` is the Move Overhead; `lag` what each move is
    /// expected to cost the clock beyond the search (`ClockLag`): every
    /// plan is that much shorter.
    pub fn new(limits: &Limits, side: Color, overhead: u64, lag: u64) -> Option<Budget> {
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            return Some(Budget {
                soft: t,
                hard: t,
                fixed: true,
            });
        }
        let (time, inc) = limits.clock_of(side)?;
        let usable = time.saturating_sub(overhead).max(1);
        let (sudden_mtg, inc_pct) = plan_for_increment(inc);
        let mtg = limits
            .movestogo
            .map_or(sudden_mtg, |m| (m as u64).clamp(1, MOVES_TO_GO_CAP));
        let share = if mtg == 1 {
            LAST_MOVE_CLOCK_SHARE
        } else {
            MAX_CLOCK_SHARE
        };
        let stall = ((usable as f64 * STALL_RESERVE_SHARE) as u64).min(STALL_RESERVE_MS);
        let reserve = (overhead * RESERVE_OVERHEADS).max(stall);
        let mut cap = ((usable as f64 * share) as u64).min(usable.saturating_sub(reserve));
        if inc > 0 {
            let refill =
                usable.saturating_sub(STALL_RESERVE_MS) + inc * LOW_CLOCK_INCREMENT_PCT / 100;
            cap = cap.min(refill.saturating_sub(lag));
        }
        let base = ((usable - stall) / mtg + inc * inc_pct / 100).saturating_sub(lag);
        let soft = base.min(cap).max(1);
        let hard = ((soft as f64 * HARD_OVER_SOFT) as u64).min(cap).max(soft);
        Some(Budget {
            soft,
            hard,
            fixed: false,
        })
    }

    /// The soft limit scaled by `factor` (see `Trend`), under the hard one.
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

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
