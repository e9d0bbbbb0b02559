//! Endgame knowledge: scaling down drawish material (no pawns and at most a
//! minor piece ahead, opposite-coloured bishops) and driving a lone king to
//! the edge, or for KBN v K to a corner of the bishop's colour.

use super::bits::distance;
use crate::board::{BitBoard, Board, Color, Piece, Square};

/// The endgame weight is multiplied by `scale / SCALE_NORMAL`.
pub const SCALE_NORMAL: i32 = 128;

/// Non-pawn material in pawn units (N = B = 3, R = 5, Q = 9).
fn npm(board: &Board, c: Color) -> i32 {
    let n = |p| board.colored_pieces(c, p).len() as i32;
    3 * (n(Piece::Knight) + n(Piece::Bishop)) + 5 * n(Piece::Rook) + 9 * n(Piece::Queen)
}

/// Scale factor for the endgame part, given the sign of the endgame score.
pub fn scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let (s_npm, w_npm) = (npm(board, strong), npm(board, weak));
    if board.colored_pieces(strong, Piece::Pawn).is_empty() {
        if s_npm <= 3 {
            return 0; // a lone minor piece (or less) cannot mate
        }
        let knights = board.colored_pieces(strong, Piece::Knight).len();
        if s_npm == 6 && knights == 2 && w_npm == 0 {
            return if board.colored_pieces(weak, Piece::Pawn).is_empty() {
                0
            } else {
                32
            };
        }
        if s_npm - w_npm <= 3 {
            return 16; // e.g. KR v KB, KR v KR: a minor piece edge is no win
        }
    }
    if opposite_bishops(board) {
        return if s_npm == 3 && w_npm == 3 { 48 } else { 96 };
    }
    SCALE_NORMAL
}

/// Each side has exactly one bishop, on squares of different colours.
fn opposite_bishops(board: &Board) -> bool {
    let w = board.colored_pieces(Color::White, Piece::Bishop);
    let b = board.colored_pieces(Color::Black, Piece::Bishop);
    w.len() == 1 && b.len() == 1 && {
        let light = BitBoard::LIGHT_SQUARES;
        (w & light).is_empty() != (b & light).is_empty()
    }
}

/// Bonus (White's view) for driving a bare king to the edge, or in KBN v K
/// to a corner the bishop controls; 0 in every other position.
pub fn mop_up(board: &Board) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if board.colors(weak) != board.colored_pieces(weak, Piece::King) {
            continue;
        }
        let s_npm = npm(board, strong);
        let bishops = board.colored_pieces(strong, Piece::Bishop);
        let knights = board.colored_pieces(strong, Piece::Knight);
        if s_npm < 5 || (s_npm == 6 && knights.len() == 2) {
            continue; // no mate to force (KNN v K included)
        }
        let (wk, sk) = (board.king(weak), board.king(strong));
        let kbnk = s_npm == 6 && bishops.len() == 1 && knights.len() == 1;
        let edge = if kbnk {
            10 * (7 - corner_distance(wk, bishops))
        } else {
            10 * centre_distance(wk)
        };
        let bonus = edge + 4 * (7 - distance(wk, sk));
        return if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    }
    0
}

/// Manhattan distance from the four centre squares (0 .. 6).
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2
}

/// King distance to the nearer corner of the bishop's square colour.
fn corner_distance(sq: Square, bishops: BitBoard) -> i32 {
    let light = !(bishops & BitBoard::LIGHT_SQUARES).is_empty();
    let corners = if light {
        [Square::A8, Square::H1]
    } else {
        [Square::A1, Square::H8]
    };
    corners.iter().map(|&c| distance(sq, c)).min().unwrap_or(0)
}
