//! `nodestime`: the time control played in nodes, as Stockfish does, for
//! testing on machines whose speed varies (a shared or busy machine, a
//! cloud one): a move then costs the same whatever the machine's load.
//!
//! With `nodestime` N, every time of `go` counts N nodes a millisecond.
//! At the first clocked `go` of a game, the side to move's clock (`wtime`
//! or `btime`) becomes a node clock of that many milliseconds times N.
//! From then on the engine keeps that clock itself: each search takes the
//! nodes it searched off it and adds the increment (`winc` or `binc`)
//! times N; the clocks the GUI sends later are ignored (they run on the
//! wall clock, which this mode leaves out). `ucinewgame` and a change of
//! `nodestime` start again from the next `go`'s clock. The time manager
//! plans as usual, in milliseconds of N nodes each (the node clock, the
//! increment, `movetime` and `Move Overhead` alike), and the search stops
//! on nodes: `Settings::nodes_per_ms`. The node clock of a game of
//! `x moves in y` (`movestogo`) is not refilled, as in Stockfish: the mode
//! is for increment time controls. A ponder search counts all its nodes,
//! those before `ponderhit` too (the clock has no other measure of them).
//!
//! The GUI's clock still runs on real time: N must be below the engine's
//! real speed on the machine (nodes a millisecond, a thousandth of the
//! `nps` of `info`), or it loses on time.

use crate::board::Color;
use crate::search::limits::Limits;

/// The largest `nodestime` (as Stockfish's).
pub const MAX_NODES_PER_MS: i64 = 10_000;

/// The node clocks of a game, and the search whose cost is not yet taken
/// off them.
#[derive(Clone, Debug, Default)]
pub struct NodeClock {
    /// Nodes left to White and to Black; `None` until the side's first
    /// clocked `go` of the game.
    left: [Option<u64>; 2],
    /// The clocked search in flight: its side and increment in nodes.
    pending: Option<(Color, u64)>,
}

impl NodeClock {
    /// Forgets the game (`ucinewgame`, a new `nodestime`): the next clocked
    /// `go` sets the clocks again.
    pub fn forget(&mut self) {
        *self = Self::default();
    }

    /// Nodes left to `side`, if its clock is set.
    pub fn left(&self, side: Color) -> Option<u64> {
        self.left[side as usize]
    }

    /// A `go` for `side` under `limits`, with `per_ms` nodes a millisecond,
    /// the last search having searched `last_nodes` nodes: settles the last
    /// search, then puts the side's node clock in `limits` in milliseconds
    /// of `per_ms` nodes (the GUI's clock sets it only on the first move).
    pub fn start_move(&mut self, limits: &mut Limits, side: Color, per_ms: u64, last_nodes: u64) {
        let per_ms = per_ms.max(1);
        if let Some((who, inc)) = self.pending.take()
            && let Some(left) = &mut self.left[who as usize]
        {
            *left = left.saturating_sub(last_nodes).saturating_add(inc);
        }
        let Some((time, inc)) = limits.clock_of(side) else {
            return;
        };
        let left = *self.left[side as usize].get_or_insert(time.saturating_mul(per_ms));
        let ms = Some(left / per_ms);
        match side {
            Color::White => limits.wtime = ms,
            Color::Black => limits.btime = ms,
        }
        self.pending = Some((side, inc.saturating_mul(per_ms)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(wtime: u64, btime: u64, inc: u64) -> Limits {
        Limits::clocks(wtime, btime, inc)
    }

    #[test]
    fn the_first_clock_sets_the_node_clock_and_later_ones_are_ignored() {
        let mut nc = NodeClock::default();
        let mut limits = clock(10_000, 9_000, 100);
        nc.start_move(&mut limits, Color::White, 50, 12345);
        assert_eq!(nc.left(Color::White), Some(500_000));
        assert_eq!(limits.wtime, Some(10_000));
        // White searched 20,000 nodes; the GUI's clock says 2 s: ignored.
        let mut limits = clock(2_000, 9_000, 100);
        nc.start_move(&mut limits, Color::White, 50, 20_000);
        assert_eq!(nc.left(Color::White), Some(500_000 - 20_000 + 5_000));
        assert_eq!(limits.wtime, Some(485_000 / 50));
        // Black's clock is its own.
        let mut limits = clock(2_000, 9_000, 100);
        nc.start_move(&mut limits, Color::Black, 50, 30_000);
        assert_eq!(nc.left(Color::White), Some(485_000 - 30_000 + 5_000));
        assert_eq!(nc.left(Color::Black), Some(450_000));
        assert_eq!(limits.btime, Some(9_000));
    }

    #[test]
    fn a_spent_clock_stays_at_its_increment_and_a_new_game_starts_again() {
        let mut nc = NodeClock::default();
        nc.start_move(&mut clock(100, 100, 10), Color::White, 10, 0);
        let mut limits = clock(100, 100, 10);
        nc.start_move(&mut limits, Color::White, 10, 5_000);
        assert_eq!(nc.left(Color::White), Some(100));
        assert_eq!(limits.wtime, Some(10));
        // That search took 77 nodes; one without a clock costs nothing.
        let mut depth = Limits::depth(5);
        nc.start_move(&mut depth, Color::White, 10, 77);
        assert_eq!((nc.left(Color::White), depth.wtime), (Some(123), None));
        nc.start_move(&mut clock(100, 100, 10), Color::White, 10, 999);
        assert_eq!(nc.left(Color::White), Some(123));
        nc.forget();
        nc.start_move(&mut clock(3_000, 100, 10), Color::White, 10, 0);
        assert_eq!(nc.left(Color::White), Some(30_000));
    }
}
