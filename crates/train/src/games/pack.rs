//! The 32-byte start board and the 16-bit move of a game record.

use cozy_chess::{BoardBuilder, CastleRights};

use cutoff_engine::board::{Board, Color, File, Move, Piece, Square};

/// Bytes of a packed start board (with the game's result).
pub const BOARD_BYTES: usize = 32;

/// No castling rook, in a castling nibble.
const NO_ROOK: u8 = 8;
/// No en passant square.
const NO_EP: u8 = 64;

/// Bytes of the packed pieces: the occupancy, then a nibble per piece.
pub const PIECE_BYTES: usize = 24;

/// The occupancy bitboard (little-endian, bit 0 = a1), then one nibble per
/// occupied square in bit order, low nibble first: `colour << 3 | piece`
/// (colour 0 White; piece 0 pawn .. 5 king). The 32-byte records of
/// generation 0 start the same way.
pub fn pack_pieces(board: &Board) -> [u8; PIECE_BYTES] {
    let mut out = [0u8; PIECE_BYTES];
    let occ = board.occupied();
    out[0..8].copy_from_slice(&occ.0.to_le_bytes());
    for (n, sq) in occ.iter().enumerate() {
        let piece = board.piece_on(sq).map_or(0, |p| p as u8);
        let colour = board.color_on(sq).map_or(0, |c| c as u8);
        out[8 + n / 2] |= ((colour << 3) | piece) << (4 * (n % 2));
    }
    out
}

/// Packs `board` and the game's `result` (0 Black won, 1 draw, 2 White won).
pub fn pack_board(board: &Board, result: u8) -> [u8; BOARD_BYTES] {
    let mut out = [0u8; BOARD_BYTES];
    out[..PIECE_BYTES].copy_from_slice(&pack_pieces(board));
    let builder = BoardBuilder::from_board(board);
    out[24] = board.side_to_move() as u8;
    out[25] = builder.en_passant.map_or(NO_EP, |sq| sq as u8);
    out[26] = board.halfmove_clock();
    out[27..29].copy_from_slice(&board.fullmove_number().to_le_bytes());
    for (i, colour) in Color::ALL.into_iter().enumerate() {
        let rights = board.castle_rights(colour);
        let file = |f: Option<File>| f.map_or(NO_ROOK, |f| f as u8);
        out[29 + i] = file(rights.short) | (file(rights.long) << 4);
    }
    out[31] = result;
    out
}

/// Unpacks a start board and the game's result; the text says what is wrong.
pub fn unpack_board(bytes: &[u8; BOARD_BYTES]) -> Result<(Board, u8), String> {
    let occ = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        return Err(format!("{} pieces, at most 32 fit", occ.count_ones()));
    }
    let mut builder = BoardBuilder::empty();
    let mut bits = occ;
    let mut n = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let nibble = (bytes[8 + n / 2] >> (4 * (n % 2))) & 15;
        let piece = *Piece::ALL
            .get(usize::from(nibble & 7))
            .ok_or_else(|| format!("bad piece code {nibble}"))?;
        builder.board[sq] = Some((piece, Color::ALL[usize::from(nibble >> 3)]));
        n += 1;
    }
    builder.side_to_move = match bytes[24] {
        0 => Color::White,
        1 => Color::Black,
        s => return Err(format!("bad side to move {s}")),
    };
    builder.en_passant = match bytes[25] {
        NO_EP => None,
        sq @ 0..NO_EP => Some(Square::index(usize::from(sq))),
        sq => return Err(format!("bad en passant square {sq}")),
    };
    builder.halfmove_clock = bytes[26];
    builder.fullmove_number = u16::from_le_bytes([bytes[27], bytes[28]]);
    for (i, rights) in builder.castle_rights.iter_mut().enumerate() {
        *rights = castle_rights(bytes[29 + i])?;
    }
    let result = bytes[31];
    if result > 2 {
        return Err(format!("bad result code {result}"));
    }
    let board = builder
        .build()
        .map_err(|e| format!("not a legal position: {e:?}"))?;
    Ok((board, result))
}

fn castle_rights(byte: u8) -> Result<CastleRights, String> {
    let file = |nibble: u8| match nibble {
        NO_ROOK => Ok(None),
        f @ 0..NO_ROOK => Ok(Some(File::index(usize::from(f)))),
        f => Err(format!("bad castling rook file {f}")),
    };
    Ok(CastleRights {
        short: file(byte & 15)?,
        long: file(byte >> 4)?,
    })
}

/// Packs a move: from (bits 0-5), to (6-11), promotion (12-14: 0 none,
/// 1 knight .. 4 queen). Castling is king takes rook, as cozy-chess writes
/// it, so Chess960 castling needs nothing more. No move packs to 0.
pub fn pack_move(mv: Move) -> u16 {
    let promo = mv.promotion.map_or(0, |p| p as u16);
    mv.from as u16 | (mv.to as u16) << 6 | promo << 12
}

/// Unpacks a move (not checked for legality here).
pub fn unpack_move(bits: u16) -> Result<Move, String> {
    let promotion = match bits >> 12 {
        0 => None,
        p @ 1..=4 => Some(Piece::ALL[usize::from(p)]),
        p => return Err(format!("bad promotion code {p}")),
    };
    Ok(Move {
        from: Square::index(usize::from(bits & 63)),
        to: Square::index(usize::from((bits >> 6) & 63)),
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_engine::board::fen::parse_fen;

    #[test]
    fn boards_round_trip_with_chess960_rights() {
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/8/8/4k3/8/8/4P3/4K3 b - - 12 300",
        ] {
            let board = parse_fen(text).expect("test FEN");
            let (back, result) = unpack_board(&pack_board(&board, 2)).expect("unpacks");
            assert_eq!(back, board, "{text}");
            assert_eq!(result, 2);
        }
    }

    #[test]
    fn moves_round_trip() {
        let board = parse_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("FEN");
        let moves = cutoff_engine::board::moves::legal_moves(&board);
        assert!(moves.iter().any(|m| m.promotion == Some(Piece::Knight)));
        for mv in moves {
            assert_ne!(pack_move(mv), 0);
            assert_eq!(unpack_move(pack_move(mv)).expect("unpacks"), mv);
        }
    }

    #[test]
    fn damaged_boards_are_errors() {
        let good = pack_board(&Board::default(), 1);
        let mut bad = good;
        bad[31] = 3;
        assert!(unpack_board(&bad).unwrap_err().contains("result"));
        let mut bad = good;
        bad[8] = 0x77; // piece code 7
        assert!(unpack_board(&bad).unwrap_err().contains("piece"));
        let mut bad = good;
        bad[0] = 0; // pieces no longer match: the white king moves
        assert!(unpack_board(&bad).is_err());
    }
}
