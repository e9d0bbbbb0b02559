//! Whole-game self-play records: the file format datagen writes and the
//! trainer reads, and the formats around it: the older 32-byte position
//! records ([`records`]), the positions a filter keeps for training
//! ([`positions`]), PGN games ([`pgn`], [`import`]) and other trainers'
//! formats ([`export`]). The ground floor of this crate: nothing here uses
//! another of its modules. All integers are little-endian.
//!
//! A file is an 8-byte header, `CUTOFFG` and the version byte (2 is
//! written; 1 is read too), then games, each:
//!
//! | bytes | field |
//! |-------|-------|
//! | 32    | the start board and the result ([`pack::pack_board`]): occupancy, a nibble per piece, side to move, en passant square, halfmove clock, fullmove number, the castling rooks' files (so Chess960 rights fit), the result from White's view (0 Black won, 1 draw, 2 White won) |
//! | per ply | the move played and the search score before it (centipawns, **from White's point of view**; mates as the search scores them, beyond 29,000): in version 2 the move's index among the legal moves (a byte) and the score's change as a varint, in version 1 the move (u16, [`pack::pack_move`]) and the score (i16) ([`plies`]) |
//! | 1 or 4 | the end of the game: the byte 255 (version 2), 4 zero bytes (version 1) |
//!
//! Every ply of the game proper is stored, in check or not, so the games
//! can be replayed, re-filtered and re-scored; the random opening plies
//! before the start board are not. A file is appended to one whole game at
//! a time; a cut-off last game is dropped on reading (and repaired by a
//! resumed datagen run).

pub mod export;
pub mod file;
pub mod import;
pub mod pack;
pub mod pgn;
pub mod plies;
pub mod positions;
pub mod records;

use cutoff_engine::board::{Board, Move};
pub use file::{Parsed, parse, read};
use pack::{BOARD_BYTES, pack_board};

/// The first bytes of every game file.
pub const MAGIC: &[u8; 7] = b"CUTOFFG";
/// The version new files are written in.
pub const VERSION: u8 = 2;
/// The versions this build reads (and appends to, in their own encoding).
pub const VERSIONS: [u8; 2] = [1, 2];
pub const HEADER_BYTES: usize = 8;

/// One game: where it started, every ply played with its score, the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Board,
    /// 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    /// The moves played and the search score (White's view) that chose each.
    pub plies: Vec<(Move, i16)>,
}

/// The header of a new file.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..MAGIC.len()].copy_from_slice(MAGIC);
    h[MAGIC.len()] = VERSION;
    h
}

impl GameRecord {
    /// The game's bytes in the version new files are written in.
    pub fn encode(&self) -> Vec<u8> {
        self.encode_in(VERSION)
    }

    /// The game's bytes in `version` (one of [`VERSIONS`]), end included:
    /// a file is appended to in its own version.
    pub fn encode_in(&self, version: u8) -> Vec<u8> {
        debug_assert!(VERSIONS.contains(&version), "no version {version}");
        let mut out = Vec::with_capacity(BOARD_BYTES + 4 * (self.plies.len() + 1));
        out.extend_from_slice(&pack_board(&self.start, self.result));
        plies::encode(&mut out, &self.start, &self.plies, version);
        out
    }

    /// Calls `f(ply, board, move, score)` for every stored ply, replaying
    /// the game (the moves were checked legal when the record was read).
    pub fn replay(&self, mut f: impl FnMut(usize, &Board, Move, i16)) {
        let mut board = self.start.clone();
        for (ply, &(mv, score)) in self.plies.iter().enumerate() {
            f(ply, &board, mv, score);
            board.play_unchecked(mv);
        }
    }
}
