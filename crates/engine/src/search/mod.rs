//! The search: iterative deepening with aspiration windows (`driver`) over a
//! principal variation alpha-beta search (`alphabeta`, `quiescence`), with a
//! shared transposition table (`tt`), a staged move picker (`movepick`),
//! history heuristics (`history`, `correction`), pruning and reductions
//! (`pruning`, `lmr`), extensions (`extensions`), time management (`time`)
//! and Lazy SMP threads (`driver`, `thread`) on a persistent thread pool
//! (`pool`). The driver reports through `report`, which shows what
//! `outcome` knows for certain about the root (a draw by rule, tablebase
//! results). Helpers share the named per-node state of `node`; every
//! search number is in `params` (declared through `tunable`, so that a
//! `spsa` build can set them as UCI options). Every technique can be switched off through
//! `config::SearchConfig`.

pub(crate) mod alphabeta;
pub mod config;
pub(crate) mod correction;
pub(crate) mod driver;
pub(crate) mod extensions;
#[doc(hidden)]
pub mod history;
pub mod info;
pub mod limits;
pub(crate) mod lmr;
#[doc(hidden)]
pub mod movepick;
pub(crate) mod node;
pub(crate) mod outcome;
pub mod params;
pub mod pool;
pub(crate) mod pruning;
pub(crate) mod pv;
pub(crate) mod quiescence;
pub(crate) mod report;
pub mod score;
pub mod strength;
pub(crate) mod tbprobe;
pub(crate) mod thread;
pub(crate) mod time;
pub mod tt;
pub mod tunable;

pub use driver::{run, run_with};
pub use pool::{SearchJob, Team, ThreadPool};
pub use thread::ThreadData;
pub use time::Budget;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::{Move, Position};
use crate::eval::nnue::{self, Network};
use crate::tablebase::Syzygy;
use score::Score;

/// Stack size of search threads: deep recursion with large frames.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Hash size of a `Shared::default()`: enough for short searches (tests,
/// datagen, the lab); the engine sizes its table from the Hash option.
pub const DEFAULT_HASH_MB: usize = 1;

/// What the search threads share: the transposition table, the signals
/// (stop, pondering, ponderhit) and the counters (nodes, tablebase hits).
/// Everything else a thread needs is its own (`ThreadData`).
pub struct Shared {
    pub tt: tt::TranspositionTable,
    /// Nodes searched by all threads (each publishes its count periodically).
    pub nodes: AtomicU64,
    /// Tablebase probes that found the position (UCI `tbhits`).
    pub tbhits: AtomicU64,
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits are suspended until `ponderhit`.
    pub pondering: AtomicBool,
    /// Milliseconds after the start at which `ponderhit` arrived.
    pub ponderhit_ms: AtomicU64,
}

impl Default for Shared {
    fn default() -> Self {
        Self::with_hash(DEFAULT_HASH_MB).expect("a 1 MB table always fits")
    }
}

impl Shared {
    /// Shared state with a transposition table of `mb` megabytes.
    pub fn with_hash(mb: usize) -> Result<Self, String> {
        Ok(Self {
            tt: tt::TranspositionTable::new(mb)?,
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_ms: AtomicU64::new(0),
        })
    }

    /// Prepares for a new search: clears flags and counters, ages the table.
    pub fn reset(&self, pondering: bool) {
        self.nodes.store(0, Ordering::SeqCst);
        self.tbhits.store(0, Ordering::SeqCst);
        self.tt.new_search();
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.ponderhit_ms.store(0, Ordering::SeqCst);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Settings of a search that come from engine options, not from `go`.
#[derive(Clone, Debug)]
pub struct Settings {
    pub move_overhead: u64,
    /// Milliseconds each move is expected to cost the clock beyond the
    /// search's own time (`engine::lag`); every time plan is that much
    /// shorter. 0 outside of games.
    pub clock_lag: u64,
    pub multipv: usize,
    /// Threads of a `run`; the engine's `ThreadPool` has its own count.
    pub threads: usize,
    pub config: config::SearchConfig,
    /// The evaluation network; `None` for the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
    /// Syzygy tablebases; `None` leaves the search as without them.
    pub syzygy: Option<Syzygy>,
    /// A strength limit (`UCI_LimitStrength`); `None` for full strength.
    pub strength: Option<strength::Strength>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            move_overhead: 10,
            clock_lag: 0,
            multipv: 1,
            threads: 1,
            config: config::SearchConfig::ALL_ON,
            network: Some(nnue::default_network()),
            syzygy: None,
            strength: None,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

impl SearchResult {
    /// No move: nothing to search.
    pub fn none(nodes: u64) -> Self {
        Self {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes,
        }
    }
}

/// Formats a line of moves from `root` in UCI notation.
pub fn pv_to_uci(root: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if !pos.board().is_legal(mv) {
            break;
        }
        out.push(pos.uci(mv));
        pos.play(mv);
    }
    out
}
