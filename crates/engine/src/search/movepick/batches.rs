//! The generator's batches, kept on the stack.

use crate::board::{BitBoard, Piece, Square};
use cozy_chess::PieceMoves;

/// The generator's batches of moves (a piece and its destinations) in its
/// order: at most 18 in a legal position (16 pieces and two en passant
/// captures), kept on the stack; any beyond go to a vector.
pub(super) struct Batches {
    fixed: [PieceMoves; Batches::FIXED],
    len: usize,
    more: Vec<PieceMoves>,
}

impl Batches {
    const FIXED: usize = 18;

    pub(super) fn new() -> Self {
        let empty = PieceMoves {
            piece: Piece::Pawn,
            from: Square::A1,
            to: BitBoard::EMPTY,
        };
        Self {
            fixed: [empty; Self::FIXED],
            len: 0,
            more: Vec::new(),
        }
    }

    /// Stores a batch; false, so that the generator goes on.
    pub(super) fn push(&mut self, pm: PieceMoves) -> bool {
        if self.len < Self::FIXED {
            self.fixed[self.len] = pm;
            self.len += 1;
        } else {
            self.more.push(pm);
        }
        false
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = PieceMoves> + '_ {
        self.fixed[..self.len].iter().chain(&self.more).copied()
    }
}
