//! Tablebase probes inside the search (Syzygy WDL). A probe is only made
//! right after a capture or pawn move (halfmove clock 0): then the tables'
//! result holds whatever the clock, and such nodes are few enough that the
//! probes cost little.

use std::sync::atomic::Ordering;

use super::node::Node;
use super::params::tt_replacement;
use super::score::{DRAW, Score, score_to_tt, tb_win_in};
use super::thread::Worker;
use crate::tablebase::Wdl;
use crate::tt::{MAX_STORED_DEPTH, TtBound, TtEntry};

/// Probes deepen the stored entry: the result is exact at any depth.
const TB_STORE_DEPTH_BONUS: i32 = 6;

impl Worker<'_> {
    /// Probes the tables at a non-root node. Returns the score when it
    /// decides the node; otherwise, on a PV node, bounds the node's score.
    pub(super) fn probe_tablebase(&mut self, node: &mut Node) -> Option<Score> {
        let syzygy = self.syzygy.as_ref()?;
        if node.is_root() || node.excluded.is_some() || self.pos.halfmove_clock() != 0 {
            return None;
        }
        let board = self.pos.board();
        let pieces = board.occupied().len();
        let cardinality = syzygy.cardinality();
        if pieces > cardinality || (pieces == cardinality && node.depth < syzygy.probe_depth) {
            return None;
        }
        let wdl = syzygy.tables.probe_wdl(board)?;
        let (score, bound) = tb_score(wdl, syzygy.rule50, node.ply);
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let decides = match bound {
            TtBound::Exact => true,
            TtBound::Lower => score >= node.beta,
            TtBound::Upper => score <= node.alpha,
        };
        if decides {
            if self.config.tt {
                let entry = TtEntry {
                    mv: None,
                    score: score_to_tt(score, node.ply),
                    // Later visits read the entry's evaluation as this node's.
                    eval: if node.in_check { 0 } else { self.evaluate() },
                    depth: (node.depth + TB_STORE_DEPTH_BONUS).min(MAX_STORED_DEPTH),
                    bound,
                    pv: node.tt_pv(),
                };
                self.shared.tt.store(node.key, entry, tt_replacement());
            }
            return Some(score);
        }
        if node.pv {
            // A won position is worth at least the win; the search may
            // still find a mate. A lost one at most the loss.
            if bound == TtBound::Lower {
                node.tb_floor = score;
                node.alpha = node.alpha.max(score);
            } else {
                node.tb_cap = score;
            }
        }
        None
    }
}

/// The score of a tablebase result `ply` plies from the root and whether it
/// is exact or a bound (a win is at least a win: a mate may be nearer).
/// Under the fifty-move rule a cursed win scores just above a draw.
fn tb_score(wdl: Wdl, rule50: bool, ply: usize) -> (Score, TtBound) {
    match (wdl, rule50) {
        (Wdl::Win, _) | (Wdl::CursedWin, false) => (tb_win_in(ply), TtBound::Lower),
        (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => (-tb_win_in(ply), TtBound::Upper),
        (Wdl::CursedWin, true) => (DRAW + 1, TtBound::Exact),
        (Wdl::BlessedLoss, true) => (DRAW - 1, TtBound::Exact),
        (Wdl::Draw, _) => (DRAW, TtBound::Exact),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE_BOUND, TB_WIN_BOUND};

    #[test]
    fn wins_score_between_the_tb_bound_and_mates() {
        let (s, b) = tb_score(Wdl::Win, true, 10);
        assert!(s > TB_WIN_BOUND && s < MATE_BOUND);
        assert_eq!(b, TtBound::Lower);
        assert_eq!(tb_score(Wdl::CursedWin, true, 3), (1, TtBound::Exact));
        assert_eq!(tb_score(Wdl::CursedWin, false, 3).0, tb_win_in(3));
        assert_eq!(
            tb_score(Wdl::Loss, true, 4),
            (-tb_win_in(4), TtBound::Upper)
        );
    }
}
