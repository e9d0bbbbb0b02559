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
//! persistent pool's (`pool`): each runs `ThreadData::search` on the
//! search's `Task`, and thread 0 picks the result (`conclude`).
//!
//! The main thread reports each line of a completed iteration, the
//! aspiration bounds and a finished game's score. A line's score goes
//! through the root's certain outcome (`outcome`): a root drawn by rule
//! shows a draw, a root in the tables each move's tablebase result.

use std::sync::atomic::Ordering;

use super::clock::Clock;
use super::info::{Bound, Info, Outcome, Reporter};
use super::job::{SearchJob, SearchResult};
use super::outcome::RootOutcome;
use super::params::{
    BOUND_INFO_AFTER_MS, aspiration_delta, aspiration_fail_high_plies, aspiration_growth_pct,
    aspiration_min_depth,
};
use super::score::{INFINITE, MAX_PLY, Score, UciScore, is_mate, mate_moves};
use super::shared::Shared;
use super::strength::Strength;
use super::thread::{Context, Task, ThreadData};
use crate::board::{Move, Position};
use crate::time::{Iteration, Trend};

/// Prepared here, where the root is examined; defined beside the thread
/// data that searches it.
impl Task {
    /// The search of `job`, its clock running from the job's start; `None`
    /// (reported to `reporter`) when the game is over at its root.
    pub fn new(job: &SearchJob, shared: &Shared, reporter: &mut dyn Reporter) -> Option<Task> {
        let (root, limits, settings) = (&job.root, &job.limits, &job.settings);
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
        let clock = Clock::new(limits, root.board(), settings, job.start)
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
    if r.reported || r.score <= -INFINITE + 1 || r.pv.is_empty() || !reporter.wants_progress() {
        return;
    }
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let line = (r.depth.max(1), r.seldepth, 1);
    reporter.info(&line_info(
        task,
        shared,
        nodes,
        line,
        (r.score, Bound::Exact),
        &r.pv,
    ));
}

impl ThreadData {
    /// Thread `id`'s part of `task`; only the main thread (id 0) has a
    /// reporter.
    pub(crate) fn search<'a>(
        &mut self,
        id: usize,
        task: &'a Task,
        shared: &'a Shared,
        reporter: Option<&'a mut (dyn Reporter + 'a)>,
    ) -> ThreadResult {
        self.new_search(id, task);
        let mut cx = Context {
            task,
            shared,
            reporter: reporter.filter(|r| r.wants_progress()),
        };
        let result = self.iterative_deepening(&mut cx);
        self.flush_nodes(shared);
        if self.is_main() {
            // Tell helper threads to finish.
            shared.stop.store(true, Ordering::SeqCst);
        }
        result
    }

    /// One thread's iterative deepening loop.
    fn iterative_deepening(&mut self, cx: &mut Context) -> ThreadResult {
        let task = cx.task;
        let (limits, settings) = (&task.limits, &task.settings);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 2);
        let n = self.root.moves.len().max(1);
        let shown = settings.multipv.clamp(1, n);
        let multipv = match settings.strength {
            Some(s) => s.multipv(shown).min(n),
            None => shown,
        };
        let noisy = settings.strength.is_some_and(|s| s.noisy());
        let mut result = ThreadResult {
            depth: 0,
            seldepth: 0,
            score: -INFINITE,
            pv: (self.root.moves.first())
                .map(|r| vec![r.mv])
                .unwrap_or_default(),
            reported: false,
            lines: Vec::new(),
        };
        if self.root.moves.is_empty() {
            cx.shared.stop.store(true, Ordering::SeqCst);
            return result;
        }
        let mut trend = Trend::default();
        for depth in 1..=max_depth {
            for rm in &mut self.root.moves {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            self.counters.root_depth = depth as i32;
            let iteration_nodes = self.counters.nodes;
            for pv_idx in 0..multipv {
                self.root.set_pv_idx(pv_idx);
                self.counters.seldepth = 0;
                self.aspiration(cx, depth, pv_idx, pv_idx < shown);
                self.root.sort(0, pv_idx + 1);
                if self.counters.stopped {
                    break;
                }
            }
            let stopped = self.counters.stopped;
            // A partial iteration still counts if its first move was searched:
            // the previous best is searched first, and a move only replaces it
            // by proving better.
            let first = &self.root.moves[0];
            if !stopped || depth == 1 || first.score != -INFINITE {
                result = ThreadResult {
                    depth: if stopped { depth - 1 } else { depth },
                    seldepth: first.seldepth.max(self.counters.seldepth) as u32,
                    score: first.score.max(-INFINITE + 1),
                    pv: first.pv.clone(),
                    // A completed iteration is printed just below.
                    reported: !stopped && self.is_main(),
                    lines: std::mem::take(&mut result.lines),
                };
            }
            if stopped {
                break;
            }
            if self.is_main() {
                if noisy {
                    let lines = self.root.moves[..multipv].iter();
                    result.lines = lines.map(|rm| (rm.score, rm.pv.clone())).collect();
                }
                report(self, cx, depth, shown, Bound::Exact);
                if self.should_stop(cx, &mut trend, iteration_nodes) {
                    break;
                }
            }
            if cx.shared.stopped() {
                break;
            }
        }
        result
    }

    /// Searches the root line `pv_idx` at `depth`, widening the window on
    /// failure; `shown`: the line is one the user sees (not one only a
    /// strength limit searches), so its bounds are reported.
    fn aspiration(&mut self, cx: &mut Context, depth: u32, pv_idx: usize, shown: bool) {
        let prev = self.root.moves[pv_idx].prev_score;
        let mut delta = aspiration_delta();
        let use_window =
            self.config.aspiration && depth >= aspiration_min_depth() && prev.abs() < INFINITE;
        let (mut alpha, mut beta) = if use_window {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        // Each fail high searches again a ply shallower (down to the
        // option's limit): the root's best move is likely already found,
        // and a shallower search confirms its new bound sooner.
        let mut shallower = 0;
        loop {
            let search_depth = (depth as i32 - shallower).max(1);
            let score = self.negamax::<true>(cx, search_depth, 0, alpha, beta, false);
            let n = self.root.moves.len();
            self.root.sort(pv_idx, n);
            if self.counters.stopped {
                return;
            }
            if score <= alpha {
                shallower = 0;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                if shown {
                    report_bound(self, cx, depth, Bound::Upper);
                }
            } else if score >= beta {
                shallower = (shallower + 1).min(aspiration_fail_high_plies());
                beta = (score + delta).min(INFINITE);
                if shown {
                    report_bound(self, cx, depth, Bound::Lower);
                }
            } else {
                return;
            }
            // At least a point, or a tuned window could stop growing.
            delta += (delta * aspiration_growth_pct() / 100).max(1);
        }
    }

    /// Between iterations: stop for `go mate` once the mate is found, at
    /// the soft node limit, or when the time manager says the next
    /// iteration would not pay.
    fn should_stop(&self, cx: &Context, trend: &mut Trend, iteration_start_nodes: u64) -> bool {
        let (best, limits) = (&self.root.moves[0], &cx.task.limits);
        if let Some(m) = limits.mate
            && is_mate(best.score)
            && best.score > 0
            && mate_moves(best.score) <= m as i32
        {
            return true;
        }
        let total = self.total_nodes(cx.shared);
        if limits.soft_nodes.is_some_and(|n| total >= n) {
            return true;
        }
        let iteration = Iteration {
            best: best.mv,
            score: best.score,
            best_nodes: best.nodes,
            nodes: self.counters.nodes - iteration_start_nodes,
        };
        cx.task
            .clock
            .should_stop_iteration(cx.shared, total, trend, &iteration)
    }
}

// --- Reports ---

/// Prints one `info` line per PV line of the finished iteration.
pub(crate) fn report(td: &ThreadData, cx: &mut Context, depth: u32, multipv: usize, bound: Bound) {
    for i in 0..multipv {
        let rm = &td.root.moves[i];
        let (score, d) = if rm.score == -INFINITE {
            (rm.prev_score, depth.saturating_sub(1).max(1))
        } else {
            (rm.score, depth)
        };
        if score != -INFINITE {
            send_line(td, cx, d, i, (score, bound));
        }
    }
}

/// Reports an aspiration fail (only in longer searches, to limit output).
pub(crate) fn report_bound(td: &ThreadData, cx: &mut Context, depth: u32, bound: Bound) {
    if td.is_main() && cx.reporter.is_some() && cx.task.clock.elapsed_ms() >= BOUND_INFO_AFTER_MS {
        let pv_idx = td.root.pv_idx;
        send_line(td, cx, depth, pv_idx, (td.root.moves[pv_idx].score, bound));
    }
}

/// Prints root line `i` of the thread's search.
fn send_line(td: &ThreadData, cx: &mut Context, depth: u32, i: usize, score: (Score, Bound)) {
    let Some(r) = cx.reporter.as_mut() else {
        return;
    };
    let rm = &td.root.moves[i];
    let seldepth = rm.seldepth.max(td.counters.seldepth) as u32;
    let nodes = td.total_nodes(cx.shared);
    r.info(&line_info(
        cx.task,
        cx.shared,
        nodes,
        (depth, seldepth, i + 1),
        score,
        &rm.pv,
    ));
}

/// The `info` line of the root line `pv`, scored `score` with `bound`, at
/// (depth, seldepth, multipv).
pub(crate) fn line_info(
    task: &Task,
    shared: &Shared,
    nodes: u64,
    (depth, seldepth, multipv): (u32, u32, usize),
    (score, bound): (Score, Bound),
    pv: &[Move],
) -> Info {
    let ms = task.clock.elapsed_ms();
    let (score, bound, certain) = shown_score(&task.outcome, pv, score, bound);
    Info {
        depth,
        seldepth,
        multipv,
        score,
        bound,
        certain,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: shared.tt.hashfull(),
        tbhits: tbhits(shared, task.settings.syzygy.is_some()),
        time_ms: ms,
        pv: pv_to_uci(&task.root, pv),
    }
}

/// The score, bound and certain result shown for the root line `pv` that
/// the search scored `score`.
fn shown_score(
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
fn tbhits(shared: &Shared, tb: bool) -> Option<u64> {
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
