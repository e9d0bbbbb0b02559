//! Input features: which of the 768 inputs of each perspective are on.

use super::INPUTS;
use crate::board::moves::moving_piece;
use crate::board::{Board, Color, Move, Piece, Square};

/// Input index of `piece` of `color` on `square`, seen from `perspective`:
/// the perspective's own pieces come first, and Black sees the board flipped
/// vertically, so both sides see "their" position the same way.
#[inline(always)]
pub fn index(perspective: Color, color: Color, piece: Piece, square: Square) -> usize {
    let side = if color == perspective { 0 } else { 384 };
    let sq = if perspective == Color::White {
        square as usize
    } else {
        square as usize ^ 56
    };
    let i = side + piece as usize * 64 + sq;
    debug_assert!(i < INPUTS);
    i
}

/// A piece on a square.
pub type Placed = (Color, Piece, Square);

/// What a move changes: at most two pieces appear and two disappear
/// (castling moves king and rook; a capture removes the captured piece).
#[derive(Clone, Copy, Debug, Default)]
pub struct Change {
    pub added: [Option<Placed>; 2],
    pub removed: [Option<Placed>; 2],
}

impl Change {
    /// The change made by the legal move `mv` on `board` (before it is played).
    pub fn of_move(board: &Board, mv: Move) -> Self {
        let us = board.side_to_move();
        let piece = moving_piece(board, mv);
        let rank = mv.from.rank();
        if piece == Piece::King && board.colors(us).has(mv.to) {
            // cozy-chess writes castling as king takes own rook.
            let short = mv.to.file() > mv.from.file();
            let (king_file, rook_file) = if short {
                (crate::board::File::G, crate::board::File::F)
            } else {
                (crate::board::File::C, crate::board::File::D)
            };
            return Self {
                added: [
                    Some((us, Piece::King, Square::new(king_file, rank))),
                    Some((us, Piece::Rook, Square::new(rook_file, rank))),
                ],
                removed: [
                    Some((us, Piece::King, mv.from)),
                    Some((us, Piece::Rook, mv.to)),
                ],
            };
        }
        let captured = match board.piece_on(mv.to) {
            Some(p) => {
                debug_assert!(
                    board.colors(!us).has(mv.to),
                    "{mv} captures its own piece in {board}"
                );
                Some((!us, p, mv.to))
            }
            None if piece == Piece::Pawn && mv.from.file() != mv.to.file() => {
                let victim = Square::new(mv.to.file(), rank);
                debug_assert!(
                    board.colored_pieces(!us, Piece::Pawn).has(victim),
                    "en passant {mv} without a pawn to take in {board}"
                );
                Some((!us, Piece::Pawn, victim))
            }
            None => None,
        };
        Self {
            added: [Some((us, mv.promotion.unwrap_or(piece), mv.to)), None],
            removed: [Some((us, piece, mv.from)), captured],
        }
    }
}

/// Every piece on the board.
pub fn placed(board: &Board) -> impl Iterator<Item = Placed> + '_ {
    board
        .occupied()
        .iter()
        .filter_map(move |sq| Some((board.color_on(sq)?, board.piece_on(sq)?, sq)))
}
