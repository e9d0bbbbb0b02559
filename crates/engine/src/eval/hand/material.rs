//! Material, piece-square tables and the bishop pair.

use super::params::{BISHOP_PAIR, MATERIAL, pst_index};
use super::sink::Sink;
use crate::board::{Board, Color, Piece};

pub fn evaluate<A: Sink>(sink: &mut A, board: &Board) {
    for c in Color::ALL {
        for piece in Piece::ALL {
            let set = board.colored_pieces(c, piece);
            if piece != Piece::King && !set.is_empty() {
                sink.add(c, MATERIAL + piece as usize, set.len() as i32);
            }
            for sq in set {
                let rel = sq.relative_to(c);
                let index = pst_index(piece as usize, rel.rank() as usize, rel.file() as usize);
                sink.add(c, index, 1);
            }
        }
        let bishops = board.colored_pieces(c, Piece::Bishop);
        let light = bishops & crate::board::BitBoard::LIGHT_SQUARES;
        if !light.is_empty() && light != bishops {
            sink.add(c, BISHOP_PAIR, 1);
        }
    }
}
