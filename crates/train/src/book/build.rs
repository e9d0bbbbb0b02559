//! `cutoff book build`: a Polyglot book from PGN games. Each move played in
//! the first plies scores 2 per game won by its side, 1 per draw (or
//! unknown result), 0 per loss; moves seen in fewer than `min_games` games
//! or that only lost are left out.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::games::pgn::{Game, Reader, san};
use crate::progress;
use cutoff_engine::board::{Board, Color, fen};
use cutoff_engine::book::polyglot::file::Book;
use cutoff_engine::book::polyglot::{self, Entry};

pub struct Options {
    pub pgn: Vec<PathBuf>,
    pub out: PathBuf,
    pub plies: usize,
    pub min_games: u32,
}

#[derive(Debug, Default)]
pub struct Summary {
    pub games: u64,
    /// Games with a move that could not be read: used up to that move.
    pub bad_games: u64,
    pub entries: usize,
}

#[derive(Default)]
struct Count {
    games: u32,
    score: u64,
}

/// The book's counts: (position key, encoded move) to games and score.
type Counts = HashMap<(u64, u16), Count>;

pub fn run(opts: &Options) -> Result<Summary, String> {
    let mut texts = Vec::new();
    for path in &opts.pgn {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let bar = progress::bar(
        texts.iter().map(|t| t.len() as u64).sum(),
        "{elapsed_precise} [{bar:30}] {bytes}/{total_bytes}, {msg} (eta {eta})",
    );
    let mut counts = Counts::new();
    let mut summary = Summary::default();
    for text in &texts {
        let mut reader = Reader::new(text);
        let base = bar.position();
        while let Some(game) = reader.next_game() {
            summary.games += 1;
            if add_game(&game, opts.plies, &mut counts).is_err() {
                summary.bad_games += 1;
            }
            bar.set_position(base + reader.offset() as u64);
            bar.set_message(format!("{} games", summary.games));
        }
        bar.set_position(base + text.len() as u64);
    }
    bar.finish_and_clear();
    let book = Book::from_entries(entries(&counts, opts.min_games));
    summary.entries = book.len();
    book.save(&opts.out)?;
    Ok(summary)
}

/// Adds a game's first `plies` moves. An unreadable move ends the game
/// there (an error), the moves before it counted.
fn add_game(game: &Game, plies: usize, counts: &mut Counts) -> Result<(), String> {
    let mut board = match game.tag("FEN") {
        Some(f) => fen::parse_fen(f)?,
        None => Board::default(),
    };
    // Points out of 2 for white; black gets the rest.
    let white = match game.result.as_deref().or(game.tag("Result")) {
        Some("1-0") => 2,
        Some("0-1") => 0,
        _ => 1,
    };
    for text in game.moves.iter().take(plies) {
        let mv = san::parse(&board, text)?;
        let count = counts
            .entry((polyglot::key(&board), polyglot::encode_move(mv)))
            .or_default();
        count.games += 1;
        count.score += match board.side_to_move() {
            Color::White => white,
            Color::Black => 2 - white,
        };
        board.play_unchecked(mv);
    }
    Ok(())
}

/// Weights are the scores, scaled down to fit 16 bits if need be.
fn entries(counts: &Counts, min_games: u32) -> Vec<Entry> {
    let kept = || {
        counts
            .iter()
            .filter(|(_, c)| c.games >= min_games && c.score > 0)
    };
    let max = kept().map(|(_, c)| c.score).max().unwrap_or(1);
    let scale = |s: u64| {
        if max <= u64::from(u16::MAX) {
            s as u16
        } else {
            (s * u64::from(u16::MAX) / max).max(1) as u16
        }
    };
    let mut out: Vec<Entry> = kept()
        .map(|(&(key, raw_move), c)| Entry {
            key,
            raw_move,
            weight: scale(c.score),
            learn: 0,
        })
        .collect();
    // Same order every run: by key, heaviest first, then by move.
    out.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.raw_move));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_wins_draws_and_losses() {
        let pgn = "1. e4 e5 1-0\n\n1. e4 c5 0-1\n\n1. d4 d5 1/2-1/2\n\n1. e4 e5 2. Zz9 *\n";
        let mut counts = Counts::new();
        let results: Vec<bool> = Reader::new(pgn)
            .map(|g| add_game(&g, 2, &mut counts).is_ok())
            .collect();
        assert_eq!(results, [true, true, true, true]); // Zz9 is past ply 2
        let start = Board::default();
        let e4 = san::parse(&start, "e4").unwrap();
        let key = polyglot::key(&start);
        let c = &counts[&(key, polyglot::encode_move(e4))];
        // A win (2), a loss (0), a draw (1).
        assert_eq!((c.games, c.score), (3, 3));
        let all = entries(&counts, 1);
        let first: Vec<u16> = all
            .iter()
            .filter(|e| e.key == key)
            .map(|e| e.weight)
            .collect();
        assert_eq!(first, [3, 1]); // e4 then d4
        // Only e4 was played in 2 games or more; ...e5 (1 loss, 1 '*') too.
        assert_eq!(entries(&counts, 2).len(), 2);
        let bad = Reader::new("1. e4 Ke7 Kd6 *").next().unwrap();
        assert!(add_game(&bad, 10, &mut Counts::new()).is_err());
    }
}
