//! King safety: attacks on the king zone (weighted by attacker type, counted
//! once two pieces join in), the number of attackers, safe checks, the pawn
//! shield in front of the king, enemy pawn storms and open files at the king.

use super::bits::{bb, file_mask, front_span, relative_rank};
use super::mobility::Attacks;
use super::params::{
    KING_ATTACKERS, KING_OPEN_FILE, KING_SEMI_OPEN_FILE, KING_ZONE_ATTACK, PAWN_SHIELD, PAWN_STORM,
    SAFE_CHECK,
};
use super::sink::Sink;
use crate::board::{Board, Color, Piece, Square};
use cozy_chess::{get_bishop_moves, get_knight_moves, get_rook_moves};

pub fn evaluate<A: Sink>(sink: &mut A, board: &Board, attacks: &Attacks) {
    for c in Color::ALL {
        attackers(sink, board, attacks, !c);
        shelter(sink, board, c);
    }
}

/// Features of side `a` attacking the enemy king.
fn attackers<A: Sink>(sink: &mut A, board: &Board, attacks: &Attacks, a: Color) {
    let i = a as usize;
    let count = attacks.zone_attackers[i];
    let queen_in = attacks.zone_hits[i][3] > 0;
    if count > 0 {
        sink.add(a, KING_ATTACKERS + count.min(7) as usize, 1);
    }
    // A lone minor near the king is no attack; weigh the hits once it has help.
    if count >= 2 || queen_in {
        for (t, &hits) in attacks.zone_hits[i].iter().enumerate() {
            if hits > 0 {
                sink.add(a, KING_ZONE_ATTACK + t, hits);
            }
        }
    }
    let king = board.king(!a);
    let occ = board.occupied();
    let safe = !(attacks.all[i ^ 1] | bb(board.colors(a)));
    let bishop = bb(get_bishop_moves(king, occ));
    let rook = bb(get_rook_moves(king, occ));
    let checks = [
        bb(get_knight_moves(king)) & attacks.by[i][Piece::Knight as usize],
        bishop & attacks.by[i][Piece::Bishop as usize],
        rook & attacks.by[i][Piece::Rook as usize],
        (bishop | rook) & attacks.by[i][Piece::Queen as usize],
    ];
    for (t, squares) in checks.iter().enumerate() {
        let n = (squares & safe).count_ones() as i32;
        if n > 0 {
            sink.add(a, SAFE_CHECK + t, n);
        }
    }
}

/// Pawn shield, pawn storm and open files around side `c`'s king.
fn shelter<A: Sink>(sink: &mut A, board: &Board, c: Color) {
    let king = board.king(c);
    let own = bb(board.colored_pieces(c, Piece::Pawn));
    let enemy = bb(board.colored_pieces(!c, Piece::Pawn));
    let ahead = front_span(1u64 << king as usize, c);
    let king_rank = relative_rank(king, c) as i32;
    let centre = (king.file() as usize).clamp(1, 6);
    for file in centre - 1..=centre + 1 {
        let mask = shift_file(ahead, king.file() as usize, file) & file_mask(file);
        let shield = nearest(own & mask, c).map(|sq| relative_rank(sq, c) as i32 - king_rank);
        let idx = match shield {
            Some(d @ 1..=3) => d as usize - 1,
            _ => 3,
        };
        sink.add(c, PAWN_SHIELD + idx, 1);
        let storm = nearest(enemy & mask, c).map(|sq| relative_rank(sq, c) as i32 - king_rank);
        let idx = storm.map_or(4, |d| (d.clamp(1, 4) - 1) as usize);
        sink.add(c, PAWN_STORM + idx, 1);
    }
    let file = file_mask(king.file() as usize);
    if (own | enemy) & file == 0 {
        sink.add(c, KING_OPEN_FILE, 1);
    } else if own & file == 0 {
        sink.add(c, KING_SEMI_OPEN_FILE, 1);
    }
}

/// Moves a set on file `from` sideways onto file `to` (within the board).
fn shift_file(set: u64, from: usize, to: usize) -> u64 {
    if to >= from {
        set << (to - from)
    } else {
        set >> (from - to)
    }
}

/// The pawn of `set` closest to `c`'s own side of the board.
fn nearest(set: u64, c: Color) -> Option<Square> {
    if set == 0 {
        return None;
    }
    Some(Square::index(match c {
        Color::White => set.trailing_zeros() as usize,
        Color::Black => 63 - set.leading_zeros() as usize,
    }))
}
