//! Bitboard helpers on raw `u64` (a1 = bit 0, h8 = bit 63) for pawn sets.

use crate::board::{BitBoard, Color, Square};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

#[inline(always)]
pub fn bb(b: BitBoard) -> u64 {
    b.0
}

#[inline(always)]
pub fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The files either side of `file`.
#[inline(always)]
pub fn adjacent_files(file: usize) -> u64 {
    let f = file_mask(file);
    ((f & !FILE_H) << 1) | ((f & !FILE_A) >> 1)
}

/// Squares attacked by a set of pawns of `color` (one definition, the
/// board's, shared with the threat map).
pub use crate::board::see::pawn_attacks;

/// Every square on or ahead of the set, in `color`'s direction.
#[inline(always)]
pub fn fill_forward(mut b: u64, color: Color) -> u64 {
    match color {
        Color::White => {
            b |= b << 8;
            b |= b << 16;
            b | (b << 32)
        }
        Color::Black => {
            b |= b >> 8;
            b |= b >> 16;
            b | (b >> 32)
        }
    }
}

/// Squares strictly ahead of the set, in `color`'s direction.
#[inline(always)]
pub fn front_span(b: u64, color: Color) -> u64 {
    push(fill_forward(b, color), color)
}

/// The set moved one rank forward for `color`.
#[inline(always)]
pub fn push(b: u64, color: Color) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Rank of `sq` counted from `color`'s first rank (0..8).
#[inline(always)]
pub fn relative_rank(sq: Square, color: Color) -> usize {
    sq.relative_to(color).rank() as usize
}

/// King distance (Chebyshev) between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Iterates the squares of a raw bitboard.
#[inline(always)]
pub fn squares(b: u64) -> impl Iterator<Item = Square> {
    BitBoard(b).iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_attacks_do_not_wrap_around_the_board() {
        let a2 = 1u64 << 8;
        let h2 = 1u64 << 15;
        assert_eq!(pawn_attacks(a2, Color::White), 1 << 17);
        assert_eq!(pawn_attacks(h2, Color::White), 1 << 22);
        assert_eq!(front_span(a2, Color::White), FILE_A & !0x1ff);
        assert_eq!(adjacent_files(0), file_mask(1));
    }
}
