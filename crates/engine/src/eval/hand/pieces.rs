//! Piece placement beyond the tables: minor-piece outposts, bishops hemmed
//! in by their own pawns, rooks and queens on open and half-open files.

use super::bits::{bb, file_mask, pawn_attacks};
use super::params::{
    BISHOP_OUTPOST, BISHOP_PAWNS, KNIGHT_OUTPOST, QUEEN_OPEN, QUEEN_SEMI_OPEN, ROOK_OPEN,
    ROOK_SEMI_OPEN,
};
use super::pawns::PawnInfo;
use super::sink::Sink;
use crate::board::{BitBoard, Board, Color, Piece};

/// Relative ranks 4 to 6, where an outpost is worth having.
const OUTPOST_RANKS: [u64; 2] = [0x0000_FFFF_FF00_0000, 0x0000_00FF_FFFF_0000];

pub fn evaluate<A: Sink>(sink: &mut A, board: &Board, pawns: &PawnInfo) {
    let all_pawns = bb(board.pieces(Piece::Pawn));
    for c in Color::ALL {
        let i = c as usize;
        let own_pawns = bb(board.colored_pieces(c, Piece::Pawn));
        let outposts = OUTPOST_RANKS[i] & pawn_attacks(own_pawns, c) & !pawns.span[i ^ 1];
        let knights = bb(board.colored_pieces(c, Piece::Knight));
        let bishops = bb(board.colored_pieces(c, Piece::Bishop));
        add_count(sink, c, KNIGHT_OUTPOST, knights & outposts);
        add_count(sink, c, BISHOP_OUTPOST, bishops & outposts);
        for sq in board.colored_pieces(c, Piece::Bishop) {
            let colour = if BitBoard::LIGHT_SQUARES.has(sq) {
                BitBoard::LIGHT_SQUARES
            } else {
                BitBoard::DARK_SQUARES
            };
            add_count(sink, c, BISHOP_PAWNS, own_pawns & bb(colour));
        }
        files(
            sink,
            board,
            c,
            Piece::Rook,
            [ROOK_OPEN, ROOK_SEMI_OPEN],
            all_pawns,
            own_pawns,
        );
        files(
            sink,
            board,
            c,
            Piece::Queen,
            [QUEEN_OPEN, QUEEN_SEMI_OPEN],
            all_pawns,
            own_pawns,
        );
    }
}

fn add_count<A: Sink>(sink: &mut A, c: Color, param: usize, set: u64) {
    if set != 0 {
        sink.add(c, param, set.count_ones() as i32);
    }
}

/// Open file (no pawns) or half-open (only enemy pawns) for `piece`.
fn files<A: Sink>(
    sink: &mut A,
    board: &Board,
    c: Color,
    piece: Piece,
    [open, semi]: [usize; 2],
    all_pawns: u64,
    own_pawns: u64,
) {
    for sq in board.colored_pieces(c, piece) {
        let file = file_mask(sq.file() as usize);
        if all_pawns & file == 0 {
            sink.add(c, open, 1);
        } else if own_pawns & file == 0 {
            sink.add(c, semi, 1);
        }
    }
}
