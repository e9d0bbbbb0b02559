//! The generator's batches, kept on the stack.

use crate::board::{BitBoard, Piece, Square};
use cozy_chess::PieceMoves;

/// The generator's batches of moves (a piece and its destinations) in its
/// order. cozy-chess calls its listener at most 18 times (16 pieces and two
/// en passant captures), so a fixed array holds them all, read back as a
/// plain slice.
pub(super) struct Batches {
    fixed: [PieceMoves; Batches::MAX],
    len: usize,
}

impl Batches {
    const MAX: usize = 18;

    pub(super) fn new() -> Self {
        let empty = PieceMoves {
            piece: Piece::Pawn,
            from: Square::A1,
            to: BitBoard::EMPTY,
        };
        Self {
            fixed: [empty; Self::MAX],
            len: 0,
        }
    }

    /// Stores a batch; false, so that the generator goes on.
    pub(super) fn push(&mut self, pm: PieceMoves) -> bool {
        debug_assert!(self.len < Self::MAX, "more than {} batches", Self::MAX);
        self.fixed[self.len] = pm;
        self.len += 1;
        false
    }

    pub(super) fn as_slice(&self) -> &[PieceMoves] {
        &self.fixed[..self.len]
    }
}
