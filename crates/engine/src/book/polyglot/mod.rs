//! The Polyglot book format: the position key, the 16-byte entries and
//! their move encoding.

pub mod file;

use crate::board::{Board, Color, File, Move, Piece, Square, en_passant_takers};

/// The format's 781 public random numbers (big-endian u64s): 768 for a
/// piece on a square, 4 for castling rights, 8 for the en passant file,
/// 1 for white to move. Taken from python-chess's `POLYGLOT_RANDOM_ARRAY`.
const RANDOM_BYTES: &[u8; 781 * 8] = include_bytes!("random.bin");

const fn random(index: usize) -> u64 {
    let mut bytes = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        bytes[i] = RANDOM_BYTES[index * 8 + i];
        i += 1;
    }
    u64::from_be_bytes(bytes)
}

const CASTLE: usize = 768;
const EN_PASSANT: usize = 772;
const TURN: usize = 780;

/// The Polyglot key of a position (not cozy-chess's own Zobrist key).
pub fn key(board: &Board) -> u64 {
    let mut key = 0;
    for color in [Color::Black, Color::White] {
        for piece in Piece::ALL {
            // Polyglot's piece order: black pawn, white pawn, black knight, ...
            let kind = 2 * piece as usize + usize::from(color == Color::White);
            for sq in board.colored_pieces(color, piece) {
                key ^= random(64 * kind + sq as usize);
            }
        }
    }
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let rights = board.castle_rights(color);
        if rights.short.is_some() {
            key ^= random(CASTLE + 2 * i);
        }
        if rights.long.is_some() {
            key ^= random(CASTLE + 2 * i + 1);
        }
    }
    if let Some(file) = en_passant_file(board) {
        key ^= random(EN_PASSANT + file as usize);
    }
    if board.side_to_move() == Color::White {
        key ^= random(TURN);
    }
    key
}

/// The en passant file counts only when a pawn of the side to move stands
/// beside the pawn that just moved (legality aside), as the format says.
fn en_passant_file(board: &Board) -> Option<File> {
    en_passant_takers(board).map(|(target, _)| target.file())
}

/// One book entry: a move of the position with `key` and its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

pub const ENTRY_BYTES: usize = 16;

impl Entry {
    pub fn from_bytes(b: &[u8; ENTRY_BYTES]) -> Self {
        let u64_at = |i: usize| u64::from_be_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        Self {
            key: u64_at(0),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }

    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut b = [0u8; ENTRY_BYTES];
        b[..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..].copy_from_slice(&self.learn.to_be_bytes());
        b
    }
}

const PROMOTIONS: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

/// Encodes a move: to (bits 0-5), from (6-11), promotion (12-14). Castling
/// is king takes rook in both Polyglot and cozy-chess.
pub fn encode_move(mv: Move) -> u16 {
    let promo = mv
        .promotion
        .and_then(|p| PROMOTIONS.iter().position(|&q| q == p))
        .map_or(0, |i| i as u16 + 1);
    mv.to as u16 | ((mv.from as u16) << 6) | (promo << 12)
}

/// Decodes an entry's move for `board`: `None` unless it is legal there (a
/// book may hold entries of colliding keys, or be corrupt).
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let to = Square::index((raw & 63) as usize);
    let from = Square::index(((raw >> 6) & 63) as usize);
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        p => Some(*PROMOTIONS.get(p as usize - 1)?),
    };
    let mv = Move {
        from,
        to,
        promotion,
    };
    board.is_legal(mv).then_some(mv)
}

/// The legal moves of `board` in `entries` (all of the same key), with
/// their weights, highest first; ties keep the book's order.
pub fn ranked(board: &Board, entries: &[Entry]) -> Vec<(Move, u16)> {
    let mut out: Vec<(Move, u16)> = entries
        .iter()
        .filter_map(|e| Some((decode_move(board, e.raw_move)?, e.weight)))
        .collect();
    out.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves;

    fn key_of(fen: &str) -> u64 {
        key(&fen.parse::<Board>().unwrap())
    }

    /// The keys listed in the Polyglot format's description.
    #[test]
    fn keys_match_the_format_description() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b96181691fc9c,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c9b50fd114196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756b94461c50fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662fafb965db29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a48b5a8e47ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a607ca3f242c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fdd303c946bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c8123ea7b067637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f9b829b279560,
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(key_of(fen), expected, "{fen}");
        }
    }

    #[test]
    fn moves_round_trip_through_the_encoding() {
        let board: Board = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        for mv in moves::legal_moves(&board) {
            assert_eq!(decode_move(&board, encode_move(mv)), Some(mv));
        }
        // e1h1 is castling in both encodings; a square off the board is not.
        assert_eq!(encode_move("e1h1".parse().unwrap()), (4 << 6) | 7);
        assert_eq!(decode_move(&board, 0x7fff), None);
    }
}
