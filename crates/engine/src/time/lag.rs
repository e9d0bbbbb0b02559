//! Clock lag: what each move costs the GUI's clock beyond its plan, learned
//! from one clocked `go` to the next of the same game. Two costs no plan
//! sees: what the GUI charges beyond the engine's own measure (its latency,
//! the pipe), and time past the hard limit when the machine stopped the
//! engine near the end of a move (the monotonic clock runs on meanwhile).
//! Every plan is shortened by their running mean, so that frequent stalls
//! do not sink the clock below the stall reserve.

use super::limits::Limits;
use super::plan::Budget;
use crate::board::{Color, Position};

/// Weight of the newest move in the running mean (1/8: a stall is felt for
/// about eight moves, and one move in ten stalling is planned for steadily).
const WEIGHT: f64 = 1.0 / 8.0;
/// A move's cost is counted up to this: one pause of the machine for
/// seconds is not a rate to plan for.
const MAX_SAMPLE_MS: u64 = 1_000;

/// The running mean of the lag, and the clocked move it is measuring.
#[derive(Clone, Debug, Default)]
pub struct ClockLag {
    mean_ms: f64,
    pending: Option<Move>,
}

/// A clocked move in flight: what the GUI's clock said, what was planned.
#[derive(Clone, Copy, Debug)]
struct Move {
    side: Color,
    fullmove: u16,
    clock: u64,
    inc: u64,
    hard: u64,
}

impl ClockLag {
    /// The lag to plan for, in whole milliseconds.
    pub fn ms(&self) -> u64 {
        self.mean_ms.round() as u64
    }

    /// Forgets the move in flight (a new game, a book move, a search with
    /// no clock): the next `go` has nothing to compare with.
    pub fn forget_move(&mut self) {
        self.pending = None;
    }

    /// A `go` for `pos` under `limits`: learns from the previous move of the
    /// same side, if this is its next move, which took `last_elapsed` ms
    /// from its `go` to its `bestmove`; then remembers this move (its hard
    /// limit with `overhead`) unless it has no clock or is a ponder search
    /// (the GUI's clock starts at `ponderhit`, not at `go`).
    pub fn start_move(
        &mut self,
        pos: &Position,
        limits: &Limits,
        overhead: u64,
        last_elapsed: u64,
    ) {
        let side = pos.side_to_move();
        let fullmove = pos.board().fullmove_number();
        let clock = limits.clock_of(side);
        if let (Some(prev), Some((now, _))) = (self.pending.take(), clock)
            && prev.side == side
            && prev.fullmove.checked_add(1) == Some(fullmove)
        {
            let sample = cost(&prev, now, last_elapsed).min(MAX_SAMPLE_MS);
            self.mean_ms += (sample as f64 - self.mean_ms) * WEIGHT;
        }
        let budget = Budget::new(limits, side, overhead, self.ms());
        if let (Some((clock, inc)), Some(budget), false) = (clock, budget, limits.ponder) {
            self.pending = Some(Move {
                side,
                fullmove,
                clock,
                inc,
                hard: budget.hard,
            });
        }
    }
}

/// The cost of `prev`, which took `elapsed` ms by the engine's own
/// measure, given the clock `now` at the next move: the time past its hard
/// limit plus what the GUI charged beyond `elapsed`. A clock refilled by
/// `movestogo` shows no GUI charge.
fn cost(prev: &Move, now: u64, elapsed: u64) -> u64 {
    let overrun = elapsed.saturating_sub(prev.hard);
    let charged = (prev.clock + prev.inc).saturating_sub(now);
    overrun + charged.saturating_sub(elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(wtime: u64, btime: u64, inc: u64) -> Limits {
        Limits::clocks(wtime, btime, inc)
    }

    /// White's positions at consecutive moves of one game.
    fn white_at(fullmove: u32) -> Position {
        Position::from_fen(
            &format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {fullmove}"),
            false,
        )
        .unwrap()
    }

    #[test]
    fn a_quiet_clock_learns_no_lag() {
        let mut lag = ClockLag::default();
        let mut time = 10_000;
        for m in 1..20 {
            lag.start_move(&white_at(m), &clock(time, time, 100), 10, 150);
            // The GUI charges exactly what the engine measured.
            time = time + 100 - 150;
        }
        assert_eq!(lag.ms(), 0);
    }

    #[test]
    fn a_stall_past_the_hard_limit_is_learned_and_fades() {
        let mut lag = ClockLag::default();
        let limits = clock(5_000, 5_000, 50);
        let hard = Budget::new(&limits, Color::White, 10, 0).unwrap().hard;
        lag.start_move(&white_at(1), &limits, 10, 0);
        // The move ran 300 ms past its hard limit: the GUI charged it all.
        let elapsed = hard + 300;
        let now = 5_000 + 50 - elapsed;
        lag.start_move(&white_at(2), &clock(now, 5_000, 50), 10, elapsed);
        assert_eq!(lag.ms(), (300.0 * WEIGHT).round() as u64);
        let before = lag.ms();
        lag.start_move(&white_at(3), &clock(now, 5_000, 50), 10, 50);
        assert!(lag.ms() < before, "{} then {}", before, lag.ms());
    }

    #[test]
    fn gui_latency_is_learned() {
        let mut lag = ClockLag::default();
        let mut time = 10_000;
        for m in 1..40 {
            lag.start_move(&white_at(m), &clock(time, time, 100), 10, 100);
            // The GUI charges 40 ms more than the engine's 100.
            time -= 40;
        }
        assert_eq!(lag.ms(), 40);
    }

    #[test]
    fn only_the_next_move_of_the_same_game_is_compared() {
        let mut lag = ClockLag::default();
        lag.start_move(&white_at(5), &clock(10_000, 10_000, 0), 10, 0);
        // Not the next move (a new game or an analysis jump): no sample.
        lag.start_move(&white_at(9), &clock(1_000, 10_000, 0), 10, 100);
        assert_eq!(lag.ms(), 0);
        // A ponder search is not measured.
        let ponder = Limits {
            ponder: true,
            ..clock(1_000, 1_000, 0)
        };
        lag.start_move(&white_at(10), &ponder, 10, 0);
        lag.start_move(&white_at(11), &clock(10, 1_000, 0), 10, 100);
        assert_eq!(lag.ms(), 0);
        // Nor a move after `forget_move`.
        lag.forget_move();
        lag.start_move(&white_at(12), &clock(5, 1_000, 0), 10, 100);
        assert_eq!(lag.ms(), 0);
    }

    #[test]
    fn the_lag_shortens_every_plan() {
        let limits = clock(5_000, 5_000, 50);
        let quiet = Budget::new(&limits, Color::White, 10, 0).unwrap();
        let lagged = Budget::new(&limits, Color::White, 10, 30).unwrap();
        assert_eq!(lagged.soft, quiet.soft - 30);
    }
}
