//! The search's `info` lines: each line of a completed iteration, the
//! aspiration bounds and a finished game's score. A line's score goes
//! through the root's certain outcome (`outcome`): a root drawn by rule
//! shows a draw, a root in the tables each move's tablebase result. Also
//! the root's bookkeeping while its moves are searched: each move's result
//! and the `currmove` lines.

use std::sync::atomic::Ordering;

use super::info::{Bound, Info, Outcome};
use super::outcome::RootOutcome;
use super::params::BOUND_INFO_AFTER_MS;
use super::score::{INFINITE, Score, UciScore};
use super::shared::Shared;
use super::thread::Worker;
use crate::board::{Move, Position};

/// Prints one `info` line per PV line of the finished iteration.
pub(crate) fn report(w: &mut Worker, depth: u32, multipv: usize, bound: Bound) {
    for i in 0..multipv {
        let rm = &w.root_moves[i];
        let (score, d) = if rm.score == -INFINITE {
            (rm.prev_score, depth.saturating_sub(1).max(1))
        } else {
            (rm.score, depth)
        };
        if score == -INFINITE {
            continue;
        }
        let info = make_info(w, d, i, score, bound, &w.root_moves[i].pv.clone());
        if let Some(r) = w.reporter.as_mut() {
            r.info(&info);
        }
    }
}

/// Reports an aspiration fail (only in longer searches, to limit output).
pub(crate) fn report_bound(w: &mut Worker, depth: u32, bound: Bound) {
    if !w.is_main() || w.clock.elapsed_ms() < BOUND_INFO_AFTER_MS {
        return;
    }
    let rm = &w.root_moves[w.pv_idx];
    let (score, pv) = (rm.score, rm.pv.clone());
    let info = make_info(w, depth, w.pv_idx, score, bound, &pv);
    if let Some(r) = w.reporter.as_mut() {
        r.info(&info);
    }
}

fn make_info(
    w: &Worker,
    depth: u32,
    pv_idx: usize,
    score: Score,
    bound: Bound,
    pv: &[Move],
) -> Info {
    let ms = w.clock.elapsed_ms();
    let nodes = w.total_nodes();
    let (score, bound, certain) = shown_score(&w.outcome, pv, score, bound);
    Info {
        depth,
        seldepth: w.root_moves[pv_idx].seldepth.max(w.seldepth) as u32,
        multipv: pv_idx + 1,
        score,
        bound,
        certain,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: w.shared.tt.hashfull(),
        tbhits: tbhits(w.shared, w.syzygy.is_some()),
        time_ms: ms,
        pv: pv_to_uci(&w.pos, pv),
    }
}

/// The score, bound and certain result shown for the root line `pv` that
/// the search scored `score`.
pub(crate) fn shown_score(
    outcome: &RootOutcome,
    pv: &[Move],
    score: Score,
    bound: Bound,
) -> (UciScore, Bound, Option<Outcome>) {
    let (score, certain) = outcome.shown(pv.first().copied(), score);
    // A certain result is exact, whatever window the search used.
    let bound = if certain.is_some() {
        Bound::Exact
    } else {
        bound
    };
    (UciScore::from(score), bound, certain)
}

/// The score of a finished game: mated (in check) or stalemated, no PV.
pub(crate) fn game_over_info(root: &Position, shared: &Shared) -> Info {
    let mated = !root.board().checkers().is_empty();
    let (score, certain) = if mated {
        (UciScore::Mate(0), Outcome::Loss)
    } else {
        (UciScore::Cp(0), Outcome::Draw)
    };
    Info {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score,
        bound: Bound::Exact,
        certain: Some(certain),
        nodes: 0,
        nps: 0,
        hashfull: shared.tt.hashfull(),
        tbhits: None,
        time_ms: 0,
        pv: Vec::new(),
    }
}

/// Tablebase hits for `info`, when tables are in use.
pub(crate) fn tbhits(shared: &Shared, tb: bool) -> Option<u64> {
    tb.then(|| shared.tbhits.load(Ordering::Relaxed))
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

/// The root's bookkeeping during the move loop.
impl Worker<'_> {
    /// Records a root move's result: its score if it is the first or beats
    /// alpha, otherwise "worse than the best" so sorting keeps it behind.
    pub(super) fn update_root_move(
        &mut self,
        mv: Move,
        score: Score,
        alpha: Score,
        move_count: usize,
        nodes: u64,
    ) {
        let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == mv) else {
            return;
        };
        rm.nodes += nodes;
        if move_count == 1 || score > alpha {
            rm.score = score;
            rm.seldepth = self.seldepth;
            rm.pv.clear();
            rm.pv.push(mv);
            // Disjoint fields: the child's line is read in place, not copied.
            rm.pv.extend_from_slice(self.pv.line(1));
        } else {
            rm.score = -INFINITE;
        }
    }

    pub(super) fn report_currmove(&mut self, mv: Move, number: usize) {
        let text = self.pos.uci(mv);
        let depth = self.root_depth as u32;
        if let Some(r) = self.reporter.as_mut() {
            r.currmove(depth, &text, number + self.pv_idx);
        }
    }
}
