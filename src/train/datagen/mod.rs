//! `cutoff datagen`: self-play games that label quiet positions with the
//! search score and the game result, as training data for the tuner (and
//! later a neural network). See [`format`] for the file layout.
//!
//! Each finished game is appended with a single write, so stopping the
//! program at any moment leaves a valid file; running it again appends more
//! games (with a seed mixed with the file size, so they are new games).

pub mod format;
pub mod game;

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::ProgressBar;

use crate::board::{Board, fen};
use crate::progress;
use format::RECORD_SIZE;
use game::{GameConfig, Rng};

/// What `cutoff datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub out: PathBuf,
    pub games: u64,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    pub openings: Option<PathBuf>,
    pub random_plies: usize,
    /// Play with the hand-crafted evaluation instead of the network.
    pub hand_crafted: bool,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    pub seconds: f64,
}

/// Shared between the game threads.
struct Sink {
    file: Mutex<File>,
    games_started: AtomicU64,
    games_done: AtomicU64,
    positions: AtomicU64,
}

/// Runs datagen; errors (bad paths, bad opening file) are returned as text.
pub fn run(opts: &Options) -> Result<Summary, String> {
    if opts.nodes == 0 || opts.threads == 0 {
        return Err("--nodes and --threads must be at least 1".into());
    }
    let openings = match &opts.openings {
        Some(path) => read_openings(path)?,
        None => vec![Board::default()],
    };
    let existing = prepare_file(&opts.out)?;
    let file = OpenOptions::new()
        .append(true)
        .open(&opts.out)
        .map_err(|e| format!("cannot open {}: {e}", opts.out.display()))?;
    let sink = Sink {
        file: Mutex::new(file),
        games_started: AtomicU64::new(0),
        games_done: AtomicU64::new(0),
        positions: AtomicU64::new(0),
    };
    let bar = progress::bar(
        opts.games,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (eta {eta})",
    );
    let started = Instant::now();
    let config = GameConfig {
        nodes: opts.nodes,
        random_plies: opts.random_plies,
        hand_crafted: opts.hand_crafted,
    };
    std::thread::scope(|s| {
        for t in 0..opts.threads {
            let seed = opts.seed ^ existing.wrapping_mul(0x9E37_79B9) ^ ((t as u64) << 48);
            let (sink, bar, config, openings) = (&sink, &bar, &config, &openings);
            s.spawn(move || worker(seed, opts.games, config, openings, sink, bar, started));
        }
    });
    bar.finish();
    let summary = Summary {
        games: sink.games_done.load(Ordering::Relaxed),
        positions: sink.positions.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(summary)
}

fn worker(
    seed: u64,
    games: u64,
    config: &GameConfig,
    openings: &[Board],
    sink: &Sink,
    bar: &ProgressBar,
    started: Instant,
) {
    let mut rng = Rng::new(seed);
    while sink.games_started.fetch_add(1, Ordering::Relaxed) < games {
        let start = &openings[rng.below(openings.len())];
        let records = loop {
            if let Some(r) = game::play(start, config, &mut rng) {
                break r;
            }
        };
        if let Err(e) = write_game(sink, &records) {
            eprintln!("error: {e}");
            sink.games_started.store(games, Ordering::Relaxed);
            return;
        }
        let done = sink.games_done.fetch_add(1, Ordering::Relaxed) + 1;
        let positions = sink
            .positions
            .fetch_add((records.len() / RECORD_SIZE) as u64, Ordering::Relaxed)
            + (records.len() / RECORD_SIZE) as u64;
        let rate = positions as f64 / started.elapsed().as_secs_f64().max(1e-3);
        bar.set_position(done);
        bar.set_message(format!("{positions} positions, {rate:.0} pos/s"));
        if bar.is_hidden() && done.is_multiple_of(100) {
            eprintln!("datagen: {done} games, {positions} positions, {rate:.0} pos/s");
        }
    }
}

/// Appends one game's records in a single write and flushes.
fn write_game(sink: &Sink, records: &[u8]) -> Result<(), String> {
    let mut file = sink.file.lock().unwrap_or_else(|e| e.into_inner());
    file.write_all(records)
        .and_then(|_| file.flush())
        .map_err(|e| format!("cannot write data: {e}"))
}

/// Creates the file if needed and cuts off a partial record left by a write
/// that was interrupted; returns the number of whole records already there.
fn prepare_file(path: &PathBuf) -> Result<u64, String> {
    let len = match fs::metadata(path) {
        Ok(m) => m.len(),
        Err(_) => {
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            0
        }
    };
    let whole = len / RECORD_SIZE as u64 * RECORD_SIZE as u64;
    if whole != len {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        f.set_len(whole)
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
        eprintln!("datagen: dropped {} bytes of a cut-off record", len - whole);
    }
    Ok(whole / RECORD_SIZE as u64)
}

/// Reads start positions: one FEN or EPD line each (the first four fields).
fn read_openings(path: &PathBuf) -> Result<Vec<Board>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut boards = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = fen::parse_fen(&fields.join(" "))
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        boards.push(board);
    }
    if boards.is_empty() {
        return Err(format!("{} has no positions", path.display()));
    }
    Ok(boards)
}
