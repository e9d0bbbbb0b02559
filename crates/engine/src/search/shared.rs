//! What every thread of a search shares: the transposition table, the
//! signals (stop, pondering, ponderhit) and the counters. The thread pool
//! owns it; everything else a thread needs is its own (`ThreadData`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::tt;

/// Hash size of a `Shared::default()`: enough for short searches (tests,
/// datagen, the lab); the engine sizes its table from the Hash option.
pub const DEFAULT_HASH_MB: usize = 1;

/// What the search threads share.
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
