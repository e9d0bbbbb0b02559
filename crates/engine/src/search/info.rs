//! What the search reports while it runs. The search fills these structs; the
//! UCI layer (or a test, or the lab) decides how to show them.

use super::score::UciScore;

/// Whether a reported score is exact or only a bound (aspiration fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A result known for certain, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: UciScore,
    pub bound: Bound,
    /// The line's result when it is certain (a finished game, a root drawn
    /// by rule, a tablebase result), whatever the score says.
    pub certain: Option<Outcome>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    /// Tablebase hits; `None` when no tables are in use.
    pub tbhits: Option<u64>,
    pub time_ms: u64,
    /// Moves in UCI notation, from the root.
    pub pv: Vec<String>,
}

/// Receives search output. Implementations must be cheap: they run on the
/// search thread.
pub trait Reporter: Send {
    /// A completed iteration (or an aspiration bound) for one PV line.
    fn info(&mut self, info: &Info);
    /// The root move being searched now (sent only after the first seconds).
    fn currmove(&mut self, _depth: u32, _mv: &str, _number: usize) {}
    /// Free text (UCI `info string`).
    fn string(&mut self, _text: &str) {}
    /// The final answer: best move and the expected reply, in UCI notation.
    fn bestmove(&mut self, _best: Option<&str>, _ponder: Option<&str>) {}
    /// Whether the search's progress (each iteration's `info`, `currmove`)
    /// is wanted at all: a reporter that drops it spares the search from
    /// building it (the PV's text, `hashfull`'s scan, the clock).
    fn wants_progress(&self) -> bool {
        true
    }
}

/// A reporter that keeps only the last info: for bench, tests and the lab.
#[derive(Default)]
pub struct Silent {
    pub last: Option<Info>,
}

impl Reporter for Silent {
    fn info(&mut self, info: &Info) {
        self.last = Some(info.clone());
    }
}

/// A reporter that wants nothing, so the search builds no progress
/// report: for self-play, where only the result counts.
pub struct Discard;

impl Reporter for Discard {
    fn info(&mut self, _info: &Info) {}

    fn wants_progress(&self) -> bool {
        false
    }
}

/// Keeps every info, in order: for tests that look at a whole search.
impl Reporter for Vec<Info> {
    fn info(&mut self, info: &Info) {
        self.push(info.clone());
    }
}
