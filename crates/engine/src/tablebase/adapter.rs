//! The bridge between cozy-chess and the prober: pyrrhic-rs generates moves
//! through our attack tables, and reads a position as bitboards, so probes
//! inside the search never build a FEN string.

use cozy_chess::{
    BitBoard, Board, Color, Piece, Rank, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_pawn_attacks, get_rook_moves,
};
use pyrrhic_rs::EngineAdapter;

/// cozy-chess's attack generation, lent to the prober.
#[derive(Clone, Copy, Debug)]
pub struct CozyAdapter;

fn square(sq: u64) -> Square {
    Square::index(sq as usize & 63)
}

impl EngineAdapter for CozyAdapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        get_pawn_attacks(square(sq), color).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        get_knight_moves(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        get_bishop_moves(square(sq), BitBoard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        get_rook_moves(square(sq), BitBoard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        Self::bishop_attacks(sq, occupied) | Self::rook_attacks(sq, occupied)
    }
    fn king_attacks(sq: u64) -> u64 {
        get_king_moves(square(sq)).0
    }
}

/// A position as the prober reads it.
#[derive(Clone, Copy, Debug)]
pub struct Bitboards {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
    pub queens: u64,
    pub rooks: u64,
    pub bishops: u64,
    pub knights: u64,
    pub pawns: u64,
    /// En passant target square index, 0 for none (a1 is never one).
    pub ep: u32,
    pub white_to_move: bool,
}

impl Bitboards {
    pub fn new(board: &Board) -> Self {
        let stm = board.side_to_move();
        let ep = board.en_passant().map_or(0, |file| {
            let rank = if stm == Color::White {
                Rank::Sixth
            } else {
                Rank::Third
            };
            Square::new(file, rank) as u32
        });
        Self {
            white: board.colors(Color::White).0,
            black: board.colors(Color::Black).0,
            kings: board.pieces(Piece::King).0,
            queens: board.pieces(Piece::Queen).0,
            rooks: board.pieces(Piece::Rook).0,
            bishops: board.pieces(Piece::Bishop).0,
            knights: board.pieces(Piece::Knight).0,
            pawns: board.pieces(Piece::Pawn).0,
            ep,
            white_to_move: stm == Color::White,
        }
    }
}

/// Tables hold no castling rights: a position with any is never probed.
pub fn probeable(board: &Board) -> bool {
    [Color::White, Color::Black].iter().all(|&c| {
        let r = board.castle_rights(c);
        r.short.is_none() && r.long.is_none()
    })
}
