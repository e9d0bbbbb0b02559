//! What `go` asks for: depth, nodes, time or clock, mate, root-move subset.

use crate::board::{Color, Move};

/// Limits of one search. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No new iteration starts once this many nodes are searched (the
    /// search still stops at `nodes`): node-limited play whose moves get
    /// whole iterations, as datagen uses.
    pub soft_nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(d: u32) -> Self {
        Self {
            depth: Some(d),
            ..Self::default()
        }
    }

    /// A clock of `wtime` and `btime` milliseconds, `inc` each per move.
    pub fn clocks(wtime: u64, btime: u64, inc: u64) -> Self {
        Self {
            wtime: Some(wtime),
            btime: Some(btime),
            winc: Some(inc),
            binc: Some(inc),
            ..Self::default()
        }
    }

    /// `side`'s clock and increment (0 when not given); no clock, `None`.
    pub fn clock_of(&self, side: Color) -> Option<(u64, u64)> {
        let (time, inc) = match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        Some((time?, inc.unwrap_or(0)))
    }
}
