//! Correction history: the static evaluation's typical error in positions
//! with the same pawn structure (and, when its weight is set, the same
//! placement of each side's other pieces), learned from search results and
//! added to the evaluation before the search uses it.
//!
//! A hand-crafted evaluation misjudges some structures consistently (a
//! blockade it scores as a winning passer, a weak king it does not see). When
//! a node's search result proves the static evaluation too low or too high,
//! the difference is folded into a running average kept per side to move and
//! pawn structure; the next nodes with that structure start from a better
//! estimate, so the pruning that trusts the static evaluation errs less.
//! Sound in the sense that matters: it changes only estimates, never a
//! proven score, and its correction is bounded.

use super::params::{
    correction_max_cp, correction_max_weight, correction_nonpawn_pct, correction_sum_max_cp,
};
use super::score::{MATE_BOUND, Score};
use crate::board::{Board, Color, Piece};

/// Entries per side to move (a power of two).
const SIZE: usize = 1 << 14;
/// Fixed-point scale of the stored averages (1 cp = `GRAIN`).
const GRAIN: i32 = 256;

pub struct CorrectionHistory {
    /// By side to move and pawn structure.
    table: Vec<i32>,
    /// By side to move and the placement of one colour's pieces other
    /// than pawns (White's, then Black's).
    nonpawn: [Vec<i32>; 2],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self {
            table: vec![0; 2 * SIZE],
            nonpawn: [vec![0; 2 * SIZE], vec![0; 2 * SIZE]],
        }
    }
}

/// A hash of the pawn structure (both colours' pawns) whose top bits are
/// well mixed: tables keyed by pawn structure take as many as they need.
pub fn pawn_hash(board: &Board) -> u64 {
    let white = board.colored_pieces(Color::White, Piece::Pawn).0;
    let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
    let key = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    key.rotate_left(23).wrapping_mul(0xFF51_AFD7_ED55_8CCD)
}

/// The entry of `board`'s side to move and pawn structure.
fn index(board: &Board) -> usize {
    board.side_to_move() as usize * SIZE + (pawn_hash(board) >> 50) as usize
}

/// Multipliers that spread the bits of up to five piece sets over a key.
const MIX: [u64; 5] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
    0x27D4_EB2F_1656_67C5,
];

/// The entry of `board`'s side to move and a hash of the given piece sets.
fn placement_index(board: &Board, sets: impl Iterator<Item = u64>) -> usize {
    let key = sets
        .zip(MIX)
        .fold(0u64, |k, (set, m)| k ^ set.wrapping_mul(m));
    let slot = (key.rotate_left(29).wrapping_mul(0xFF51_AFD7_ED55_8CCD) >> 50) as usize;
    board.side_to_move() as usize * SIZE + slot
}

/// The entry of `board`'s side to move and the placement of `color`'s
/// knights, bishops, rooks, queens and king.
fn nonpawn_index(board: &Board, color: Color) -> usize {
    let pieces = [
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];
    placement_index(
        board,
        pieces.iter().map(|&p| board.colored_pieces(color, p).0),
    )
}

impl CorrectionHistory {
    /// `raw` (the static evaluation) plus the learned correction.
    pub fn correct(&self, board: &Board, raw: Score) -> Score {
        // The clamp below would turn a missing evaluation into a real one.
        debug_assert!(
            raw.abs() < MATE_BOUND,
            "correcting {raw}, not a static evaluation"
        );
        let pawn = self.table[index(board)];
        let nonpawn_pct = correction_nonpawn_pct();
        // Off, the non-pawn tables cost this one constant test.
        let c = if nonpawn_pct == 0 {
            pawn / GRAIN
        } else {
            let nonpawn = self.nonpawn[0][nonpawn_index(board, Color::White)]
                + self.nonpawn[1][nonpawn_index(board, Color::Black)];
            let sum = pawn * 100 + nonpawn * nonpawn_pct;
            let max = correction_sum_max_cp();
            (sum / (GRAIN * 100)).clamp(-max, max)
        };
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Folds in a search result `best` that proved `raw` wrong at `depth`.
    pub fn update(&mut self, board: &Board, depth: i32, raw: Score, best: Score) {
        debug_assert!(
            raw.abs() < MATE_BOUND && best.abs() < MATE_BOUND,
            "correction learns from eval {raw} and score {best}: both must be plain scores"
        );
        let max = correction_max_cp() * GRAIN;
        let sample = ((best - raw) * GRAIN).clamp(-max, max);
        let w = (depth + 1).min(correction_max_weight());
        let fold = |e: &mut i32| *e = ((*e * (256 - w) + sample * w) / 256).clamp(-max, max);
        fold(&mut self.table[index(board)]);
        if correction_nonpawn_pct() != 0 {
            fold(&mut self.nonpawn[0][nonpawn_index(board, Color::White)]);
            fold(&mut self.nonpawn[1][nonpawn_index(board, Color::Black)]);
        }
    }
}

#[cfg(test)]
#[path = "correction_tests.rs"]
mod tests;
