//! The time plan's numbers. The tunables are the ones matches have moved
//! (declared as `search::params` declares its own, so a `spsa` build sets
//! them as UCI options); the rest are plain constants: safety margins, and
//! factors no tune or test has moved.

use crate::tunable::declare_tunables;

/// The tunables, as `name: type = default, min, max, step;` (see
/// `search::params`).
macro_rules! for_each_tunable {
    ($declare:ident) => {
        $declare! {
            /// Moves assumed left when the GUI does not say, and the percent
            /// of the increment planned per move: the short plan up to
            /// `SHORT_INCREMENT_MS` of increment (and with none), the long
            /// one from `LONG_INCREMENT_MS`, linearly between.
            default_moves_to_go: u64 = 20, 15, 50, 2;
            long_moves_to_go: u64 = 30, 15, 50, 2;
            increment_pct: u64 = 100, 50, 150, 5;
            long_increment_pct: u64 = 75, 50, 150, 5;
        }
    };
}
#[cfg_attr(not(feature = "spsa"), allow(unused_imports))]
pub(crate) use for_each_tunable;

for_each_tunable!(declare_tunables);

/// The increments (ms) that stand for a short and a long control (most
/// controls give about a hundredth of the base).
pub const SHORT_INCREMENT_MS: u64 = 100;
pub const LONG_INCREMENT_MS: u64 = 400;

/// A GUI's `movestogo` is planned as at most this many moves (apart from
/// `default_moves_to_go`, so that tuning one does not move the other).
pub const MOVES_TO_GO_CAP: u64 = 30;

/// Most of the usable clock one move may plan; before a control's last
/// move (`movestogo 1`) nearly all of it, as the clock is refilled after.
pub const MAX_CLOCK_SHARE: f64 = 0.6;
pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.9;

/// Clock no move plans to spend into (ms): a stall of the machine or the
/// GUI near the end of a move adds to the hard limit, and 400 keeps 100 ms
/// after a 300 ms one. At most this share of a short clock, so it moves.
pub const STALL_RESERVE_MS: u64 = 400;
pub const STALL_RESERVE_SHARE: f64 = 0.8;
/// At least this many Move Overheads are kept in hand: at a low clock the
/// engine moves fast and lets the increment refill it.
pub const RESERVE_OVERHEADS: u64 = 5;
/// With an increment, a move spends at most the clock above the stall
/// reserve plus this percent of the increment: a low clock refills.
pub const LOW_CLOCK_INCREMENT_PCT: u64 = 50;

/// The hard limit: this many soft limits, within the same cap.
pub const HARD_OVER_SOFT: f64 = 4.0;

/// The soft limit's factor by the iterations the best move has not
/// changed (the last entry from then on): a settled move needs less time.
pub const STABILITY: [f64; 6] = [1.6, 1.3, 1.1, 1.0, 0.9, 0.8];
/// A score drop between iterations (cp, capped) means trouble: the soft
/// limit grows by `drop / FALLING_DIVISOR`.
pub const FALLING_MAX_DROP: i32 = 100;
pub const FALLING_DIVISOR: f64 = 200.0;
/// The factor `EFFORT_BASE - share of the nodes under the best move`,
/// clamped: a best move holding most nodes is clear.
pub const EFFORT_BASE: f64 = 1.6;
pub const EFFORT_MIN: f64 = 0.6;
pub const EFFORT_MAX: f64 = 1.4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunables_are_declared_with_their_defaults() {
        assert_eq!(TUNABLES.len(), 4);
        assert_eq!(TUNABLES[Id::increment_pct as usize].name, "increment_pct");
        assert_eq!((default_moves_to_go(), long_increment_pct()), (20, 75));
    }
}
