//! The key differences of the reversible moves, in a cuckoo hash table, so
//! that a search can ask in two probes whether the side to move can return
//! to an earlier position of the line with one move. A move of a knight,
//! bishop, rook, queen or king between two squares changes the key by the
//! same amount whatever else is on the board (keys are exclusive ors), so
//! one table of 3,668 moves serves every position. The method is Marcel van
//! Kervinck's ("The design and implementation of the Rookie 2.0 chess
//! program", and Stockfish's `upcoming_repetition`).

use std::sync::OnceLock;

use cozy_chess::{BitBoard, Board, BoardBuilder, Color, Piece, Square};

/// Twice and more the moves' count: cuckoo insertion settles quickly.
const SLOTS: usize = 8192;

/// Every move of a piece (not a pawn) between two squares on an empty
/// board, one direction each: 2 colours x (336 knight + 560 bishop + 896
/// rook + 1,456 queen + 420 king) / 2.
pub const MOVES: usize = 3668;

struct Table {
    keys: Vec<u64>,
    moves: Vec<(Square, Square)>,
}

/// The two squares of the move that changes a key by `diff`, if one does.
/// The table does not say which of the two the piece stands on.
pub fn lookup(diff: u64) -> Option<(Square, Square)> {
    let t = table();
    [first_slot(diff), second_slot(diff)]
        .into_iter()
        .find(|&slot| t.keys[slot] == diff)
        .map(|slot| t.moves[slot])
}

/// The number of moves stored (for the tests: `MOVES`).
pub fn stored() -> usize {
    table().keys.iter().filter(|&&k| k != 0).count()
}

fn first_slot(key: u64) -> usize {
    (key & (SLOTS as u64 - 1)) as usize
}

fn second_slot(key: u64) -> usize {
    ((key >> 16) & (SLOTS as u64 - 1)) as usize
}

/// Built on first use (a few milliseconds), then shared by every thread.
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Table {
    let mut t = Table {
        keys: vec![0; SLOTS],
        moves: vec![(Square::A1, Square::A1); SLOTS],
    };
    for color in Color::ALL {
        for piece in [
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
            Piece::King,
        ] {
            for a in Square::ALL {
                for b in reach(piece, a) {
                    if (a as u8) < (b as u8) {
                        t.insert(move_key(piece, color, a, b), (a, b));
                    }
                }
            }
        }
    }
    t
}

impl Table {
    /// Cuckoo insertion: an entry that finds its slot taken takes it and
    /// moves the one it displaced to that one's other slot.
    fn insert(&mut self, mut key: u64, mut mv: (Square, Square)) {
        let mut slot = first_slot(key);
        loop {
            std::mem::swap(&mut key, &mut self.keys[slot]);
            std::mem::swap(&mut mv, &mut self.moves[slot]);
            if key == 0 {
                return;
            }
            slot = if slot == first_slot(key) {
                second_slot(key)
            } else {
                first_slot(key)
            };
        }
    }
}

/// The squares `piece` reaches from `square` on an empty board.
fn reach(piece: Piece, square: Square) -> BitBoard {
    match piece {
        Piece::Knight => cozy_chess::get_knight_moves(square),
        Piece::Bishop => cozy_chess::get_bishop_moves(square, BitBoard::EMPTY),
        Piece::Rook => cozy_chess::get_rook_moves(square, BitBoard::EMPTY),
        Piece::Queen => {
            cozy_chess::get_bishop_moves(square, BitBoard::EMPTY)
                | cozy_chess::get_rook_moves(square, BitBoard::EMPTY)
        }
        Piece::King => cozy_chess::get_king_moves(square),
        Piece::Pawn => BitBoard::EMPTY,
    }
}

/// The key difference of `color`'s `piece` moving between `a` and `b` and
/// the turn passing. cozy-chess keeps its Zobrist numbers private, so it is
/// read off two boards that differ only there, with the kings on the first
/// squares where both boards are legal.
fn move_key(piece: Piece, color: Color, a: Square, b: Square) -> u64 {
    for own in Square::ALL {
        for theirs in Square::ALL {
            let before = board_with(piece, color, a, color, (own, theirs));
            let after = board_with(piece, color, b, !color, (own, theirs));
            if let (Some(x), Some(y)) = (before, after) {
                return x.hash() ^ y.hash();
            }
        }
    }
    unreachable!("no legal place for the kings beside a {piece:?} on {a} and {b}")
}

/// `color`'s `piece` on `at` with the kings (`color`'s, then the other's;
/// a king that moves is the piece itself), `turn` to move, if legal.
fn board_with(
    piece: Piece,
    color: Color,
    at: Square,
    turn: Color,
    (own, theirs): (Square, Square),
) -> Option<Board> {
    let mut builder = BoardBuilder::empty();
    builder.side_to_move = turn;
    *builder.square_mut(at) = Some((piece, color));
    let mut kings = vec![(theirs, !color)];
    if piece != Piece::King {
        kings.push((own, color));
    }
    for (square, side) in kings {
        let cell = builder.square_mut(square);
        if cell.is_some() {
            return None;
        }
        *cell = Some((Piece::King, side));
    }
    builder.build().ok()
}
