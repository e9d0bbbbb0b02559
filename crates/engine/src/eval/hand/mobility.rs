//! Mobility: safe squares per piece. The same pass records every piece's
//! attacks, which king safety and threats read afterwards.

use super::bits::{bb, pawn_attacks, push};
use super::params::{BISHOP_MOB, KNIGHT_MOB, QUEEN_MOB, ROOK_MOB};
use super::sink::Sink;
use crate::board::{Board, Color, Piece};
use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};

/// Attack maps of both sides, indexed by colour.
#[derive(Clone, Debug, Default)]
pub struct Attacks {
    /// Squares attacked by each piece type.
    pub by: [[u64; 6]; 2],
    /// Squares attacked by any piece.
    pub all: [u64; 2],
    /// Squares attacked at least twice.
    pub twice: [u64; 2],
    /// The squares around each side's king.
    pub zone: [u64; 2],
    /// Pieces of each side attacking the enemy king zone.
    pub zone_attackers: [i32; 2],
    /// Attacks of each side on the enemy king zone, by knight, bishop, rook, queen.
    pub zone_hits: [[i32; 4]; 2],
}

impl Attacks {
    /// Pawn and king attacks and king zones; pieces are added by [`evaluate`].
    pub fn new(board: &Board) -> Self {
        let mut a = Attacks::default();
        for c in Color::ALL {
            let i = c as usize;
            let pawns = pawn_attacks(bb(board.colored_pieces(c, Piece::Pawn)), c);
            let ksq = board.king(c);
            let king = bb(get_king_moves(ksq));
            a.by[i][Piece::Pawn as usize] = pawns;
            a.by[i][Piece::King as usize] = king;
            a.twice[i] = pawns & king;
            a.all[i] = pawns | king;
            let around = king | bb(ksq.bitboard());
            a.zone[i] = around | push(around, c);
        }
        a
    }

    #[inline(always)]
    fn record(&mut self, c: usize, piece: Piece, attacks: u64) {
        self.by[c][piece as usize] |= attacks;
        self.twice[c] |= self.all[c] & attacks;
        self.all[c] |= attacks;
        let hits = (attacks & self.zone[c ^ 1]).count_ones() as i32;
        if hits > 0 {
            self.zone_attackers[c] += 1;
            self.zone_hits[c][piece as usize - 1] += hits;
        }
    }
}

/// Scores mobility of both sides and fills the piece attacks into `attacks`.
pub fn evaluate<A: Sink>(sink: &mut A, board: &Board, attacks: &mut Attacks) {
    let occ = board.occupied();
    for c in Color::ALL {
        let i = c as usize;
        let own = board.colored_pieces(c, Piece::Pawn) | board.colored_pieces(c, Piece::King);
        let area = !(bb(own) | attacks.by[i ^ 1][Piece::Pawn as usize]);
        for sq in board.colored_pieces(c, Piece::Knight) {
            let att = bb(get_knight_moves(sq));
            sink.add(c, KNIGHT_MOB + (att & area).count_ones() as usize, 1);
            attacks.record(i, Piece::Knight, att);
        }
        for sq in board.colored_pieces(c, Piece::Bishop) {
            let att = bb(get_bishop_moves(sq, occ));
            sink.add(c, BISHOP_MOB + (att & area).count_ones() as usize, 1);
            attacks.record(i, Piece::Bishop, att);
        }
        for sq in board.colored_pieces(c, Piece::Rook) {
            let att = bb(get_rook_moves(sq, occ));
            sink.add(c, ROOK_MOB + (att & area).count_ones() as usize, 1);
            attacks.record(i, Piece::Rook, att);
        }
        for sq in board.colored_pieces(c, Piece::Queen) {
            let att = bb(get_bishop_moves(sq, occ) | get_rook_moves(sq, occ));
            sink.add(c, QUEEN_MOB + (att & area).count_ones() as usize, 1);
            attacks.record(i, Piece::Queen, att);
        }
    }
}
