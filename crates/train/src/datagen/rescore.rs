//! `cutoff games rescore`: the same games with new scores. Every position
//! the trainer can keep (past the opening plies, not in check, a quiet move
//! played) is searched again by this build's network at the given node
//! limits, as datagen searches (a fresh table and histories per game, kept
//! from ply to ply); the moves, the results and the other plies' scores
//! are kept. Older games scored by a weaker network thus teach the current
//! one's judgement, at the cost of a search per kept position.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::game::{OnPool, Searcher, stored_score, white_view};
use super::{check_limits, open_to_finish, write_in_order};
use crate::games::positions::Filter;
use crate::games::{GameRecord, file::read_bytes, parse};
use cutoff_engine::board::{Position, fen};
use cutoff_engine::search::{Settings, Shared, ThreadPool};
use cutoff_engine::time::Limits;

/// What to rescore and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub files: Vec<PathBuf>,
    pub out: PathBuf,
    /// Rescore only the first this many games (all when `None`).
    pub games: Option<usize>,
    pub soft_nodes: u64,
    pub hard_nodes: u64,
    /// Plies at the start of every game left as they are (the trainer skips them).
    pub skip_plies: usize,
    pub threads: usize,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// Games already in the output when the run started.
    pub resumed_from: u64,
    /// Games this run wrote.
    pub games: u64,
    /// Positions searched again.
    pub rescored: u64,
    /// Positions searched again whose score changed.
    pub changed: u64,
    pub seconds: f64,
}

/// Rescores the games of `opts.files` into `opts.out`, in the input's
/// order, so the same command gives the same bytes with any number of
/// threads; an output left by a stopped run is finished, not begun again.
pub fn run(opts: &Options) -> Result<Summary, String> {
    check_limits(opts.soft_nodes, opts.hard_nodes, opts.threads)?;
    let games = read_games(&opts.files, opts.games)?;
    // Resumable as datagen is: the games already rescored are kept.
    let (first, mut file, version) = open_to_finish(&opts.out)?;
    if first > games.len() as u64 {
        return Err(format!(
            "{} already holds {first} games, more than the {} to rescore",
            opts.out.display(),
            games.len()
        ));
    }
    let started = Instant::now();
    let next = AtomicU64::new(first);
    let (tx, rx) = mpsc::channel::<(u64, Result<(GameRecord, u64, u64), String>)>();
    let mut summary = Summary {
        resumed_from: first,
        ..Summary::default()
    };
    summary.games = std::thread::scope(|s| {
        for _ in 0..opts.threads {
            let (tx, next, games) = (tx.clone(), &next, &games);
            s.spawn(move || {
                let pool = ThreadPool::new(1, Shared::default());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i as usize) else {
                        break;
                    };
                    let rescored = rescore_game(game, opts, &mut OnPool(&pool));
                    if tx.send((i, Ok(rescored))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let total = games.len() as u64;
        let (rescored, changed) = (&mut summary.rescored, &mut summary.changed);
        write_in_order(
            (&mut file, &opts.out),
            rx,
            (first, total),
            "rescore",
            |(game, n, c): (GameRecord, u64, u64)| {
                (*rescored, *changed) = (*rescored + n, *changed + c);
                (
                    game.encode_in(version),
                    format!("{} positions rescored", *rescored),
                )
            },
        )
    })?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// The whole games of the files, in order; damage is an error (rescoring
/// a damaged file would silently drop its tail).
fn read_games(files: &[PathBuf], limit: Option<usize>) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    for path in files {
        let bytes = read_bytes(path)?;
        if !crate::games::file::is_game_file(&bytes) {
            return Err(format!(
                "{} is no game file (32-byte records have no moves to replay)",
                path.display()
            ));
        }
        let parsed = parse(&bytes);
        if let Some(d) = &parsed.damage {
            return Err(d.describe(&path.display().to_string(), parsed.games.len()));
        }
        games.extend(parsed.games);
        if limit.is_some_and(|n| games.len() >= n) {
            break;
        }
    }
    games.truncate(limit.unwrap_or(usize::MAX));
    Ok(games)
}

/// One game with its trainable positions searched again by `searcher`;
/// returns the new record, the positions searched and how many scores
/// changed.
pub fn rescore_game(
    game: &GameRecord,
    opts: &Options,
    searcher: &mut dyn Searcher,
) -> (GameRecord, u64, u64) {
    let chess960 = fen::check_standard_castling(&game.start).is_err();
    let mut pos = Position::new(game.start.clone(), chess960);
    let limits = Limits {
        nodes: Some(opts.hard_nodes),
        soft_nodes: Some(opts.soft_nodes),
        ..Limits::default()
    };
    searcher.new_game();
    let filter = Filter {
        skip_plies: opts.skip_plies,
        ..Filter::default()
    };
    let (mut rescored, mut changed) = (0, 0);
    let mut plies = Vec::with_capacity(game.plies.len());
    for (ply, &(mv, old)) in game.plies.iter().enumerate() {
        let trainable = filter.unfit(ply, pos.board(), mv).is_none();
        let mut score = old;
        if trainable {
            let found = searcher.search(&pos, limits.clone(), &Settings::default());
            score = stored_score(white_view(&pos, found.score));
            rescored += 1;
            changed += u64::from(score != old);
        }
        plies.push((mv, score));
        pos.play(mv);
    }
    let new = GameRecord {
        start: game.start.clone(),
        result: game.result,
        plies,
    };
    debug_assert_eq!(new.plies.len(), game.plies.len());
    (new, rescored, changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::game::{GameConfig, OnPool, play};
    use cutoff_engine::board::{Board, moves};

    fn options(threads: usize) -> Options {
        Options {
            files: Vec::new(),
            out: PathBuf::new(),
            games: None,
            soft_nodes: 300,
            hard_nodes: 3000,
            skip_plies: 8,
            threads,
        }
    }

    /// A short self-play game at a few hundred nodes a move.
    fn quick_game(seed: u64, index: u64, pool: &ThreadPool) -> Result<GameRecord, String> {
        let config = GameConfig {
            soft_nodes: 100,
            hard_nodes: 1000,
            verify_depth: 2,
            ..GameConfig::default()
        };
        play(&config, &[Board::default()], seed, index, &mut OnPool(pool)).map(|(game, _)| game)
    }

    #[test]
    fn rescoring_keeps_moves_and_result_and_rescores_trainable_plies() {
        let pool = ThreadPool::new(1, Shared::default());
        let game = quick_game(5, 0, &pool).expect("a game");
        let (new, rescored, _) = rescore_game(&game, &options(1), &mut OnPool(&pool));
        assert_eq!(new.start, game.start);
        assert_eq!(new.result, game.result);
        assert!(rescored > 0);
        let mut trainable = 0;
        game.replay(|ply, board, mv, _| {
            assert_eq!(mv, new.plies[ply].0);
            if ply < 8 {
                assert_eq!(
                    game.plies[ply].1, new.plies[ply].1,
                    "opening ply {ply} kept"
                );
            }
            trainable += u64::from(
                ply >= 8
                    && board.checkers().is_empty()
                    && mv.promotion.is_none()
                    && !moves::is_capture(board, mv),
            );
        });
        assert_eq!(rescored, trainable);
        // Deterministic: the same game rescored again on a used pool.
        let (again, _, _) = rescore_game(&game, &options(1), &mut OnPool(&pool));
        assert_eq!(again, new);
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("cutoff-rescore-{}-{name}", std::process::id()))
    }

    #[test]
    fn threads_do_not_change_the_bytes_and_damage_is_an_error() {
        let pool = ThreadPool::new(1, Shared::default());
        let mut bytes = crate::games::header().to_vec();
        for i in 0..3 {
            let game = quick_game(9, i, &pool).expect("a game");
            bytes.extend(game.encode());
        }
        let input = temp("in.games");
        std::fs::write(&input, &bytes).unwrap();
        let mut outputs = Vec::new();
        for threads in [1, 2] {
            let opts = Options {
                files: vec![input.clone()],
                out: temp(&format!("out{threads}.games")),
                games: Some(2),
                ..options(threads)
            };
            let summary = run(&opts).expect("rescores");
            assert_eq!(summary.games, 2);
            outputs.push(std::fs::read(&opts.out).unwrap());
            std::fs::remove_file(&opts.out).unwrap();
        }
        assert_eq!(outputs[0], outputs[1]);
        assert_eq!(parse(&outputs[0]).games.len(), 2);
        // A run stopped inside its second game is finished by the same command.
        let opts = Options {
            files: vec![input.clone()],
            out: temp("resumed.games"),
            games: Some(2),
            ..options(1)
        };
        let first_game = parse(&outputs[0]).games[0].encode();
        let mut cut = crate::games::header().to_vec();
        cut.extend(&first_game);
        cut.extend(&outputs[0][cut.len()..cut.len() + 9]);
        std::fs::write(&opts.out, &cut).unwrap();
        let summary = run(&opts).expect("resumes");
        assert_eq!((summary.resumed_from, summary.games), (1, 1));
        assert_eq!(std::fs::read(&opts.out).unwrap(), outputs[0]);
        std::fs::remove_file(&opts.out).unwrap();
        std::fs::write(&input, &bytes[..bytes.len() - 5]).unwrap();
        let opts = Options {
            files: vec![input.clone()],
            out: temp("damaged.games"),
            ..options(1)
        };
        assert!(run(&opts).is_err());
        std::fs::remove_file(&input).unwrap();
        let _ = std::fs::remove_file(&opts.out);
    }
}
