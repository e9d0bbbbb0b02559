//! A move's (piece, to-square) pair as one index: what the continuation
//! histories and the continuation correction are keyed by.

use crate::board::{Color, Piece, Square};

/// A (piece, to-square) pair: the index of one continuation-history table.
pub type PieceTo = usize;

pub fn piece_to(color: Color, piece: Piece, to: Square) -> PieceTo {
    ((color as usize * 6 + piece as usize) * 64) + to as usize
}

/// The number of (piece, to-square) pairs.
pub const PIECE_TO: usize = 2 * 6 * 64;
