//! The 32-byte position records of generation 0 (datagen wrote them before
//! it wrote whole games, [`super::GameRecord`]); the trainer still reads
//! them, and packs the positions of game files this way in memory
//! ([`super::positions`]). A file
//! is a flat sequence of records, no header. All integers little-endian.
//!
//! | bytes  | field                                                              |
//! |--------|--------------------------------------------------------------------|
//! | 0..8   | occupancy bitboard (bit 0 = a1, bit 63 = h8)                        |
//! | 8..24  | one nibble per occupied square, in bit order, low nibble first:     |
//! |        | `colour << 3 | piece` (colour 0 White, 1 Black; piece 0 pawn .. 5 king) |
//! | 24..26 | search score, i16 centipawns, **from White's point of view**        |
//! | 26     | game result from White's view: 0 Black won, 1 draw, 2 White won     |
//! | 27     | side to move: 0 White, 1 Black                                      |
//! | 28     | castling rights: bit 0 White short, 1 White long, 2 Black short, 3 Black long |
//! | 29     | en passant file 0..7, or 8 for none                                 |
//! | 30     | halfmove clock                                                      |
//! | 31     | fullmove number, saturated at 255                                   |
//!
//! Only standard chess (castling with the a- and h-rooks) is recorded.

use super::pack::{PIECE_BYTES, pack_pieces};
use cutoff_engine::board::{Board, Color, Piece, Square, fen};

pub const RECORD_SIZE: usize = 32;

/// One record, kept packed until it is needed.
pub type Packed = [u8; RECORD_SIZE];

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Record {
    pub board: Board,
    /// Search score in centipawns, White's point of view.
    pub score: i16,
    /// Result from White's view: 0.0, 0.5 or 1.0.
    pub result: f32,
}

/// Packs a position with its score (White's view) and result (0, 1, 2).
pub fn encode(board: &Board, score: i16, result: u8) -> [u8; RECORD_SIZE] {
    let mut out = [0u8; RECORD_SIZE];
    out[..PIECE_BYTES].copy_from_slice(&pack_pieces(board));
    out[24..26].copy_from_slice(&score.to_le_bytes());
    out[26] = result;
    out[27] = board.side_to_move() as u8;
    let mut castling = 0;
    for (i, c) in Color::ALL.into_iter().enumerate() {
        let rights = board.castle_rights(c);
        castling |= (rights.short.is_some() as u8) << (2 * i);
        castling |= (rights.long.is_some() as u8) << (2 * i + 1);
    }
    out[28] = castling;
    out[29] = board.en_passant().map_or(8, |f| f as u8);
    out[30] = board.halfmove_clock();
    out[31] = board.fullmove_number().min(255) as u8;
    out
}

/// A record's pieces and labels, read without building a board (the
/// trainer's fast path).
#[derive(Clone, Debug)]
pub struct Unpacked {
    /// (square, colour, piece) of each piece in square order: colour 0
    /// White, 1 Black; piece 0 pawn .. 5 king.
    pub pieces: [(usize, usize, usize); 32],
    pub count: usize,
    /// Side to move: 0 White, 1 Black.
    pub stm: usize,
    /// Search score in centipawns, White's point of view.
    pub score: i16,
    /// Result from White's view: 0 Black won, 1 draw, 2 White won.
    pub result: u8,
}

/// The number of pieces on a record's board (its occupancy's population;
/// more than 32 only in a damaged record, which `unpack` refuses).
pub fn piece_count(rec: &Packed) -> usize {
    u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes")).count_ones() as usize
}

/// Reads a record's pieces and labels; an error for a field out of range.
pub fn unpack(rec: &Packed) -> Result<Unpacked, String> {
    let occ = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        return Err("more than 32 pieces".into());
    }
    let stm = rec[27] as usize;
    if stm > 1 {
        return Err(format!("bad side to move {stm}"));
    }
    let mut pieces = [(0usize, 0usize, 0usize); 32];
    let mut bits = occ;
    let mut n = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let nibble = (rec[8 + n / 2] >> (4 * (n % 2))) & 15;
        let (color, piece) = ((nibble >> 3) as usize, (nibble & 7) as usize);
        if piece > 5 {
            return Err(format!("bad piece code {nibble}"));
        }
        pieces[n] = (sq, color, piece);
        n += 1;
    }
    let result = rec[26];
    if result > 2 {
        return Err(format!("bad result code {result}"));
    }
    Ok(Unpacked {
        pieces,
        count: n,
        stm,
        score: i16::from_le_bytes([rec[24], rec[25]]),
        result,
    })
}

/// Unpacks one record, with a clear error for bytes that are no position.
pub fn decode(bytes: &[u8]) -> Result<Record, String> {
    if bytes.len() != RECORD_SIZE {
        return Err(format!(
            "record has {} bytes, expected {RECORD_SIZE}",
            bytes.len()
        ));
    }
    let occ = u64::from_le_bytes(bytes[0..8].try_into().map_err(|_| "short record")?);
    if occ.count_ones() > 32 {
        return Err(format!(
            "record has {} pieces, at most 32 fit",
            occ.count_ones()
        ));
    }
    let mut squares = [None; 64];
    let mut n = 0;
    let mut bits = occ;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let nibble = (bytes[8 + n / 2] >> (4 * (n % 2))) & 15;
        let piece = nibble & 7;
        if piece > 5 {
            return Err(format!("bad piece code {nibble} in record"));
        }
        squares[sq] = Some((
            Piece::ALL[piece as usize],
            Color::ALL[(nibble >> 3) as usize],
        ));
        n += 1;
    }
    let text = to_fen(&squares, bytes)?;
    let board = fen::parse_fen(&text).map_err(|e| format!("record is no legal position: {e}"))?;
    let result = match bytes[26] {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        r => return Err(format!("bad result code {r} in record")),
    };
    Ok(Record {
        board,
        score: i16::from_le_bytes([bytes[24], bytes[25]]),
        result,
    })
}

fn to_fen(squares: &[Option<(Piece, Color)>; 64], bytes: &[u8]) -> Result<String, String> {
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None => empty += 1,
                Some((p, c)) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let ch: char = p.into();
                    placement.push(if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = match bytes[27] {
        0 => "w",
        1 => "b",
        s => return Err(format!("bad side-to-move code {s} in record")),
    };
    let castling: String = ["K", "Q", "k", "q"]
        .iter()
        .enumerate()
        .filter(|(i, _)| bytes[28] & (1 << i) != 0)
        .map(|(_, s)| *s)
        .collect();
    let castling = if castling.is_empty() {
        "-".to_string()
    } else {
        castling
    };
    let ep = match bytes[29] {
        8 => "-".to_string(),
        f @ 0..8 => {
            let rank = if side == "w" { 5 } else { 2 };
            Square::index(rank * 8 + f as usize).to_string()
        }
        f => return Err(format!("bad en passant code {f} in record")),
    };
    Ok(format!(
        "{placement} {side} {castling} {ep} {} {}",
        bytes[30].min(100),
        bytes[31].max(1)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/4k3/8/8/4P3/4K3 b - - 12 60",
        ] {
            let board = fen::parse_fen(text).expect("test FEN");
            let rec = decode(&encode(&board, -123, 2)).expect("decodes");
            assert_eq!(format!("{}", rec.board), format!("{board}"));
            assert_eq!(rec.score, -123);
            assert_eq!(rec.result, 1.0);
        }
    }

    #[test]
    fn damaged_records_are_errors() {
        let board = Board::default();
        let mut bytes = encode(&board, 0, 1);
        bytes[26] = 7;
        assert!(decode(&bytes).unwrap_err().contains("result"));
        let mut bytes = encode(&board, 0, 1);
        bytes[0] = 0; // pieces no longer match the occupancy
        assert!(decode(&bytes).is_err());
        assert!(decode(&bytes[..10]).is_err());
    }
}
