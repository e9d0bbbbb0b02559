//! Pawn structure: doubled, isolated, backward, connected (supported),
//! phalanx and passed pawns. These depend on the pawns alone, so their score
//! is cached in a [`PawnTable`] keyed by the two pawn bitboards.

use super::bits::{
    FILE_A, FILE_H, adjacent_files, bb, file_mask, fill_forward, front_span, pawn_attacks, push,
    relative_rank, squares,
};
use super::params::{BACKWARD, CONNECTED, DOUBLED, ISOLATED, PASSED, PASSED_PROTECTED, PHALANX};
use super::sink::{ScoreSink, Sink};
use crate::board::{Board, Color, Piece};

/// What later terms need from the pawn structure, by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnInfo {
    /// Passed pawns.
    pub passed: [u64; 2],
    /// Squares each side's pawns may ever attack (for outposts).
    pub span: [u64; 2],
}

/// Scores the pawn structure of both sides into `sink`.
pub fn evaluate<A: Sink>(sink: &mut A, white: u64, black: u64) -> PawnInfo {
    let mut info = PawnInfo::default();
    for c in Color::ALL {
        let (own, enemy) = match c {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        info.passed[c as usize] = side(sink, c, own, enemy);
        info.span[c as usize] = pawn_attacks(fill_forward(own, c), c);
    }
    info
}

/// Scores one side's pawns; returns its passed pawns.
fn side<A: Sink>(sink: &mut A, c: Color, own: u64, enemy: u64) -> u64 {
    let them = !c;
    let own_attacks = pawn_attacks(own, c);
    let enemy_attacks = pawn_attacks(enemy, them);
    // Squares an enemy pawn could stop or capture a pawn on.
    let enemy_front = front_span(enemy, them);
    let enemy_guard = enemy_front | pawn_attacks(enemy_front | enemy, them);
    let own_ahead = front_span(own, c);
    let mut passed = 0;
    for sq in squares(own) {
        let bit = 1u64 << sq as usize;
        let file = sq.file() as usize;
        let rank = relative_rank(sq, c);
        let adjacent = adjacent_files(file);
        let supported = own_attacks & bit != 0;
        let doubled = own_ahead & bit != 0;
        if doubled {
            sink.add(c, DOUBLED, 1);
        }
        if own & adjacent == 0 {
            sink.add(c, ISOLATED, 1);
        } else if !supported && is_backward(c, own, bit, adjacent, enemy_attacks) {
            sink.add(c, BACKWARD, 1);
        }
        if supported {
            sink.add(c, CONNECTED + rank, 1);
        }
        if neighbours(bit) & own != 0 {
            sink.add(c, PHALANX + rank, 1);
        }
        if enemy_guard & bit == 0 && !doubled {
            passed |= bit;
            sink.add(c, PASSED + rank, 1);
            if supported {
                sink.add(c, PASSED_PROTECTED, 1);
            }
        }
    }
    passed
}

/// No own pawn beside or behind on the adjacent files, and the stop square
/// is guarded by an enemy pawn: the pawn can neither advance nor be defended.
fn is_backward(c: Color, own: u64, bit: u64, adjacent: u64, enemy_attacks: u64) -> bool {
    let supporters = own & adjacent & rear_region(c, bit);
    supporters == 0 && push(bit, c) & enemy_attacks != 0
}

/// Squares on the same rank as `bit` or behind it (from `c`'s side).
fn rear_region(c: Color, bit: u64) -> u64 {
    let rank = bit.trailing_zeros() / 8;
    match c {
        Color::White => u64::MAX >> (56 - 8 * rank),
        Color::Black => u64::MAX << (8 * rank),
    }
}

/// The squares left and right of `bit`.
fn neighbours(bit: u64) -> u64 {
    ((bit << 1) & !FILE_A) | ((bit >> 1) & !FILE_H)
}

/// One cached pawn evaluation.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    white: u64,
    black: u64,
    mg: i32,
    eg: i32,
    info: PawnInfo,
}

/// A direct-mapped cache of pawn evaluations. Entries are checked against
/// both pawn bitboards, so a hit is always exact.
#[derive(Clone, Debug)]
pub struct PawnTable {
    entries: Vec<Entry>,
}

/// Entries per table (a power of two); about 1.5 MB.
const ENTRIES: usize = 1 << 15;

impl Default for PawnTable {
    fn default() -> Self {
        // No position has a pawn on every square, so this key never matches.
        let empty = Entry {
            white: u64::MAX,
            ..Entry::default()
        };
        Self {
            entries: vec![empty; ENTRIES],
        }
    }
}

impl PawnTable {
    /// Scores the pawn structure into `sink`, from the cache when possible.
    pub fn probe<A: Sink>(&mut self, sink: &mut A, board: &Board) -> PawnInfo {
        let white = bb(board.colored_pieces(Color::White, Piece::Pawn));
        let black = bb(board.colored_pieces(Color::Black, Piece::Pawn));
        let slot = &mut self.entries[index(white, black)];
        if slot.white != white || slot.black != black {
            let mut score = ScoreSink::default();
            let info = evaluate(&mut score, white, black);
            *slot = Entry {
                white,
                black,
                mg: score.mg,
                eg: score.eg,
                info,
            };
        }
        sink.add_score(slot.mg, slot.eg);
        slot.info
    }
}

fn index(white: u64, black: u64) -> usize {
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((h ^ (h >> 29)) >> (64 - 15)) as usize & (ENTRIES - 1)
}

/// Pawns of `c` on `file` (used by the file terms).
pub fn on_file(board: &Board, c: Color, file: usize) -> bool {
    bb(board.colored_pieces(c, Piece::Pawn)) & file_mask(file) != 0
}
