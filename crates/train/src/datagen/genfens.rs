//! `genfens N seed S book <file|None> [extra]`: opening positions for
//! OpenBench's datagen workloads, which start the engine as
//! `cutoff "genfens N seed S book B" "quit"` and read `info string genfens
//! <FEN>` lines. The starts are datagen's: a book line (or the start
//! position), random plies, and a search that rejects unbalanced or
//! finished positions; opening `i` depends on (seed, `i`) alone.

use std::path::PathBuf;

use super::game::{GameConfig, OnPool, Rng, random_start};
use super::read_openings;
use cutoff_engine::board::{Board, fen};
use cutoff_engine::search::{Settings, Shared, ThreadPool};

/// Random plies on top of the start position, and on top of a book line.
const PLIES_FROM_START: usize = 8;
const PLIES_FROM_BOOK: usize = 2;
/// Depth of the search that checks a start is balanced.
const VERIFY_DEPTH: u32 = 6;

/// A parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    pub book: Option<PathBuf>,
}

/// Parses `genfens N seed S book <file|None> [extra...]`.
pub fn parse(line: &str) -> Result<Request, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let usage = "usage: genfens N seed S book <file|None>";
    match words.as_slice() {
        ["genfens", n, "seed", s, "book", b, ..] => Ok(Request {
            count: n
                .parse()
                .map_err(|_| format!("genfens: bad count '{n}'; {usage}"))?,
            seed: s
                .parse()
                .map_err(|_| format!("genfens: bad seed '{s}'; {usage}"))?,
            book: (!b.eq_ignore_ascii_case("none")).then(|| PathBuf::from(b)),
        }),
        _ => Err(format!("genfens: {usage}")),
    }
}

/// The request's openings as FENs, in order.
pub fn openings(req: &Request) -> Result<Vec<String>, String> {
    let (starts, plies) = match &req.book {
        Some(path) => (read_openings(path)?, PLIES_FROM_BOOK),
        None => (vec![Board::default()], PLIES_FROM_START),
    };
    let config = GameConfig {
        random_plies: plies,
        verify_depth: VERIFY_DEPTH,
        ..GameConfig::default()
    };
    let settings = Settings::default();
    let mut out = Vec::with_capacity(req.count);
    let pool = ThreadPool::new(1, Shared::default());
    for i in 0..req.count as u64 {
        let mut rng = Rng::for_game(req.seed, i);
        let pos = (0..10_000)
            .find_map(|_| {
                random_start(&config, &starts, &settings, &mut rng, &mut OnPool(&pool)).position
            })
            .ok_or("genfens: no usable opening in 10,000 tries")?;
        out.push(fen::to_fen(pos.board(), false));
    }
    Ok(out)
}

/// Answers a `genfens` line: one `info string genfens <FEN>` line per
/// opening, or one `info string error: ...` line.
pub fn answer(line: &str) -> Vec<String> {
    match parse(line).and_then(|r| openings(&r)) {
        Ok(fens) => fens
            .into_iter()
            .map(|f| format!("info string genfens {f}"))
            .collect(),
        Err(e) => vec![format!("info string error: {e}")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_engine::board::Position;

    #[test]
    fn openings_are_counted_seeded_legal_and_unfinished() {
        let req = parse("genfens 6 seed 42 book None extra words").expect("parses");
        assert_eq!((req.count, req.seed, req.book.clone()), (6, 42, None));
        let fens = openings(&req).expect("openings");
        assert_eq!(fens.len(), 6);
        assert_eq!(
            fens,
            openings(&req).expect("again"),
            "same seed, same openings"
        );
        let other = openings(&Request { seed: 43, ..req }).expect("openings");
        assert_ne!(fens, other, "another seed, other openings");
        for f in &fens {
            let pos = Position::from_fen(f, false).expect("a legal FEN");
            assert!(
                pos.has_legal_move() && !pos.is_insufficient_material(),
                "{f}"
            );
            assert_eq!(
                pos.board().fullmove_number(),
                5,
                "8 plies from the start: {f}"
            );
        }
    }

    #[test]
    fn bad_requests_are_one_error_line() {
        for bad in [
            "genfens",
            "genfens x seed 1 book None",
            "genfens 2 seed 1 book /no/such.epd",
        ] {
            let lines = answer(bad);
            assert_eq!(lines.len(), 1, "{bad}");
            assert!(lines[0].starts_with("info string error: "), "{lines:?}");
        }
    }
}
