//! The generator's batches, kept on the stack.

use crate::board::{BitBoard, Piece, Square};
use cozy_chess::PieceMoves;

/// The generator's batches of moves (a piece and its destinations) in its
/// order. cozy-chess calls its listener at most 18 times (16 pieces and two
/// en passant captures), so fixed arrays hold them all. The pieces and the
/// destinations are kept apart: `PieceMoves` has padding, so an array of
/// them is emptied field by field at every node, while these two arrays
/// are a few wide stores of zeros.
pub(super) struct Batches {
    origins: [(Piece, Square); Batches::MAX],
    targets: [BitBoard; Batches::MAX],
    len: usize,
}

impl Batches {
    const MAX: usize = 18;

    pub(super) fn new() -> Self {
        Self {
            origins: [(Piece::Pawn, Square::A1); Self::MAX],
            targets: [BitBoard::EMPTY; Self::MAX],
            len: 0,
        }
    }

    /// Stores a batch; false, so that the generator goes on.
    pub(super) fn push(&mut self, pm: PieceMoves) -> bool {
        debug_assert!(self.len < Self::MAX, "more than {} batches", Self::MAX);
        self.origins[self.len] = (pm.piece, pm.from);
        self.targets[self.len] = pm.to;
        self.len += 1;
        false
    }

    /// The batches, in the generator's order.
    pub(super) fn iter(&self) -> impl Iterator<Item = PieceMoves> + '_ {
        let len = self.len.min(Self::MAX);
        self.origins[..len]
            .iter()
            .zip(&self.targets[..len])
            .map(|(&(piece, from), &to)| PieceMoves { piece, from, to })
    }
}
