//! What a search is asked (`SearchJob`: the root, the `go` limits and the
//! engine's settings) and what it answers (`SearchResult`).

use std::sync::Arc;
use std::time::Instant;

use super::score::Score;
use super::{config, strength};
use crate::board::{Move, Position};
use crate::eval::nnue::{self, Network};
use crate::tablebase::Syzygy;
use crate::time::Limits;

/// Settings of a search that come from engine options, not from `go`.
#[derive(Clone, Debug)]
pub struct Settings {
    pub move_overhead: u64,
    /// Milliseconds each move is expected to cost the clock beyond the
    /// search's own time (`time::lag`); every time plan is that much
    /// shorter. 0 outside of games.
    pub clock_lag: u64,
    pub multipv: usize,
    /// Threads of the pool that searches (the `Threads` option); a pool
    /// is made with this many, and a search uses the pool's threads.
    pub threads: usize,
    pub config: config::SearchConfig,
    /// The evaluation network; `None` for the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
    /// Syzygy tablebases; `None` leaves the search as without them.
    pub syzygy: Option<Syzygy>,
    /// A strength limit (`UCI_LimitStrength`); `None` for full strength.
    pub strength: Option<strength::Strength>,
    /// `nodestime`: time is counted in nodes, this many a millisecond
    /// (`time::nodestime`); `None` for the wall clock.
    pub nodes_per_ms: Option<u64>,
    /// `Contempt`, raw centipawns: a draw by rule or stalemate scores this
    /// much below 0 for the root's side to move, above 0 for the other.
    pub contempt: Score,
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
            nodes_per_ms: None,
            contempt: 0,
        }
    }
}

/// One search: where, how far, with what, and when `go` arrived (the clock
/// runs from then, so the time to wake the threads is charged too).
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub root: Position,
    pub limits: Limits,
    pub settings: Settings,
    pub start: Instant,
}

impl SearchJob {
    /// A search of `root` under `limits` whose clock starts now.
    pub fn new(root: Position, limits: Limits, settings: Settings) -> Self {
        Self {
            root,
            limits,
            settings,
            start: Instant::now(),
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
