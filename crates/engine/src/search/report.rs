//! The search's `info` lines: each line of a completed iteration, the
//! aspiration bounds and a finished game's score. A line's score goes
//! through the root's certain outcome (`outcome`): a root drawn by rule
//! shows a draw, a root in the tables each move's tablebase result.

use std::sync::atomic::Ordering;

use super::info::{Bound, Info, Outcome};
use super::outcome::RootOutcome;
use super::params::BOUND_INFO_AFTER_MS;
use super::score::{INFINITE, Score, UciScore};
use super::shared::Shared;
use super::thread::{Context, ThreadData};
use crate::board::{Move, Position};

/// Prints one `info` line per PV line of the finished iteration.
pub(crate) fn report(td: &ThreadData, cx: &mut Context, depth: u32, multipv: usize, bound: Bound) {
    for i in 0..multipv {
        let rm = &td.root.moves[i];
        let (score, d) = if rm.score == -INFINITE {
            (rm.prev_score, depth.saturating_sub(1).max(1))
        } else {
            (rm.score, depth)
        };
        if score == -INFINITE {
            continue;
        }
        let info = make_info(td, cx, d, i, score, bound, &rm.pv);
        if let Some(r) = cx.reporter.as_mut() {
            r.info(&info);
        }
    }
}

/// Reports an aspiration fail (only in longer searches, to limit output).
pub(crate) fn report_bound(td: &ThreadData, cx: &mut Context, depth: u32, bound: Bound) {
    if !td.is_main() || cx.clock.elapsed_ms() < BOUND_INFO_AFTER_MS {
        return;
    }
    let pv_idx = td.root.pv_idx;
    let rm = &td.root.moves[pv_idx];
    let info = make_info(td, cx, depth, pv_idx, rm.score, bound, &rm.pv);
    if let Some(r) = cx.reporter.as_mut() {
        r.info(&info);
    }
}

fn make_info(
    td: &ThreadData,
    cx: &Context,
    depth: u32,
    pv_idx: usize,
    score: Score,
    bound: Bound,
    pv: &[Move],
) -> Info {
    let ms = cx.clock.elapsed_ms();
    let nodes = td.total_nodes(cx.shared);
    let (score, bound, certain) = shown_score(&cx.task.outcome, pv, score, bound);
    Info {
        depth,
        seldepth: td.root.moves[pv_idx].seldepth.max(td.counters.seldepth) as u32,
        multipv: pv_idx + 1,
        score,
        bound,
        certain,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: cx.shared.tt.hashfull(),
        tbhits: tbhits(cx.shared, td.syzygy.is_some()),
        time_ms: ms,
        pv: pv_to_uci(&td.pos, pv),
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
