//! python-chess's legal move order, so that order-dependent counts (alpha-beta
//! nodes) can be compared with the published python-chess numbers.
//!
//! python-chess scans squares from h8 down to a1. Out of check it yields piece
//! moves (by origin, then target), castling, pawn captures, single pushes,
//! double pushes, en passant; promotions as queen, rook, bishop, knight. In
//! check it yields king moves first, then the other moves in that order.

use cutoff_engine::board::{Board, Move, Piece};

/// Sorts legal moves of `board` into python-chess's order.
pub fn sort(board: &Board, moves: &mut [Move]) {
    let in_check = !board.checkers().is_empty();
    moves.sort_by_key(|&mv| key(board, mv, in_check));
}

fn key(board: &Board, mv: Move, in_check: bool) -> (u8, u8, u8, u8) {
    let from = 63 - mv.from as u8;
    let to = 63 - mv.to as u8;
    let piece = board.piece_on(mv.from);
    let ours = board.colors(board.side_to_move());
    let castle = piece == Some(Piece::King) && ours.has(mv.to);
    // In check python-chess puts king steps before everything else.
    let group = if in_check && piece == Some(Piece::King) && !castle {
        0
    } else {
        1
    };
    let kind = match piece {
        Some(Piece::Pawn) => pawn_kind(board, mv),
        _ if castle => 1,
        _ => 0,
    };
    let promo = match mv.promotion {
        Some(Piece::Queen) | None => 0,
        Some(Piece::Rook) => 1,
        Some(Piece::Bishop) => 2,
        Some(_) => 3,
    };
    match kind {
        // Single and double pushes are scanned by target square only.
        3 | 4 => (group, kind, to, promo),
        // Castling is scanned by the rook's square (king takes rook in cozy-chess).
        1 => (group, kind, to, 0),
        _ => (group, kind, from, to * 4 + promo),
    }
}

/// 2 capture, 3 single push, 4 double push, 5 en passant.
fn pawn_kind(board: &Board, mv: Move) -> u8 {
    if mv.from.file() != mv.to.file() {
        if board.occupied().has(mv.to) { 2 } else { 5 }
    } else if (mv.from as u8).abs_diff(mv.to as u8) == 16 {
        4
    } else {
        3
    }
}
