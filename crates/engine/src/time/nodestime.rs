//! `nodestime` (as Stockfish's): the time control played in nodes, N a
//! millisecond, so that a move costs the same however loaded the machine.
//! The first clocked `go` of a game sets the side's node clock to its
//! `wtime` or `btime` times N; from then on the engine keeps that clock
//! itself (less the nodes searched, plus the increment times N) and ignores
//! the GUI's clocks, until `ucinewgame` or a new N. The plan is made as
//! usual in milliseconds of N nodes, and the search stops on nodes. As in
//! Stockfish, `movestogo` does not refill the node clock, and a ponder
//! search counts its nodes before `ponderhit` too. The GUI's clock still
//! runs on real time: N must stay below the engine's real speed.

use super::limits::Limits;
use crate::board::Color;

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
