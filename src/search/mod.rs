//! The search: iterative deepening over a negamax alpha-beta search.
//!
//! `run` is the driver: it deepens one ply at a time, reports each finished
//! iteration, and keeps the best move of the last complete (or partially
//! searched but improved) iteration. The tree search itself is in `alphabeta`.

pub mod alphabeta;
pub mod config;
pub mod info;
pub mod limits;
pub mod pv;
pub mod score;
pub mod time;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::board::{Move, Position};
use info::{Bound, Info, Reporter};
use limits::Limits;
use score::{Score, UciScore};
use time::Budget;

/// State shared between the UCI thread and the search thread(s).
#[derive(Debug, Default)]
pub struct Shared {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits are suspended until `ponderhit`.
    pub pondering: AtomicBool,
    /// Milliseconds after the start at which `ponderhit` arrived.
    pub ponderhit_ms: AtomicU64,
    /// When the current search was started (for `ponderhit` timing).
    go_time: Mutex<Option<Instant>>,
}

impl Shared {
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.ponderhit_ms.store(0, Ordering::SeqCst);
        *self.go_time.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// Milliseconds since the current search started.
    pub fn started_ms(&self) -> u64 {
        let t = *self.go_time.lock().unwrap_or_else(|e| e.into_inner());
        t.map_or(0, |t| t.elapsed().as_millis() as u64)
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
    pub config: config::SearchConfig,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            move_overhead: 10,
            multipv: 1,
            config: config::SearchConfig::ALL_ON,
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

/// When to stop: the clock started at `start`, with optional time and node limits.
#[derive(Clone, Debug)]
pub struct Clock {
    pub start: Instant,
    pub budget: Option<Budget>,
    pub node_limit: Option<u64>,
}

impl Clock {
    pub fn new(limits: &Limits, pos: &Position, settings: &Settings) -> Self {
        Self {
            start: Instant::now(),
            budget: Budget::new(limits, pos.side_to_move(), settings.move_overhead),
            node_limit: limits.nodes,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds counted against the budget: after `ponderhit` only.
    fn spent_ms(&self, shared: &Shared) -> Option<u64> {
        if shared.pondering.load(Ordering::Relaxed) {
            return None;
        }
        let since = shared.ponderhit_ms.load(Ordering::Relaxed);
        Some(self.elapsed_ms().saturating_sub(since))
    }

    /// Checked inside the search: hard time limit or node limit reached.
    pub fn hard_stop(&self, shared: &Shared, nodes: u64) -> bool {
        if self.node_limit.is_some_and(|n| nodes >= n) {
            return true;
        }
        match (self.budget, self.spent_ms(shared)) {
            (Some(b), Some(spent)) => spent >= b.hard,
            _ => false,
        }
    }

    /// Checked between iterations: the soft limit, scaled by `factor`.
    pub fn soft_stop(&self, shared: &Shared, factor: f64) -> bool {
        match (self.budget, self.spent_ms(shared)) {
            (Some(b), Some(spent)) => spent >= b.scaled_soft(factor),
            _ => false,
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

/// Runs an iterative-deepening search from `root` and returns the best move.
pub fn run(
    root: &Position,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let clock = Clock::new(limits, root, settings);
    let mut worker = alphabeta::Worker::new(root.clone(), shared, clock, limits);
    let max_depth = limits
        .depth
        .unwrap_or(score::MAX_PLY as u32 - 1)
        .clamp(1, score::MAX_PLY as u32 - 1);
    let mut result = SearchResult {
        best: worker.root_moves().first().copied(),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth {
        let score = worker.search_root(depth);
        if worker.stopped() && depth > 1 {
            break;
        }
        let pv = worker.root_pv();
        result.best = pv.first().copied().or(result.best);
        result.ponder = pv.get(1).copied();
        result.score = score;
        result.depth = depth;
        report(reporter, &worker, root, depth, score, &pv);
        if worker.stopped() || clock_says_stop(&worker, limits, shared, score) {
            break;
        }
    }
    result.nodes = worker.nodes();
    result
}

fn clock_says_stop(
    worker: &alphabeta::Worker,
    limits: &Limits,
    shared: &Shared,
    score: Score,
) -> bool {
    let mate_found = score::is_mate(score) && score > 0;
    if limits
        .mate
        .is_some_and(|m| mate_found && score::mate_moves(score) <= m as i32)
    {
        return true;
    }
    worker.clock().soft_stop(shared, 1.0)
}

fn report(
    reporter: &mut dyn Reporter,
    worker: &alphabeta::Worker,
    root: &Position,
    depth: u32,
    score: Score,
    pv: &[Move],
) {
    let ms = worker.clock().elapsed_ms();
    let nodes = worker.nodes();
    reporter.info(&Info {
        depth,
        seldepth: worker.seldepth() as u32,
        multipv: 1,
        score: UciScore::from(score),
        bound: Bound::Exact,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: 0,
        time_ms: ms,
        pv: pv_to_uci(root, pv),
    });
}
