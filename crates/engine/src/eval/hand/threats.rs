//! Threats: pieces attacked by pawns, by minor pieces and by rooks (lesser
//! attackers win material), and pieces attacked but not defended at all.

use super::bits::bb;
use super::mobility::Attacks;
use super::params::{HANGING, MINOR_THREAT, PAWN_THREAT, ROOK_THREAT};
use super::sink::Sink;
use crate::board::{Board, Color, Piece};

pub fn evaluate<A: Sink>(sink: &mut A, board: &Board, attacks: &Attacks) {
    for c in Color::ALL {
        let i = c as usize;
        let them = !c;
        let by = &attacks.by[i];
        let defended_by_pawn = attacks.by[i ^ 1][Piece::Pawn as usize];
        let minors = by[Piece::Knight as usize] | by[Piece::Bishop as usize];
        let rooks = by[Piece::Rook as usize];
        for victim in [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ] {
            let mut targets = bb(board.colored_pieces(them, victim));
            if targets == 0 {
                continue;
            }
            let v = victim as usize;
            if victim == Piece::Pawn {
                // A pawn guarded by a pawn is no real target.
                targets &= !defended_by_pawn;
            } else {
                count(
                    sink,
                    c,
                    PAWN_THREAT + v - 1,
                    targets & by[Piece::Pawn as usize],
                );
                count(
                    sink,
                    c,
                    HANGING,
                    targets & attacks.all[i] & !attacks.all[i ^ 1],
                );
            }
            count(sink, c, MINOR_THREAT + v, targets & minors);
            count(sink, c, ROOK_THREAT + v, targets & rooks);
        }
    }
}

fn count<A: Sink>(sink: &mut A, c: Color, param: usize, set: u64) {
    if set != 0 {
        sink.add(c, param, set.count_ones() as i32);
    }
}
