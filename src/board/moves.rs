//! Move helpers: UCI notation (standard and Chess960 castling), move lists,
//! and classification (captures, victims).

use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{Board, Move, Piece};

/// All legal moves of a board, in the generator's order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut out = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        out.extend(pm);
        false
    });
    out
}

/// Parses a UCI move and checks it is legal. Standard castling is written as
/// the king's two-square move (e1g1); in Chess960 mode as king takes rook (e1h1).
pub fn parse_uci(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(format!("cannot parse move '{text}'"));
    }
    let mv = if chess960 {
        text.parse::<Move>().map_err(|_| ())
    } else {
        parse_uci_move(board, text).map_err(|_| ())
    }
    .map_err(|_| format!("cannot parse move '{text}'"))?;
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("illegal move '{text}' in {board}"))
    }
}

/// Formats a move in UCI notation (see [`parse_uci`] for castling).
pub fn format_uci(board: &Board, mv: Move, chess960: bool) -> String {
    if chess960 {
        mv.to_string()
    } else {
        display_uci_move(board, mv).to_string()
    }
}

/// True for captures, en passant included. Castling (king onto own rook) is not.
pub fn is_capture(board: &Board, mv: Move) -> bool {
    captured(board, mv).is_some()
}

/// The piece a move captures, if any.
pub fn captured(board: &Board, mv: Move) -> Option<Piece> {
    let them = board.colors(!board.side_to_move());
    if them.has(mv.to) {
        return board.piece_on(mv.to);
    }
    let is_ep = board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && !board.occupied().has(mv.to);
    is_ep.then_some(Piece::Pawn)
}

/// Makes a move on a copy and reports whether it gives check.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let mut b = board.clone();
    b.play_unchecked(mv);
    !b.checkers().is_empty()
}
