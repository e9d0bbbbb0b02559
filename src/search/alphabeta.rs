//! The main search: negamax alpha-beta, fail-soft, with principal variation
//! search (PVS).
//!
//! Negamax scores every node from the side to move, so one function serves
//! both players: a child's score is negated and the window (alpha, beta)
//! becomes (-beta, -alpha). A move scoring at least beta proves the opponent
//! will avoid this node, so the remaining moves need no search (a cutoff).
//! PVS searches the first move with the full window and the others with a
//! null window (alpha, alpha + 1) that can only answer "better or not"; only a
//! move that turns out better is searched again with the full window.
//!
//! `PV` is true on the principal variation (window wider than one point).
//! Before the move loop come the node-level prunings (razoring, reverse
//! futility, null move, ProbCut, IIR); inside it the move-level ones (late
//! move pruning, futility, SEE), the extensions and late move reductions.

use super::extensions::Singular;
use super::history::{Tried, piece_to};
use super::movepick::{MovePicker, is_noisy};
use super::pruning::*;
use super::score::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, Score, mated_in};
use super::thread::{NO_EVAL, Worker};
use super::tt::{TtBound, TtEntry, score_from_tt, score_to_tt};
use crate::board::Move;
use crate::board::moves::CheckInfo;

/// A hash score replaces the static evaluation only if its search was at
/// most this many plies shallower than the current node's.
const TT_EVAL_DEPTH_SLACK: i32 = 2;

impl Worker<'_> {
    /// Searches the node at `ply` to `depth` within (alpha, beta).
    pub fn negamax<const PV: bool>(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        cut_node: bool,
    ) -> Score {
        if depth <= 0 {
            return self.quiescence::<PV>(ply, alpha, beta, true);
        }
        let root = ply == 0;
        self.pv.clear(ply);
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if !root {
            if self.is_draw(ply) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate() };
            }
            if self.config.mate_distance_pruning {
                // No line from here can beat a mate already found nearer the root.
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(MATE - ply as Score - 1);
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let tt_entry = self.probe_tt(key, excluded.is_none());
        let tt_score = tt_entry.map(|e| score_from_tt(e.score, ply));
        let tt_move = if root {
            Some(self.root_moves[self.pv_idx].mv)
        } else {
            tt_entry.and_then(|e| e.mv)
        };
        if let (false, Some(e), Some(s)) = (PV, tt_entry, tt_score)
            && e.depth >= depth
            && bound_decides(e.bound, s, beta)
        {
            return s;
        }

        // Static evaluation (the raw one is what the table stores), corrected
        // by history, then improved by a hash score whose bound points the right way.
        let (raw_eval, static_eval) = if in_check {
            (NO_EVAL, NO_EVAL)
        } else if excluded.is_some() {
            (NO_EVAL, self.stack[ply].static_eval)
        } else {
            let raw = tt_entry.map_or_else(|| self.evaluate(), |e| e.eval);
            (raw, self.corrected(raw))
        };
        // Only a hash score from a search of similar depth: a shallow bound
        // that missed a threat would otherwise keep pruning this node.
        let eval = match (tt_entry, tt_score) {
            (Some(e), Some(s))
                if !in_check
                    && e.depth >= depth - TT_EVAL_DEPTH_SLACK
                    && improves_eval(e.bound, s, static_eval) =>
            {
                s
            }
            _ => static_eval,
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && static_eval > self.stack[ply - 2].static_eval;
        self.hist.clear_killers(ply + 1);
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;

        if !PV
            && !in_check
            && excluded.is_none()
            && let Some(s) = self.prune_node(
                depth,
                ply,
                alpha,
                beta,
                eval,
                (raw_eval, static_eval),
                improving,
                cut_node,
                tt_entry,
            )
        {
            return s;
        }
        if self.config.iir && depth >= IIR_MIN_DEPTH && tt_move.is_none() && (PV || cut_node) {
            depth -= 1;
        }

        let stm = self.pos.side_to_move();
        let prevs = self.prevs(ply);
        let killers = if self.config.killers {
            self.hist.killers(ply)
        } else {
            [None; 2]
        };
        let counter = if self.config.countermove {
            self.hist.countermove(prevs[0])
        } else {
            None
        };
        let tt_move = if self.config.tt || root {
            tt_move
        } else {
            None
        };
        let checks = CheckInfo::new(self.pos.board());
        let list = self.take_list(ply);
        let mut picker = MovePicker::new(tt_move, [killers[0], killers[1], counter], list);
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0;
        let mut tried = Tried::default();

        loop {
            let next = self.next_move(&mut picker, prevs, checks);
            let Some(mv) = next else { break };
            if Some(mv) == excluded {
                continue;
            }
            if root && !self.root_moves[self.pv_idx..].iter().any(|r| r.mv == mv) {
                continue;
            }
            move_count += 1;
            let quiet = !is_noisy(&self.pos, mv);
            let piece = self
                .pos
                .board()
                .piece_on(mv.from)
                .unwrap_or(crate::board::Piece::Pawn);
            let pt = piece_to(stm, piece, mv.to);
            let history = if quiet {
                self.hist.butterfly(stm, mv)
                    + self.hist.continuation(1, prevs[0], pt)
                    + self.hist.continuation(2, prevs[1], pt)
            } else {
                0
            };

            if !root && best > -MATE_BOUND && self.pos.has_non_pawn_material(stm) {
                let lmr_depth = (depth - self.lmr.get(depth, move_count)).max(0);
                // Checks are treated like captures: never futile, SEE-pruned with the noisy margin.
                let tame = quiet && !checks.gives_check_by(self.pos.board(), mv, piece);
                if self.prune_move(
                    &mut picker,
                    mv,
                    tame,
                    depth,
                    lmr_depth,
                    move_count,
                    in_check,
                    static_eval,
                    alpha,
                    improving,
                ) {
                    continue;
                }
            }

            // Extensions.
            let mut extension = 0;
            if !root && Some(mv) == tt_move && excluded.is_none() && self.config.singular_extension
            {
                match self.singular(mv, depth, ply, beta, cut_node, PV, tt_entry, tt_score) {
                    Singular::Extend(e) => extension = e,
                    Singular::MultiCut(s) => {
                        self.give_list(ply, picker.into_list());
                        return s;
                    }
                }
            }
            if root && self.is_main() && self.clock.elapsed_ms() > 3000 {
                self.report_currmove(mv, move_count);
            }

            let nodes_before = self.nodes;
            self.make_move(mv);
            self.shared.tt.prefetch(self.pos.key());
            self.stack[ply].piece_to = Some(pt);
            self.stack[ply].null_move = false;
            let gives_check = self.pos.in_check();
            if gives_check
                && extension == 0
                && self.config.check_extension
                && (ply as i32) < 2 * self.root_depth
            {
                extension = 1;
            }
            if extension >= 2 {
                self.stack[ply + 1].double_extensions += 1;
            }
            let new_depth = depth - 1 + extension;

            let score = if move_count == 1 {
                -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, !PV && !cut_node)
            } else {
                let r = self.reduction(
                    depth,
                    move_count,
                    quiet,
                    PV,
                    cut_node,
                    gives_check,
                    improving,
                    history,
                    &killers,
                    mv,
                    new_depth,
                );
                self.search_late_move::<PV>(new_depth, r, ply, alpha, beta, cut_node)
            };
            self.unmake_move();
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            if self.stopped {
                return 0;
            }
            if root {
                self.update_root_move(mv, score, alpha, move_count, self.nodes - nodes_before);
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if Some(mv) != best_move {
                tried.push(mv, quiet);
            }
        }

        self.give_list(ply, picker.into_list());
        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        if best >= beta
            && let Some(bm) = best_move
        {
            self.update_histories(bm, depth, ply, tried.quiets(), tried.noisies());
        }
        if excluded.is_none() && !in_check {
            self.update_correction(depth, raw_eval, static_eval, best, beta, best_move);
        }
        if excluded.is_none() {
            let eval = if in_check { 0 } else { raw_eval };
            self.store_result(key, ply, depth, PV, (best, beta), best_move, eval);
        }
        best
    }

    /// The static evaluation `raw` plus the correction history's estimate of its error.
    pub(super) fn corrected(&self, raw: Score) -> Score {
        if self.config.correction_history {
            self.hist.correction.correct(self.pos.board(), raw)
        } else {
            raw
        }
    }

    /// Teaches the correction history what the search found here, when the
    /// result says something about the static evaluation: a fail high above
    /// it, a fail low below it, or an exact score; not after a noisy best move
    /// (the gain is tactical, not positional) nor with mate scores.
    fn update_correction(
        &mut self,
        depth: i32,
        raw_eval: Score,
        static_eval: Score,
        best: Score,
        beta: Score,
        best_move: Option<Move>,
    ) {
        let fail_high = best >= beta;
        let fail_low = best_move.is_none();
        if !self.config.correction_history
            || best.abs() >= MATE_BOUND
            || best_move.is_some_and(|m| is_noisy(&self.pos, m))
            || (fail_high && best <= static_eval)
            || (fail_low && best >= static_eval)
        {
            return;
        }
        self.hist
            .correction
            .update(self.pos.board(), depth, raw_eval, best);
    }

    /// Searches a move after the first: reduced null window first (LMR), then
    /// full-depth null window, then full window on the PV (PVS re-searches).
    #[allow(clippy::too_many_arguments)]
    fn search_late_move<const PV: bool>(
        &mut self,
        new_depth: i32,
        r: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut_node: bool,
    ) -> Score {
        if !self.config.pvs {
            // Plain alpha-beta: every move gets the full window.
            let mut s = -self.negamax::<PV>(new_depth - r, ply + 1, -beta, -alpha, false);
            if r > 0 && s > alpha {
                s = -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, false);
            }
            return s;
        }
        let mut s = -self.negamax::<false>(new_depth - r, ply + 1, -alpha - 1, -alpha, true);
        if r > 0 && s > alpha && !self.stopped {
            s = -self.negamax::<false>(new_depth, ply + 1, -alpha - 1, -alpha, !cut_node);
        }
        if PV && s > alpha && s < beta && !self.stopped {
            s = -self.negamax::<true>(new_depth, ply + 1, -beta, -alpha, false);
        }
        s
    }

    /// The table's entry for `key`, if this node may probe and the table is on.
    pub(super) fn probe_tt(&self, key: u64, allowed: bool) -> Option<TtEntry> {
        if allowed && self.config.tt {
            self.shared.tt.probe(key)
        } else {
            None
        }
    }

    pub fn evaluate(&mut self) -> Score {
        self.evaluator.evaluate(self.pos.board())
    }

    /// Records a root move's result: its score if it is the first or beats
    /// alpha, otherwise "worse than the best" so sorting keeps it behind.
    fn update_root_move(
        &mut self,
        mv: Move,
        score: Score,
        alpha: Score,
        move_count: usize,
        nodes: u64,
    ) {
        let seldepth = self.seldepth;
        let line = self.pv.line(1).to_vec();
        let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == mv) else {
            return;
        };
        rm.nodes += nodes;
        if move_count == 1 || score > alpha {
            rm.score = score;
            rm.seldepth = seldepth;
            rm.pv.clear();
            rm.pv.push(mv);
            rm.pv.extend_from_slice(&line);
        } else {
            rm.score = -INFINITE;
        }
    }

    fn report_currmove(&mut self, mv: Move, number: usize) {
        let text = self.pos.uci(mv);
        let depth = self.root_depth as u32;
        if let Some(r) = self.reporter.as_mut() {
            r.currmove(depth, &text, number + self.pv_idx);
        }
    }
}

impl Worker<'_> {
    /// Stores a node's result (unless the table is switched off): a lower
    /// bound if it failed high, exact if a PV node found a move inside the
    /// window, an upper bound otherwise. `eval` is the raw static evaluation.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_result(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        pv: bool,
        (best, beta): (Score, Score),
        best_move: Option<Move>,
        eval: Score,
    ) {
        if !self.config.tt {
            return;
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if pv && best_move.is_some() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let score = score_to_tt(best, ply);
        self.shared
            .tt
            .store(key, best_move, score, eval, depth, bound);
    }
}

/// True if a stored bound makes the score usable against `beta`: a lower
/// bound at or above beta, an upper bound below it, or an exact score.
pub fn bound_decides(bound: TtBound, score: Score, beta: Score) -> bool {
    match bound {
        TtBound::Exact => true,
        TtBound::Lower => score >= beta,
        TtBound::Upper => score < beta,
    }
}

/// True if a hash score is a better estimate than the static evaluation: a
/// lower bound above it, an upper bound below it, or an exact score.
fn improves_eval(bound: TtBound, score: Score, static_eval: Score) -> bool {
    match bound {
        TtBound::Exact => true,
        TtBound::Lower => score > static_eval,
        TtBound::Upper => score < static_eval,
    }
}
