//! The driver: iterative deepening with aspiration windows, MultiPV, time
//! management between iterations, and Lazy SMP.
//!
//! Iterative deepening searches depth 1, 2, 3, ... until time runs out. The
//! shallow iterations cost little (the tree grows by the branching factor per
//! ply) and fill the transposition table and histories, so each deeper
//! iteration is well ordered; and a best move is always ready.
//!
//! Aspiration windows: from depth `aspiration_min_depth()` on, the root is
//! searched with a narrow window around the previous score, which cuts more;
//! on a fail low or high the window widens and the search repeats.
//!
//! Lazy SMP: every thread runs the same iterative deepening on the same
//! position, sharing only the transposition table; they diverge by timing and
//! by what they find in the table, and help each other through it. The main
//! thread manages time, reports, and at the end picks the result of the
//! thread that got deepest (the best score breaks ties). The threads are the
//! persistent pool's (`pool`): each runs `search_thread` on the search's
//! `Task`, and thread 0 picks the result (`conclude`).

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::clock::Clock;
use super::info::{Bound, Info, Reporter};
use super::job::{SearchResult, Settings};
use super::outcome::RootOutcome;
use super::params::{aspiration_delta, aspiration_growth_pct, aspiration_min_depth};
use super::report::pv_to_uci;
use super::report::{game_over_info, report, report_bound, shown_score, tbhits};
use super::score::{INFINITE, MAX_PLY, Score, is_mate, mate_moves};
use super::shared::Shared;
use super::strength::Strength;
use super::thread::{Task, ThreadData, Worker};
use crate::board::{Move, Position};
use crate::time::{Iteration, Limits, Trend};

/// Prepared here, where the root is examined; defined beside the workers
/// that search it.
impl Task {
    /// The search of `root` with its clock running from `start`; `None`
    /// (reported to `reporter`) when the game is over there.
    pub fn new(
        root: &Position,
        limits: &Limits,
        settings: &Settings,
        shared: &Shared,
        start: Instant,
        reporter: &mut dyn Reporter,
    ) -> Option<Task> {
        shared.nodes.store(0, Ordering::Relaxed);
        let mut root_moves = root.legal_moves();
        if root_moves.is_empty() {
            reporter.info(&game_over_info(root, shared));
            return None;
        }
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        let (root_moves, outcome) = RootOutcome::examine(root, root_moves, settings);
        let hits = outcome.tb_moves() as u64;
        shared.tbhits.store(hits, Ordering::Relaxed);
        let clock = Clock::new(limits, root.board(), settings, start)
            .with_node_budget(settings.strength.map(|s| s.node_budget()));
        Some(Task {
            root: root.clone(),
            root_moves,
            outcome,
            limits: limits.clone(),
            settings: settings.clone(),
            clock,
        })
    }
}

/// What one thread found.
pub(crate) struct ThreadResult {
    depth: u32,
    seldepth: u32,
    score: Score,
    pv: Vec<Move>,
    /// True when the main thread printed this line as its last `info`.
    reported: bool,
    /// Under a strength limit, the main thread's root lines of its last
    /// completed iteration (score, line), best first.
    lines: Vec<(Score, Vec<Move>)>,
}

/// Thread `id`'s part of `task`, on its kept data `td`; only the main
/// thread (id 0) has a reporter.
pub(crate) fn search_thread<'a>(
    td: &'a mut ThreadData,
    id: usize,
    task: &Task,
    shared: &'a Shared,
    reporter: Option<&'a mut (dyn Reporter + 'a)>,
) -> ThreadResult {
    let worker = Worker::new(id, td, task, shared, reporter);
    iterative_deepening(worker, &task.limits, &task.settings)
}

/// After the threads (results by thread id): the result chosen, printed
/// last unless it already was.
pub(crate) fn conclude(
    results: Vec<ThreadResult>,
    task: &Task,
    shared: &Shared,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let best = match task.settings.strength {
        Some(s) if s.noisy() => pick_weaker(s, task, results),
        _ => pick_result(results),
    };
    if let Some(r) = &best {
        report_final(r, task, shared, reporter);
    }
    best.map_or(SearchResult::none(nodes), |r| SearchResult {
        best: r.pv.first().copied(),
        ponder: r.pv.get(1).copied(),
        score: r.score,
        depth: r.depth,
        nodes,
    })
}

/// Chooses the deepest thread's line; the better score breaks ties.
fn pick_result(results: Vec<ThreadResult>) -> Option<ThreadResult> {
    results
        .into_iter()
        .enumerate()
        .max_by_key(|(id, r)| (r.depth, r.score, std::cmp::Reverse(*id)))
        .map(|(_, r)| r)
}

/// Under a strength limit: the main thread's line that `strength` picks
/// (seeded by the root's key), as the result to play and print last; the
/// usual pick when no iteration was completed.
fn pick_weaker(
    strength: Strength,
    task: &Task,
    results: Vec<ThreadResult>,
) -> Option<ThreadResult> {
    let mut main = results.into_iter().next()?;
    if main.lines.is_empty() {
        return Some(main);
    }
    // Weaker, but never giving up a tablebase result (the first line's).
    let rank = |pv: &[Move]| pv.first().map(|&m| task.outcome.rank(m));
    let best = rank(&main.lines[0].1);
    main.lines.retain(|(_, pv)| rank(pv) == best);
    let scores: Vec<Score> = main.lines.iter().map(|(s, _)| *s).collect();
    let (score, pv) = main
        .lines
        .swap_remove(strength.pick(&scores, task.root.key()));
    Some(ThreadResult {
        score,
        pv,
        reported: false,
        ..main
    })
}

/// Prints the chosen line unless it was the last `info` already, so that
/// the last PV printed starts with the `bestmove` (another thread's line, or
/// a partial iteration's, may have been chosen).
fn report_final(r: &ThreadResult, task: &Task, shared: &Shared, reporter: &mut dyn Reporter) {
    if r.reported || r.score <= -INFINITE + 1 || r.pv.is_empty() {
        return;
    }
    let (ms, nodes) = (
        task.clock.elapsed_ms(),
        shared.nodes.load(Ordering::Relaxed),
    );
    let (score, bound, certain) = shown_score(&task.outcome, &r.pv, r.score, Bound::Exact);
    reporter.info(&Info {
        depth: r.depth.max(1),
        seldepth: r.seldepth,
        multipv: 1,
        score,
        bound,
        certain,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: shared.tt.hashfull(),
        tbhits: tbhits(shared, task.settings.syzygy.is_some()),
        time_ms: ms,
        pv: pv_to_uci(&task.root, &r.pv),
    });
}

/// One thread's iterative deepening loop.
fn iterative_deepening(mut w: Worker, limits: &Limits, settings: &Settings) -> ThreadResult {
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 2);
    let shown = settings.multipv.clamp(1, w.root_moves.len().max(1));
    let multipv = match settings.strength {
        Some(s) => s.multipv(shown).min(w.root_moves.len().max(1)),
        None => shown,
    };
    let mut result = ThreadResult {
        depth: 0,
        seldepth: 0,
        score: -INFINITE,
        pv: w.root_moves.first().map(|r| vec![r.mv]).unwrap_or_default(),
        reported: false,
        lines: Vec::new(),
    };
    if w.root_moves.is_empty() {
        w.shared.stop.store(true, Ordering::SeqCst);
        return result;
    }
    let mut trend = Trend::default();
    for depth in 1..=max_depth {
        for rm in &mut w.root_moves {
            rm.prev_score = rm.score;
            rm.score = -INFINITE;
            rm.nodes = 0;
        }
        w.root_depth = depth as i32;
        let iteration_nodes = w.nodes;
        for pv_idx in 0..multipv {
            w.set_pv_idx(pv_idx);
            w.seldepth = 0;
            aspiration(&mut w, depth, pv_idx, pv_idx < shown);
            w.sort_root_moves(0, pv_idx + 1);
            if w.stopped {
                break;
            }
        }
        // A partial iteration still counts if its first move was searched: the
        // previous best is searched first, and a move only replaces it by
        // proving better.
        if !w.stopped || depth == 1 || w.root_moves[0].score != -INFINITE {
            result = ThreadResult {
                depth: if w.stopped { depth - 1 } else { depth },
                seldepth: w.root_moves[0].seldepth.max(w.seldepth) as u32,
                score: w.root_moves[0].score.max(-INFINITE + 1),
                pv: w.root_moves[0].pv.clone(),
                // A completed iteration is printed just below.
                reported: !w.stopped && w.is_main(),
                lines: std::mem::take(&mut result.lines),
            };
        }
        if w.stopped {
            break;
        }
        if w.is_main() {
            if settings.strength.is_some_and(|s| s.noisy()) {
                result.lines = completed_lines(&w, multipv);
            }
            report(&mut w, depth, shown, Bound::Exact);
            if should_stop(&w, &mut trend, limits, iteration_nodes) {
                break;
            }
        }
        if w.shared.stopped() {
            break;
        }
    }
    w.flush_nodes();
    if w.is_main() {
        // Tell helper threads to finish.
        w.shared.stop.store(true, Ordering::SeqCst);
    }
    result
}

/// The first `multipv` root lines of a completed iteration.
fn completed_lines(w: &Worker, multipv: usize) -> Vec<(Score, Vec<Move>)> {
    w.root_moves[..multipv]
        .iter()
        .map(|rm| (rm.score, rm.pv.clone()))
        .collect()
}

/// Searches the root line `pv_idx` at `depth`, widening the window on failure;
/// `shown`: the line is one the user sees (not one only a strength limit
/// searches), so its bounds are reported.
fn aspiration(w: &mut Worker, depth: u32, pv_idx: usize, shown: bool) {
    let prev = w.root_moves[pv_idx].prev_score;
    let mut delta = aspiration_delta();
    let use_window =
        w.config.aspiration && depth >= aspiration_min_depth() && prev.abs() < INFINITE;
    let (mut alpha, mut beta) = if use_window {
        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let score = w.negamax::<true>(depth as i32, 0, alpha, beta, false);
        let n = w.root_moves.len();
        w.sort_root_moves(pv_idx, n);
        if w.stopped {
            return;
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
            if shown {
                report_bound(w, depth, Bound::Upper);
            }
        } else if score >= beta {
            beta = (score + delta).min(INFINITE);
            if shown {
                report_bound(w, depth, Bound::Lower);
            }
        } else {
            return;
        }
        // At least a point, or a tuned window could stop growing.
        delta += (delta * aspiration_growth_pct() / 100).max(1);
    }
}

/// Between iterations: stop for `go mate` once the mate is found, at the
/// soft node limit, or when the time manager says the next iteration would not pay.
fn should_stop(w: &Worker, trend: &mut Trend, limits: &Limits, iteration_start_nodes: u64) -> bool {
    let best = &w.root_moves[0];
    if let Some(m) = limits.mate
        && is_mate(best.score)
        && best.score > 0
        && mate_moves(best.score) <= m as i32
    {
        return true;
    }
    if limits.soft_nodes.is_some_and(|n| w.total_nodes() >= n) {
        return true;
    }
    let iteration = Iteration {
        best: best.mv,
        score: best.score,
        best_nodes: best.nodes,
        nodes: w.nodes - iteration_start_nodes,
    };
    w.clock
        .should_stop_iteration(w.shared, w.total_nodes(), trend, &iteration)
}
