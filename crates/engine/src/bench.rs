//! `bench`: a fixed set of positions searched to a fixed depth from a fresh
//! state. Its node count is the signature of the search (any change in search
//! behaviour changes it) and its speed is the engine's nps. OpenBench scans the
//! last line, `Bench: <N> nodes <M> nps`, so nothing may follow it. The
//! table, the threads, the limit and the positions can be chosen, as with
//! Stockfish's `bench` (`Spec`).
//!
//! `speedtest` (`speedtest.rs`): the same positions for a fixed time each.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::Position;
use crate::eval::nnue::{self, Network};
use crate::search::info::Silent;
use crate::search::{SearchJob, Settings, Shared, ThreadPool};
use crate::time::Limits;

pub mod progress;
mod speedtest;
pub use speedtest::{SPEEDTEST_SECONDS, SpeedResult, SpeedtestArgs, speedtest, speedtest_main};

/// Hash size of each bench search (fixed, so the node count is too).
pub const BENCH_HASH_MB: usize = 16;

/// Depth each bench position is searched to.
pub const DEFAULT_DEPTH: u32 = 11;

/// Openings, middlegames (the Bratko-Kopec test), tactics (from WAC) and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - -",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - -",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq -",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - -",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - -",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - -",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - -",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - -",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - -",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - -",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - -",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - -",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - -",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - -",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq -",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - -",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - -",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - -",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - -",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - -",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - -",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq -",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - -",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -",
    "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq -",
    "r1b1r1k1/pp1n1pbp/1qp3p1/3p4/1B1P4/Q3PN2/PP2BPPP/R4RK1 w - -",
    "6r1/3Pn1qk/p1p1P1rp/2Q2p2/2P5/1P4P1/P3R2P/5RK1 b - -",
    "3rr1k1/pp3pp1/4b3/8/2P1B2R/6QP/P3q1P1/5R1K w - -",
    "2Q2n2/2R4p/1p1qpp1k/8/3P3P/3B2P1/5PK1/r7 w - -",
    "1k6/ppp4p/1n2pq2/1N2Rb2/2P2Q2/8/P4KPP/3r1B2 b - -",
    "r2q3n/ppp2pk1/3p4/5Pr1/2NP1Qp1/2P2pP1/PP3K2/4R2R w - -",
    "r3kbnr/p4ppp/2p1p3/8/Q1B3b1/2N1B3/PP3PqP/R3K2R w KQkq -",
    "r1b2rk1/ppqn1p1p/2n1p1p1/2b3N1/2N5/PP1BP3/1B3PPP/R2QK2R w KQ -",
    "QR2rq1k/2p3p1/3p1pPp/8/4P3/8/P1r3PP/1R4K1 b - -",
    "2r1r2k/1q3ppp/p2Rp3/2p1P3/6QB/p3P3/bP3PPP/3R2K1 w - -",
    "r1b1r1k1/pp1nqp2/2p1p1pp/8/4N3/P1Q1P3/1P3PPP/1BRR2K1 w - -",
    "6k1/p1B1b2p/2b3r1/2p5/4p3/1PP1N1Pq/P2R1P2/3Q2K1 b - -",
    "6k1/2p3p1/1p1p1nN1/1B1P4/4PK2/8/2r3b1/7R w - -",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/8/8/4k3/8/R3K3 w - - 0 1",
    "1k1K4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "3k4/8/8/8/8/8/3PK3/r7 b - - 0 1",
    "8/5pk1/6p1/8/1r5P/5PK1/8/R7 w - - 0 1",
    "8/8/2b5/4k3/8/3KB3/5N2/8 w - - 0 1",
];

/// What a bench searches each position to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    /// Milliseconds.
    Movetime(u64),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Movetime(ms) => write!(f, "movetime {ms} ms"),
        }
    }
}

/// One bench run: the table, the threads, the limit of each search, the
/// positions (`None`: the built-in `POSITIONS`; else a file of FENs) and
/// the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub hash_mb: usize,
    pub threads: usize,
    pub limit: Limit,
    pub fen_file: Option<String>,
    /// As `Settings::network`: `None` for the hand-crafted evaluation. The
    /// embedded network's count is the one a commit's `Bench:` line and
    /// OpenBench read.
    pub network: Option<Arc<Network>>,
}

impl Default for Spec {
    /// `cutoff bench`: what OpenBench runs, whose node count is the
    /// search's signature.
    fn default() -> Self {
        Self {
            hash_mb: BENCH_HASH_MB,
            threads: 1,
            limit: Limit::Depth(DEFAULT_DEPTH),
            fen_file: None,
            network: Some(nnue::default_network()),
        }
    }
}

/// The words that name a limit type, as in Stockfish's `bench`.
const LIMIT_TYPES: &[&str] = &["depth", "nodes", "movetime"];

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("bench: {what} needs a number, got '{}'", clip(text)))
}

fn clip(text: &str) -> String {
    text.chars().take(80).collect()
}

impl Spec {
    /// The arguments of `bench` after the command, as Stockfish's: none for
    /// the defaults; one, a depth (`bench 13`); more, Stockfish's order
    /// `hash threads limit [fen file|default] [depth|nodes|movetime]` (the
    /// last two in either order; the limit is a depth unless a type says
    /// otherwise).
    pub fn from_words(words: &[&str]) -> Result<Self, String> {
        let mut spec = Self::default();
        match words {
            [] => {}
            [depth] => spec.limit = Limit::Depth(number(depth, "depth")?),
            [hash, threads, rest @ ..] => {
                spec.hash_mb = number(hash, "hash")?;
                spec.threads = number(threads, "threads")?;
                if let Some((limit, rest)) = rest.split_first() {
                    let mut kind = None;
                    for &word in rest {
                        if LIMIT_TYPES.contains(&word) && kind.is_none() {
                            kind = Some(word);
                        } else if !LIMIT_TYPES.contains(&word) && spec.fen_file.is_none() {
                            spec.fen_file = Some(word.to_string());
                        } else {
                            return Err(format!("bench: unexpected argument '{}'", clip(word)));
                        }
                    }
                    if spec.fen_file.as_deref() == Some("default") {
                        spec.fen_file = None;
                    }
                    spec.limit = Self::limit(kind.unwrap_or("depth"), limit)?;
                }
            }
        }
        spec.check()?;
        Ok(spec)
    }

    /// The limit of type `kind` ("depth", "nodes", "movetime") and value `text`.
    pub fn limit(kind: &str, text: &str) -> Result<Limit, String> {
        Ok(match kind {
            "depth" => Limit::Depth(number(text, "depth")?),
            "nodes" => Limit::Nodes(number(text, "nodes")?),
            "movetime" => Limit::Movetime(number(text, "movetime")?),
            other => {
                return Err(format!(
                    "bench: unknown limit type '{}' (depth, nodes, movetime)",
                    clip(other)
                ));
            }
        })
    }

    /// Refuses sizes the engine's options refuse, and empty limits.
    pub fn check(&self) -> Result<(), String> {
        use crate::engine::options::{MAX_HASH_MB, MAX_THREADS};
        if !(1..=MAX_HASH_MB as usize).contains(&self.hash_mb) {
            return Err(format!("bench: hash must be 1 to {MAX_HASH_MB} MB"));
        }
        if !(1..=MAX_THREADS as usize).contains(&self.threads) {
            return Err(format!("bench: threads must be 1 to {MAX_THREADS}"));
        }
        if matches!(
            self.limit,
            Limit::Depth(0) | Limit::Nodes(0) | Limit::Movetime(0)
        ) {
            return Err(format!("bench: {} searches nothing", self.limit));
        }
        Ok(())
    }

    /// The FENs to search: the built-in ones, or the file's. A file holds
    /// one position a line, a FEN or an EPD line (its first four fields);
    /// blank lines and lines starting with `#` are skipped.
    pub fn fens(&self) -> Result<Vec<String>, String> {
        let Some(path) = &self.fen_file else {
            return Ok(POSITIONS.iter().map(|f| f.to_string()).collect());
        };
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("bench: cannot read {path}: {e}"))?;
        let mut fens = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let epd = line
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let fen = [line.to_string(), epd]
                .into_iter()
                .find(|f| Position::from_fen(f, false).is_ok())
                .ok_or_else(|| {
                    format!(
                        "bench: {path} line {}: not a position: {}",
                        i + 1,
                        clip(line)
                    )
                })?;
            fens.push(fen);
        }
        if fens.is_empty() {
            return Err(format!("bench: {path} holds no position"));
        }
        Ok(fens)
    }

    fn limits(&self) -> Limits {
        match self.limit {
            Limit::Depth(d) => Limits::depth(d),
            Limit::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Limit::Movetime(ms) => Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
        }
    }

    fn settings(&self) -> Settings {
        Settings {
            threads: self.threads,
            // A movetime is the search's whole time.
            move_overhead: 0,
            network: self.network.clone(),
            ..Settings::default()
        }
    }
}

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub positions: usize,
    pub nodes: u64,
    /// Milliseconds spent searching (the clearing between positions not counted).
    pub ms: u64,
}

/// Searches every position of `spec` from a fresh state (an empty table,
/// no histories) and returns the node total.
pub fn measure(spec: &Spec) -> Result<BenchResult, String> {
    let fens = spec.fens()?;
    let shared = Shared::with_hash(spec.hash_mb)?;
    // The pool's threads, as in a game.
    let pool = ThreadPool::new(spec.threads, shared);
    let (limits, settings) = (spec.limits(), spec.settings());
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for fen in &fens {
        let Ok(pos) = Position::from_fen(fen, false) else {
            continue;
        };
        // The clock runs during the searches only, as in Stockfish's bench:
        // emptying the table and the histories before each position is the
        // cost of a new game, not of the nodes.
        pool.new_game();
        let job = SearchJob::new(pos, limits.clone(), settings.clone());
        let started = Instant::now();
        nodes += pool.search(job, &mut Silent::default()).nodes;
        searching += started.elapsed();
    }
    Ok(BenchResult {
        positions: fens.len(),
        nodes,
        ms: searching.as_millis() as u64,
    })
}

/// Runs the bench and prints its summary through `print`, one line at a
/// time; the last is OpenBench's `Bench: <N> nodes <M> nps`.
pub fn run(spec: &Spec, print: &mut dyn FnMut(&str)) -> Result<(), String> {
    let r = measure(spec)?;
    let nps = r.nodes * 1000 / r.ms.max(1);
    let default = Spec::default();
    let mut setup = String::new();
    if (spec.hash_mb, spec.threads) != (default.hash_mb, default.threads) {
        setup = format!(", Hash {} MB, Threads {}", spec.hash_mb, spec.threads);
    }
    print(&format!(
        "{} positions, {}{setup}, {} ms",
        r.positions, spec.limit, r.ms
    ));
    print(&format!("Bench: {} nodes {nps} nps", r.nodes));
    Ok(())
}

/// `cutoff bench`: see `Spec::from_words` for the arguments in Stockfish's
/// order; the flags say the same by name, and win over them.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// None: depth 11, Hash 16, one thread, the built-in positions. One:
    /// the depth. More, as Stockfish's: HASH THREADS LIMIT [FEN_FILE|default]
    /// [depth|nodes|movetime].
    args: Vec<String>,
    /// Transposition table in MB.
    #[arg(long)]
    hash: Option<usize>,
    /// Search threads.
    #[arg(long)]
    threads: Option<usize>,
    /// Search each position to this depth.
    #[arg(long, conflicts_with_all = ["nodes", "movetime"])]
    depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long, conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// The positions: a file of FENs (or EPD lines), one a line.
    #[arg(long)]
    fens: Option<String>,
    /// Use the hand-crafted evaluation instead of the network.
    #[arg(long, conflicts_with = "evalfile")]
    hand_crafted: bool,
    /// Evaluate with this network file instead of the embedded one.
    #[arg(long, value_name = "FILE")]
    evalfile: Option<String>,
}

impl BenchArgs {
    fn spec(&self) -> Result<Spec, String> {
        let words: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let mut spec = Spec::from_words(&words)?;
        spec.hash_mb = self.hash.unwrap_or(spec.hash_mb);
        spec.threads = self.threads.unwrap_or(spec.threads);
        if let Some(d) = self.depth {
            spec.limit = Limit::Depth(d);
        }
        if let Some(n) = self.nodes {
            spec.limit = Limit::Nodes(n);
        }
        if let Some(ms) = self.movetime {
            spec.limit = Limit::Movetime(ms);
        }
        if self.fens.is_some() {
            spec.fen_file = self.fens.clone();
        }
        if self.hand_crafted {
            spec.network = None;
        }
        if let Some(path) = &self.evalfile {
            spec.network = Some(Arc::new(nnue::file::load(std::path::Path::new(path))?));
        }
        spec.check()?;
        Ok(spec)
    }
}

pub fn main(a: BenchArgs) -> std::process::ExitCode {
    match a
        .spec()
        .and_then(|spec| run(&spec, &mut |line| println!("{line}")))
    {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::from(2)
        }
    }
}
