//! Opening books: Polyglot `.bin` books read for play (`OwnBook`) and
//! `cutoff book probe`. Building a book from PGN games (`cutoff book
//! build`) is the training crate's.
//!
//! `polyglot` is the file format and its key, `options` the UCI options.

pub mod cli;
pub mod options;
pub mod polyglot;

use std::sync::Arc;

use crate::board::{Board, Color, Move, Position};
use crate::time::Limits;
use polyglot::file::Book;

/// The book settings of the engine (`OwnBook`, `BookFile`, `BookDepth`,
/// `BookBestMove`).
#[derive(Clone, Debug)]
pub struct BookOptions {
    pub own_book: bool,
    pub book: Option<Arc<Book>>,
    /// Use the book while fewer plies than this have been played.
    pub depth: u32,
    /// Always the heaviest move, else a move drawn in proportion to weight.
    pub best_move: bool,
}

impl Default for BookOptions {
    fn default() -> Self {
        Self {
            own_book: false,
            book: None,
            depth: options::DEFAULT_DEPTH,
            best_move: false,
        }
    }
}

/// Plies played since the game's start, from the move number (so a
/// `position fen` within an opening counts its earlier moves too).
pub fn game_ply(board: &Board) -> u32 {
    let moves = u32::from(board.fullmove_number().max(1)) - 1;
    2 * moves + u32::from(board.side_to_move() == Color::Black)
}

/// A book move chosen from `ranked` (highest weight first): the first, or
/// one drawn with probability proportional to weight using `random`.
/// Moves of weight 0 are never played.
pub fn choose(ranked: &[(Move, u16)], best_move: bool, random: u64) -> Option<(Move, u16)> {
    let total: u64 = ranked.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    if best_move {
        return ranked.first().copied();
    }
    let mut r = random % total;
    for &(mv, w) in ranked {
        if r < u64::from(w) {
            return Some((mv, w));
        }
        r -= u64::from(w);
    }
    None
}

/// The book's answer to `go`: an `info string` text and the move in UCI
/// notation. Only for timed or fixed searches: `infinite`, `ponder` and
/// `searchmoves` searches are left to the search.
pub fn answer(opts: &BookOptions, pos: &Position, limits: &Limits) -> Option<(String, String)> {
    let book = opts.book.as_ref().filter(|_| opts.own_book)?;
    if limits.infinite || limits.ponder || !limits.searchmoves.is_empty() {
        return None;
    }
    let board = pos.board();
    if game_ply(board) >= opts.depth {
        return None;
    }
    let ranked = polyglot::ranked(board, book.entries(polyglot::key(board)));
    let total: u32 = ranked.iter().map(|&(_, w)| u32::from(w)).sum();
    let (mv, weight) = choose(&ranked, opts.best_move, random_seed())?;
    let uci = pos.uci(mv);
    let text = format!(
        "book move {uci} weight {weight} of {total} ({} book moves)",
        ranked.len()
    );
    Some((text, uci))
}

/// A fresh random number for the weighted draw (no need for a generator
/// with state: one draw per `go`).
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // One SplitMix64 step spreads the clock's low bits over the word.
    crate::rng::SplitMix(nanos).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_follows_the_weights() {
        let (a, b): (Move, Move) = ("e2e4".parse().unwrap(), "d2d4".parse().unwrap());
        let ranked = [(a, 3), (b, 1)];
        assert_eq!(choose(&ranked, true, 3), Some((a, 3)));
        let picks: Vec<Move> = (0..4)
            .filter_map(|r| choose(&ranked, false, r))
            .map(|(m, _)| m)
            .collect();
        assert_eq!(picks, [a, a, a, b]);
        assert_eq!(choose(&[(a, 0)], true, 0), None);
        assert_eq!(choose(&[], false, 7), None);
    }

    #[test]
    fn game_ply_counts_from_the_move_number() {
        let b = |fen: &str| fen.parse::<Board>().unwrap();
        assert_eq!(game_ply(&Board::default()), 0);
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(game_ply(&b(after_e4)), 1);
        assert_eq!(game_ply(&b("4k3/8/8/8/8/8/8/4K3 w - - 0 10")), 18);
    }
}
