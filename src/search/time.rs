//! Time management: how long to think about one move.
//!
//! Two limits: the soft limit is checked between iterations (do not start an
//! iteration that will probably not finish); the hard limit is checked inside
//! the search and is never exceeded by more than the stop latency. Both are
//! kept below the remaining clock minus the Move Overhead, so the engine does
//! not lose on time.

use super::limits::Limits;
use super::params::{
    DEFAULT_MOVES_TO_GO, HARD_OVER_SOFT, INCREMENT_PERCENT, LAST_MOVE_CLOCK_SHARE, MAX_CLOCK_SHARE,
    RESERVE_OVERHEADS,
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
    /// Computes the budget, or `None` when the search has no time limit.
    pub fn new(limits: &Limits, side: Color, overhead: u64) -> Option<Budget> {
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            return Some(Budget {
                soft: t,
                hard: t,
                fixed: true,
            });
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime?, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime?, limits.binc.unwrap_or(0)),
        };
        // What may be spent at all: the clock minus a safety margin per move.
        let usable = time.saturating_sub(overhead).max(1);
        let mtg = limits
            .movestogo
            .map(|m| (m as u64).clamp(1, DEFAULT_MOVES_TO_GO))
            .unwrap_or(DEFAULT_MOVES_TO_GO);
        let share = if mtg == 1 {
            LAST_MOVE_CLOCK_SHARE
        } else {
            MAX_CLOCK_SHARE
        };
        let reserve = overhead * RESERVE_OVERHEADS;
        let cap = ((usable as f64 * share) as u64).min(usable.saturating_sub(reserve));
        let base = usable / mtg + inc * INCREMENT_PERCENT / 100;
        let soft = base.min(cap).max(1);
        let hard = ((soft as f64 * HARD_OVER_SOFT) as u64).min(cap).max(soft);
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let b = Budget::new(&l, Color::White, 10).unwrap();
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
            let b = Budget::new(&clock(t, inc, mtg), Color::White, 10).unwrap();
            assert!(b.soft <= b.hard);
            assert!(b.hard < t.max(2), "{t} {inc}: {b:?}");
        }
    }

    #[test]
    fn a_low_clock_keeps_its_reserve() {
        for t in [15, 30, 60, 100, 200] {
            let b = Budget::new(&clock(t, 10, None), Color::White, 10).unwrap();
            let reserve = 10 * RESERVE_OVERHEADS;
            assert!(
                b.hard <= (t - 10).saturating_sub(reserve).max(1),
                "{t}: {b:?}"
            );
        }
        // With time to spare, the reserve changes nothing.
        let b = Budget::new(&clock(60_000, 100, None), Color::White, 10).unwrap();
        assert_eq!(b.soft, (60_000 - 10) / DEFAULT_MOVES_TO_GO + 75);
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert!(Budget::new(&Limits::depth(5), Color::White, 10).is_none());
        assert!(Budget::new(&clock(1000, 0, None), Color::Black, 10).is_some());
    }
}
