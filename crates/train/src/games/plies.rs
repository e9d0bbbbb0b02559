//! How a game's plies are stored after its start board, in each version of
//! the game file.
//!
//! - **Version 1**, 4 bytes a ply: the move ([`pack_move`]) and the score
//!   (i16), ended by 4 zero bytes (no move packs to 0).
//! - **Version 2**: the move as its index among the position's legal moves,
//!   ordered by origin square, then destination, then promotion piece
//!   (knight to queen) (a byte: a position has at most 218), then the
//!   score's change from the ply before (from 0 at the first ply) as a
//!   zigzag LEB128 varint (one byte up to 63 cp either way, at most three);
//!   ended by the byte 255, which no index reaches.
//!
//! Both read back to the same [`Ply`]s exactly. The order of the moves is
//! defined here, not by the generator's order, so a generator that lists
//! moves in another order reads the same files.

use cutoff_engine::board::{BitBoard, Board, Move, Piece, Rank, Square};

use super::file::Damage;
use super::pack::{pack_move, unpack_move};

/// A move played and the search score (White's view) that chose it.
pub type Ply = (Move, i16);

/// The byte that ends a version 2 game.
const END_V2: u8 = 255;

/// Appends the plies of a game starting at `start`, ended, in `version`
/// (1 or 2). The moves must be legal, as every [`super::GameRecord`]'s are.
pub fn encode(out: &mut Vec<u8>, start: &Board, plies: &[Ply], version: u8) {
    match version {
        1 => {
            for &(mv, score) in plies {
                out.extend_from_slice(&pack_move(mv).to_le_bytes());
                out.extend_from_slice(&score.to_le_bytes());
            }
            out.extend_from_slice(&[0; 4]);
        }
        2 => {
            let mut board = start.clone();
            let mut last = 0i32;
            for &(mv, score) in plies {
                debug_assert!(board.is_legal(mv), "illegal {mv} in {board}");
                out.push(move_index(&board, mv));
                push_varint(out, zigzag(i32::from(score) - last));
                last = i32::from(score);
                board.play_unchecked(mv);
            }
            out.push(END_V2);
        }
        v => unreachable!("no game file version {v}"),
    }
}

/// Reads the plies of a game that starts at `start`, from byte `at` to its
/// end marker: the plies, each checked legal, and the offset after the end.
pub fn decode(
    bytes: &[u8],
    at: usize,
    start: &Board,
    version: u8,
) -> Result<(Vec<Ply>, usize), Damage> {
    let (cut, bad) = (Damage::cut, Damage::bad);
    let mut board = start.clone();
    let mut plies = Vec::new();
    let mut pos = at;
    let mut last = 0i32;
    loop {
        let (mv, score) = match version {
            1 => {
                let word = bytes.get(pos..pos + 4).ok_or_else(|| cut(pos))?;
                let bits = u16::from_le_bytes([word[0], word[1]]);
                let score = i16::from_le_bytes([word[2], word[3]]);
                pos += 4;
                if bits == 0 {
                    if score != 0 {
                        return Err(bad(pos - 4, "bad game terminator".into()));
                    }
                    break;
                }
                let mv = unpack_move(bits).map_err(|e| bad(pos - 4, e))?;
                if !board.is_legal(mv) {
                    let why = format!("illegal move {mv} at ply {}", plies.len());
                    return Err(bad(pos - 4, why));
                }
                (mv, score)
            }
            _ => {
                let index = *bytes.get(pos).ok_or_else(|| cut(pos))?;
                if index == END_V2 {
                    pos += 1;
                    break;
                }
                let mv = move_at(&board, index).ok_or_else(|| {
                    let why = format!("move index {index} at ply {}: too few moves", plies.len());
                    bad(pos, why)
                })?;
                let (z, next) = read_varint(bytes, pos + 1).map_err(|truncated| {
                    if truncated {
                        cut(pos + 1)
                    } else {
                        bad(pos + 1, "a score change longer than 3 bytes".into())
                    }
                })?;
                let score = i16::try_from(last + unzigzag(z)).map_err(|_| {
                    bad(
                        pos + 1,
                        format!("score beyond 16 bits at ply {}", plies.len()),
                    )
                })?;
                (pos, last) = (next, i32::from(score));
                (mv, score)
            }
        };
        board.play_unchecked(mv);
        plies.push((mv, score));
    }
    Ok((plies, pos))
}

/// The legal moves of the side to move, by origin square: each square's
/// destinations, and which origins' moves are promotions (a pawn's moves
/// from the seventh rank, each a destination times four promotion pieces).
struct Targets {
    from: BitBoard,
    to: [BitBoard; 64],
    promotes: BitBoard,
}

impl Targets {
    fn of(board: &Board) -> Self {
        let mut t = Targets {
            from: BitBoard::EMPTY,
            to: [BitBoard::EMPTY; 64],
            promotes: BitBoard::EMPTY,
        };
        let last_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
        board.generate_moves(|moves| {
            t.from |= moves.from.bitboard();
            t.to[moves.from as usize] |= moves.to;
            if moves.piece == Piece::Pawn && !(moves.to & last_ranks).is_empty() {
                t.promotes |= moves.from.bitboard();
            }
            false
        });
        t
    }

    /// Moves per destination from `from`: 4 promotion pieces, or 1.
    fn per_target(&self, from: Square) -> usize {
        if self.promotes.has(from) { 4 } else { 1 }
    }
}

/// `mv`'s index among `board`'s legal moves, ordered by origin square, then
/// destination, then promotion piece (knight to queen); `mv` is legal.
fn move_index(board: &Board, mv: Move) -> u8 {
    let t = Targets::of(board);
    let mut index = 0;
    for from in t.from {
        let per = t.per_target(from);
        if from == mv.from {
            let lower = BitBoard(mv.to.bitboard().0 - 1);
            let promotion = mv.promotion.map_or(0, |p| p as usize - 1);
            index += (t.to[from as usize] & lower).len() as usize * per + promotion;
            break;
        }
        index += t.to[from as usize].len() as usize * per;
    }
    debug_assert!(index < usize::from(END_V2), "{index} moves");
    index as u8
}

/// The legal move with `index` legal moves before it in [`move_index`]'s
/// order, if there are that many.
fn move_at(board: &Board, index: u8) -> Option<Move> {
    let t = Targets::of(board);
    let mut rest = usize::from(index);
    for from in t.from {
        let per = t.per_target(from);
        let here = t.to[from as usize].len() as usize * per;
        if rest < here {
            let to = t.to[from as usize].iter().nth(rest / per)?;
            let promotion = (per == 4).then(|| Piece::ALL[1 + rest % per]);
            return Some(Move {
                from,
                to,
                promotion,
            });
        }
        rest -= here;
    }
    None
}

fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

fn unzigzag(z: u32) -> i32 {
    (z >> 1) as i32 ^ -((z & 1) as i32)
}

fn push_varint(out: &mut Vec<u8>, mut z: u32) {
    while z >= 0x80 {
        out.push((z & 0x7f) as u8 | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// A varint of at most 3 bytes (a change between two i16 scores needs at
/// most 17 bits) and the offset after it; `Err(true)` if the data ends
/// first, `Err(false)` if it runs longer.
fn read_varint(bytes: &[u8], at: usize) -> Result<(u32, usize), bool> {
    let mut z = 0u32;
    for i in 0..3 {
        let b = *bytes.get(at + i).ok_or(true)?;
        z |= u32::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return Ok((z, at + i + 1));
        }
    }
    Err(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_engine::board::fen::parse_fen;
    use cutoff_engine::board::moves::legal_moves;

    #[test]
    fn varints_round_trip_at_their_edges() {
        for v in [0, 1, -1, 63, -64, 64, -65, 8191, -8192, 8192, 65535, -65535] {
            let mut out = Vec::new();
            push_varint(&mut out, zigzag(v));
            let (z, end) = read_varint(&out, 0).expect("reads");
            assert_eq!((unzigzag(z), end), (v, out.len()), "{v}");
            assert!(out.len() <= 3);
            let expect = if (-64..64).contains(&v) { 1 } else { out.len() };
            assert_eq!(out.len(), expect, "{v} in one byte");
        }
        assert_eq!(read_varint(&[0x80, 0x80], 0), Err(true));
        assert_eq!(read_varint(&[0x80, 0x80, 0x80, 0x01], 0), Err(false));
    }

    #[test]
    fn moves_are_numbered_by_origin_destination_and_promotion() {
        // Promotions, castling and en passant among them; 218 moves.
        for text in [
            "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        ] {
            let board = parse_fen(text).expect("test FEN");
            let mut moves = legal_moves(&board);
            moves.sort_by_key(|m| (m.from, m.to, m.promotion.map(|p| p as usize)));
            for (i, &mv) in moves.iter().enumerate() {
                assert_eq!(usize::from(move_index(&board, mv)), i, "{text}: {mv}");
                assert_eq!(move_at(&board, i as u8), Some(mv), "{text}");
            }
            assert_eq!(move_at(&board, moves.len() as u8), None);
        }
    }

    #[test]
    fn both_versions_read_back_the_same_plies() {
        let start = Board::default();
        let mut board = start.clone();
        let mut plies = Vec::new();
        // Scores that need one, two and three bytes, and a mate score.
        for score in [0, 30, -40, 500, -29_990, 31_000, -32_768, 32_767] {
            let mv = legal_moves(&board)[plies.len() % 3];
            plies.push((mv, score));
            board.play_unchecked(mv);
        }
        for version in [1, 2] {
            let mut bytes = vec![7];
            encode(&mut bytes, &start, &plies, version);
            let (back, end) = decode(&bytes, 1, &start, version).expect("reads");
            assert_eq!(
                (back, end),
                (plies.clone(), bytes.len()),
                "version {version}"
            );
            // Cut anywhere inside, the game is reported as cut off.
            for len in 1..bytes.len() {
                let err = decode(&bytes[..len], 1, &start, version).expect_err("cut");
                assert!(err.truncated, "version {version} cut at {len}");
            }
        }
    }

    #[test]
    fn a_move_index_beyond_the_legal_moves_is_damage() {
        let start = Board::default();
        let bytes = [20u8, 0, END_V2]; // the start position has 20 moves: 0..19
        let err = decode(&bytes, 0, &start, 2).expect_err("refused");
        assert!(
            !err.truncated && err.why.contains("index 20"),
            "{}",
            err.why
        );
    }
}
