//! Passed pawns beyond their rank bonus (which is cached with the pawns):
//! a free path to the promotion square and the distance of both kings.

use super::bits::{bb, distance, front_span, relative_rank, squares};
use super::params::{PASSED_FREE, PASSED_KING_ENEMY, PASSED_KING_OWN};
use super::pawns::PawnInfo;
use super::sink::Sink;
use crate::board::{Board, Color};

pub fn evaluate<A: Sink>(sink: &mut A, board: &Board, pawns: &PawnInfo) {
    let occ = bb(board.occupied());
    for c in Color::ALL {
        let own_king = board.king(c);
        let enemy_king = board.king(!c);
        for sq in squares(pawns.passed[c as usize]) {
            let rank = relative_rank(sq, c);
            let path = front_span(1u64 << sq as usize, c);
            if path & occ == 0 {
                sink.add(c, PASSED_FREE + rank, 1);
            }
            let forward = if c == Color::White { 1 } else { -1 };
            // Pawns never stand on the last rank, so the stop square exists.
            let Some(stop) = sq.try_offset(0, forward) else {
                continue;
            };
            sink.add(c, PASSED_KING_OWN + rank, distance(own_king, stop));
            sink.add(c, PASSED_KING_ENEMY + rank, distance(enemy_king, stop));
        }
    }
}
