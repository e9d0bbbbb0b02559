//! The search: iterative deepening with aspiration windows (`driver`) over a
//! principal variation alpha-beta search (`alphabeta`, `quiescence`), with a
//! shared transposition table (`tt`), a staged move picker (`movepick`),
//! history heuristics (`history`, `correction`), pruning and reductions
//! (`pruning`, `lmr`), extensions (`extensions`), time management (`time`)
//! and Lazy SMP threads (`driver`, `thread`). Helpers share the named
//! per-node state of `node`; every tunable is in `params`. Every technique
//! can be switched off through `config::SearchConfig`.

pub(crate) mod alphabeta;
pub mod config;
pub(crate) mod correction;
pub(crate) mod driver;
pub(crate) mod extensions;
pub(crate) mod history;
pub mod info;
pub mod limits;
pub(crate) mod lmr;
pub(crate) mod movepick;
pub(crate) mod node;
pub(crate) mod params;
pub(crate) mod pruning;
pub(crate) mod pv;
pub(crate) mod quiescence;
pub mod score;
pub mod strength;
pub(crate) mod tbprobe;
pub(crate) mod thread;
pub(crate) mod time;
pub mod tt;

pub use driver::run;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::board::{Move, Position};
use crate::eval::nnue::{self, Network};
use crate::tablebase::Syzygy;
use score::Score;

/// Stack size of search threads: deep recursion with large frames.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Hash size of a `Shared::default()`: enough for short searches (tests,
/// datagen, the lab); the engine sizes its table from the Hash option.
pub const DEFAULT_HASH_MB: usize = 1;

/// State shared between the UCI thread and the search threads: the
/// transposition table, the stop flag, node counts, pondering state.
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
    /// When the current search was started (for `ponderhit` timing).
    go_time: Mutex<Option<Instant>>,
    /// Each thread's history tables, kept from one search to the next (the
    /// moves of a game share most of their tree) until `ucinewgame`.
    histories: Mutex<Vec<Option<Box<history::Histories>>>>,
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
            go_time: Mutex::new(None),
            histories: Mutex::new(Vec::new()),
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
        *self.go_time.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// When `go` arrived (now, for a search started without `reset`).
    pub fn go_instant(&self) -> Instant {
        let t = *self.go_time.lock().unwrap_or_else(|e| e.into_inner());
        t.unwrap_or_else(Instant::now)
    }

    /// Milliseconds since the current search started.
    pub fn started_ms(&self) -> u64 {
        self.go_instant().elapsed().as_millis() as u64
    }

    /// Thread `id`'s histories from the previous search (fresh ones if none),
    /// with the killers of the old root's plies dropped.
    pub fn take_histories(&self, id: usize) -> Box<history::Histories> {
        let mut pool = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        let mut h = pool.get_mut(id).and_then(Option::take).unwrap_or_default();
        h.clear_all_killers();
        h
    }

    /// Keeps thread `id`'s histories for the next search.
    pub fn give_histories(&self, id: usize, h: Box<history::Histories>) {
        let mut pool = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() <= id {
            pool.resize_with(id + 1, || None);
        }
        pool[id] = Some(h);
    }

    /// Forgets the histories (`ucinewgame`).
    pub fn forget_histories(&self) {
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Settings of a search that come from engine options, not from `go`.
#[derive(Clone, Debug)]
pub struct Settings {
    pub move_overhead: u64,
    pub multipv: usize,
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
