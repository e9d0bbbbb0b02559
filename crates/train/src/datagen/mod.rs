//! `cutoff datagen`: self-play games written as whole-game records
//! ([`crate::games`]), the network's training data.
//!
//! Reproducible: game `i` of a run depends only on the options and `i`
//! (its own random generator, node limits, a fresh table and histories),
//! and games are written in index order, so the same command gives the same
//! bytes with any number of threads. Resumable: the file's whole games are
//! counted and a cut-off last one is dropped, so running the same command
//! again finishes the file as one uninterrupted run would have.
//! [`rescore`] searches the positions of existing games again the same way.

pub mod cli;
pub mod game;
pub mod genfens;
pub mod rescore;

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

use crate::games::{self, file::Damage};
use crate::progress;
use cutoff_engine::board::{Board, fen};
use cutoff_engine::search::{Shared, ThreadPool};
use game::{GameConfig, Spent};

/// What `cutoff datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub out: PathBuf,
    /// Games the file holds when the run is done (a resumed run plays the rest).
    pub games: u64,
    pub threads: usize,
    pub seed: u64,
    pub openings: Option<PathBuf>,
    pub game: GameConfig,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// Games already in the file when the run started.
    pub resumed_from: u64,
    /// Games this run wrote.
    pub games: u64,
    /// Plies (stored positions) this run wrote.
    pub positions: u64,
    pub seconds: f64,
    /// The nodes its searches cost.
    pub spent: Spent,
}

/// Runs datagen; errors (bad paths, a damaged file, bad openings) are text.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let g = &opts.game;
    check_limits(g.soft_nodes, g.hard_nodes, opts.threads)?;
    let openings = match &opts.openings {
        Some(path) => read_openings(path)?,
        None => vec![Board::default()],
    };
    let (first, mut file, version) = open_to_finish(&opts.out)?;
    let started = Instant::now();
    let next = Arc::new(AtomicU64::new(first));
    let failed = Arc::new(AtomicBool::new(false));
    let openings = Arc::new(openings);
    let (tx, rx) = mpsc::channel::<(u64, Result<(Vec<u8>, u64, Spent), String>)>();
    // A pool of one search thread per game thread, kept for all its games:
    // each game runs whole on that thread, with no hand-over per move (each
    // game starts it afresh).
    let pools: Vec<ThreadPool> = (0..opts.threads)
        .map(|_| {
            let pool = ThreadPool::new(1, Shared::default());
            let (tx, next, failed) = (tx.clone(), Arc::clone(&next), Arc::clone(&failed));
            let (openings, config) = (Arc::clone(&openings), opts.game.clone());
            let (seed, games) = (opts.seed, opts.games);
            pool.start(move |data, team| {
                let mut searcher = game::OnThread { data, team };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = game::play(&config, &openings, seed, i, &mut searcher)
                        .map(|(g, spent)| (g.encode_in(version), g.plies.len() as u64, spent));
                    if tx.send((i, game)).is_err() {
                        break;
                    }
                }
            });
            pool
        })
        .collect();
    drop(tx);
    let (mut plies, mut spent) = (0u64, Spent::default());
    let written = write_in_order(
        (&mut file, &opts.out),
        rx,
        (first, opts.games),
        "datagen",
        |(bytes, n, cost): (Vec<u8>, u64, Spent)| {
            spent.add(cost);
            plies += n;
            let rate = plies as f64 / started.elapsed().as_secs_f64().max(1e-3);
            (
                bytes,
                format!("{plies} positions this run, {rate:.0} pos/s"),
            )
        },
    );
    if written.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    drop(pools); // waits for their games to end
    let games = written?;
    if first + games < opts.games {
        return Err(format!(
            "a game thread stopped after {} of {} games: the file holds whole games, run again to finish it",
            first + games,
            opts.games
        ));
    }
    Ok(Summary {
        resumed_from: first,
        games,
        positions: plies,
        seconds: started.elapsed().as_secs_f64(),
        spent,
    })
}

/// The node limits and threads of a datagen or rescoring run make sense.
pub(crate) fn check_limits(soft: u64, hard: u64, threads: usize) -> Result<(), String> {
    if soft == 0 || hard < soft || threads == 0 {
        return Err(
            "--soft-nodes and --threads must be at least 1, --hard-nodes at least --soft-nodes"
                .into(),
        );
    }
    Ok(())
}

/// Writes items that come in numbered (from `first`, in any order) to
/// `file` in their order: `encode` gives an item's bytes and a progress
/// message; one write and a flush per item, so a stopped run leaves whole
/// games. Returns the items written. Shared by datagen and rescoring.
pub(crate) fn write_in_order<T>(
    (file, out): (&mut File, &Path),
    rx: mpsc::Receiver<(u64, Result<T, String>)>,
    (first, total): (u64, u64),
    label: &str,
    mut encode: impl FnMut(T) -> (Vec<u8>, String),
) -> Result<u64, String> {
    let bar = progress::bar(
        total,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (eta {eta})",
    );
    bar.set_position(first);
    let mut waiting = BTreeMap::new();
    let mut want = first;
    for (i, item) in rx {
        debug_assert!(i >= want && !waiting.contains_key(&i), "item {i} twice");
        waiting.insert(i, item?);
        while let Some(item) = waiting.remove(&want) {
            let (bytes, message) = encode(item);
            file.write_all(&bytes)
                .and_then(|_| file.flush())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            want += 1;
            bar.set_position(want);
            if bar.is_hidden() && want.is_multiple_of(100) {
                eprintln!("{label}: {want} games, {message}");
            }
            bar.set_message(message);
        }
    }
    bar.finish();
    Ok(want - first)
}

/// The game file prepared as [`prepare_file`] does, opened for appending,
/// with the number of whole games it holds and its format version (the
/// version its games are appended in).
pub(crate) fn open_to_finish(path: &Path) -> Result<(u64, File, u8), String> {
    let (first, version) = prepare_file(path)?;
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((first, file, version))
}

/// Creates the file with its header if needed, cuts off a game left
/// unfinished by an interrupted write, and returns the whole games there
/// and the file's version (a new file gets [`games::VERSION`]).
/// Any other damage is an error: a run never writes after bad bytes.
fn prepare_file(path: &Path) -> Result<(u64, u8), String> {
    let name = path.display().to_string();
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    let parsed = games::parse(&bytes);
    match &parsed.damage {
        Some(
            d @ Damage {
                truncated: false, ..
            },
        ) => {
            return Err(d.describe(&name, parsed.games.len()));
        }
        Some(d) => eprintln!(
            "datagen: dropped {} bytes of a game cut off at byte offset {}",
            bytes.len() - parsed.whole_bytes,
            d.offset
        ),
        None => {}
    }
    let mut keep = parsed.whole_bytes;
    if keep == 0 {
        fs::write(path, games::header()).map_err(|e| format!("cannot write {name}: {e}"))?;
        keep = games::HEADER_BYTES;
    } else {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {name}: {e}"))?;
        f.set_len(keep as u64)
            .map_err(|e| format!("cannot repair {name}: {e}"))?;
    }
    debug_assert!(keep >= games::HEADER_BYTES);
    Ok((parsed.games.len() as u64, parsed.version))
}

/// Reads start positions: one FEN or EPD line each (an EPD line's
/// operations are skipped).
pub(crate) fn read_openings(path: &Path) -> Result<Vec<Board>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut boards = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields: Vec<&str> = line.split_whitespace().take(6).collect();
        if fields.is_empty() || line.starts_with('#') {
            continue;
        }
        // A FEN's move counters, or an EPD line's operations after four fields.
        if !fields[4.min(fields.len())..]
            .iter()
            .all(|f| f.parse::<u32>().is_ok())
        {
            fields.truncate(4);
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
