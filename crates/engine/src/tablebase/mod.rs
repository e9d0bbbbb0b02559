//! Syzygy endgame tablebases through pyrrhic-rs (see docs/tablebase.md).
//!
//! `tables` opens and probes a set of tables, `adapter` lends cozy-chess's
//! move generation to the prober, `root` picks the root moves that keep the
//! best result, and `cli` is the `cutoff tb` command. The search's own probe
//! is step 4 of the search's node (`search::node`).

mod adapter;
pub mod cli;
pub mod options;
pub mod root;
pub mod tables;

use std::sync::Arc;

pub use tables::{RootEntry, RootProbe, Tablebase, Wdl};

/// Tablebase use during a search, from the `Syzygy*` options.
#[derive(Clone, Debug)]
pub struct Syzygy {
    pub tables: Arc<Tablebase>,
    /// Probe inside the search only from this remaining depth on
    /// (positions with fewer pieces than `probe_limit` are probed at any depth).
    pub probe_depth: i32,
    /// Probe positions with at most this many pieces.
    pub probe_limit: u32,
    /// Count cursed wins and blessed losses as draws.
    pub rule50: bool,
}

impl Syzygy {
    /// Defaults of the UCI options, as Stockfish's.
    pub fn new(tables: Arc<Tablebase>) -> Self {
        Self {
            tables,
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }

    /// The most pieces a probe may see: the option and the tables' reach.
    pub fn cardinality(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces())
    }
}
