//! Standard algebraic notation (SAN) to moves, matched against the legal
//! moves of the board, so anything illegal or ambiguous is an error.

use cutoff_engine::board::moves::legal_moves;
use cutoff_engine::board::{Board, File, Move, Piece, Rank, Square};

/// Parses one SAN move (`e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O-O`, `R1xa3#`).
pub fn parse(board: &Board, san: &str) -> Result<Move, String> {
    let bad = || format!("illegal or unreadable move '{san}'");
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let castle = match text {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return castling(board, short).ok_or_else(bad);
    }
    let (piece, rest) = match text.chars().next().and_then(piece_of) {
        Some(p) => (p, &text[1..]),
        None => (Piece::Pawn, text),
    };
    let (rest, promotion) = split_promotion(rest);
    let rest: String = rest.chars().filter(|&c| c != 'x' && c != '-').collect();
    if rest.len() < 2 || !rest.is_ascii() {
        return Err(bad());
    }
    let (hint, dest) = rest.split_at(rest.len() - 2);
    let to: Square = dest.parse().map_err(|_| bad())?;
    let mut hint_file = None;
    let mut hint_rank = None;
    for c in hint.chars() {
        match c {
            'a'..='h' => hint_file = Some(File::index(c as usize - 'a' as usize)),
            '1'..='8' => hint_rank = Some(Rank::index(c as usize - '1' as usize)),
            _ => return Err(bad()),
        }
    }
    let own = board.colors(board.side_to_move());
    let mut found = legal_moves(board).into_iter().filter(|mv| {
        mv.to == to
            && !own.has(mv.to) // castling: king onto its own rook
            && board.piece_on(mv.from) == Some(piece)
            && mv.promotion == promotion
            && hint_file.is_none_or(|f| mv.from.file() == f)
            && hint_rank.is_none_or(|r| mv.from.rank() == r)
    });
    match (found.next(), found.next()) {
        (Some(mv), None) => Ok(mv),
        (Some(_), Some(_)) => Err(format!("ambiguous move '{san}'")),
        _ => Err(bad()),
    }
}

fn piece_of(c: char) -> Option<Piece> {
    match c {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

/// `e8=Q` or `e8Q`: the squares part and the promotion piece.
fn split_promotion(text: &str) -> (&str, Option<Piece>) {
    let trimmed = text.strip_suffix(|c: char| "NBRQ".contains(c));
    match trimmed {
        Some(head) => {
            let piece = text.chars().last().and_then(piece_of);
            (head.strip_suffix('=').unwrap_or(head), piece)
        }
        None => (text, None),
    }
}

/// The castling move (king takes own rook in cozy-chess), if legal.
fn castling(board: &Board, short: bool) -> Option<Move> {
    let stm = board.side_to_move();
    let rights = board.castle_rights(stm);
    let file = if short { rights.short } else { rights.long }?;
    let king = board.king(stm);
    let mv = Move {
        from: king,
        to: Square::new(file, king.rank()),
        promotion: None,
    };
    board.is_legal(mv).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(fen: &str, san: &str) -> Result<String, String> {
        let board: Board = fen.parse().unwrap();
        parse(&board, san).map(|m| m.to_string())
    }

    #[test]
    fn reads_every_kind_of_move() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(uci(start, "e4").unwrap(), "e2e4");
        assert_eq!(uci(start, "Nf3").unwrap(), "g1f3");
        assert_eq!(uci(start, "Ng1-f3").unwrap(), "g1f3");
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(uci(kiwi, "O-O").unwrap(), "e1h1");
        assert_eq!(uci(kiwi, "O-O-O").unwrap(), "e1a1");
        assert_eq!(uci(kiwi, "Qxf6").unwrap(), "f3f6");
        assert_eq!(uci(kiwi, "dxe6").unwrap(), "d5e6");
        assert_eq!(uci(kiwi, "gxh3").unwrap(), "g2h3");
        let promo = "8/1P5k/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(uci(promo, "b8=Q+").unwrap(), "b7b8q");
        assert_eq!(uci(promo, "b8N").unwrap(), "b7b8n");
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(uci(ep, "exd6").unwrap(), "e5d6");
        let rooks = "4k3/8/8/8/8/R7/8/R3K3 w - - 0 1";
        assert_eq!(uci(rooks, "R1a2").unwrap(), "a1a2");
        assert!(uci(rooks, "Ra2").unwrap_err().contains("ambiguous"));
    }

    #[test]
    fn refuses_illegal_and_garbage() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for bad in ["e5", "O-O", "Ke2", "", "x", "Nz9", "e8=Q", "ñ4", "Qd1d1"] {
            assert!(uci(start, bad).is_err(), "{bad}");
        }
    }
}
