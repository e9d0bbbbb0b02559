//! Pruning: skipping nodes (razoring, reverse futility, null move, ProbCut)
//! and moves (late move, futility, SEE pruning) that very probably do not
//! matter, and the late move reduction of each move. The numbers are in
//! `params`, the switches in `config`.

use super::movepick::MovePicker;
use super::node::{MoveState, Node};
use super::params::*;
use super::score::{MATE_BOUND, Score};
use super::thread::Worker;
use crate::board::moves::moving_piece;
use crate::board::see::see_ge;

impl Worker<'_> {
    /// Node-level pruning before any move is searched (non-PV, not in check).
    /// Returns the score to return from the node, if it can be pruned.
    pub(super) fn prune_node(&mut self, node: &Node) -> Option<Score> {
        let c = self.config;
        let (depth, eval, alpha, beta) = (node.depth, node.eval, node.alpha, node.beta);
        if c.razoring
            && depth <= RAZOR_MAX_DEPTH
            && eval + RAZOR_BASE + RAZOR_PER_DEPTH_SQ * depth * depth < alpha
        {
            let q = self.quiescence::<false>(node.ply, alpha, alpha + 1, true);
            if q <= alpha {
                return Some(q);
            }
        }
        if c.reverse_futility
            && depth <= RFP_MAX_DEPTH
            && eval.abs() < MATE_BOUND
            && eval - RFP_MARGIN * (depth - node.improving as i32) >= beta
        {
            return Some(eval);
        }
        if c.null_move
            && depth >= NMP_MIN_DEPTH
            && eval >= beta
            && node.static_eval >= beta
            && let Some(s) = self.null_move(node)
        {
            return Some(s);
        }
        if c.probcut && depth >= PROBCUT_MIN_DEPTH && beta.abs() < MATE_BOUND {
            let rbeta = beta + PROBCUT_MARGIN;
            let useless = node
                .tt_entry
                .is_some_and(|e| e.depth >= depth - PROBCUT_TT_DEPTH_SLACK && e.score < rbeta);
            if !useless {
                return self.probcut(node, rbeta);
            }
        }
        None
    }

    /// Null move pruning: let the opponent move twice; if a reduced search
    /// still fails high, the node almost surely does. Skipped when the side to
    /// move has only pawns (zugzwang is common there), right after another
    /// null move, and inside a verification search.
    fn null_move(&mut self, node: &Node) -> Option<Score> {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let stm = self.pos.side_to_move();
        if ply < self.nmp_min_ply
            || !self.pos.has_non_pawn_material(stm)
            || (ply > 0 && self.stack[ply - 1].null_move)
        {
            return None;
        }
        let r = NMP_BASE_REDUCTION
            + depth / NMP_DEPTH_DIVISOR
            + ((node.eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX_REDUCTION);
        if !self.make_null_move() {
            return None;
        }
        self.stack[ply].piece_to = None;
        self.stack[ply].null_move = true;
        let score = -self.negamax::<false>(depth - r, ply + 1, -beta, -beta + 1, !node.cut_node);
        self.unmake_null_move();
        self.stack[ply].null_move = false;
        if self.stopped || score < beta {
            return None;
        }
        // A mate found by passing is not a real mate.
        let score = if score >= MATE_BOUND { beta } else { score };
        if depth < NMP_VERIFY_DEPTH || self.nmp_min_ply != 0 {
            return Some(score);
        }
        // Verification: search without null moves for this side near the top.
        self.nmp_min_ply = ply + (NMP_VERIFY_QUARTERS * (depth - r) / 4) as usize;
        let v = self.negamax::<false>(depth - r, ply, beta - 1, beta, false);
        self.nmp_min_ply = 0;
        (v >= beta).then_some(score)
    }

    /// ProbCut: captures that beat `rbeta` in a quiescence and then a
    /// shallow search are taken as proof that the node fails high. The table
    /// gets the raw evaluation: a probe corrects it again.
    fn probcut(&mut self, node: &Node, rbeta: Score) -> Option<Score> {
        let (depth, ply) = (node.depth, node.ply);
        let tt_move = node.tt_entry.and_then(|e| e.mv);
        let checks = crate::board::moves::CheckInfo::new(self.pos.board());
        let list = self.take_list(ply);
        let mut picker = MovePicker::new_quiescence(tt_move, false, false, list);
        let prevs = self.prevs(ply);
        loop {
            let next = self.next_move(&mut picker, prevs, checks);
            let Some(mv) = next else { break };
            if !self.pos.is_tactical(mv) || !see_ge(self.pos.board(), mv, rbeta - node.static_eval)
            {
                continue;
            }
            let stm = self.pos.side_to_move();
            let piece = moving_piece(self.pos.board(), mv);
            self.make_move(mv);
            self.stack[ply].piece_to = Some(super::history::piece_to(stm, piece, mv.to));
            self.stack[ply].null_move = false;
            let mut s = -self.quiescence::<false>(ply + 1, -rbeta, -rbeta + 1, false);
            if s >= rbeta {
                s = -self.negamax::<false>(
                    depth - PROBCUT_REDUCTION,
                    ply + 1,
                    -rbeta,
                    -rbeta + 1,
                    !node.cut_node,
                );
            }
            self.unmake_move();
            if self.stopped {
                return None;
            }
            if s >= rbeta {
                self.give_list(ply, picker.into_list());
                let proof = Node {
                    depth: depth - PROBCUT_TT_DEPTH_SLACK,
                    beta: rbeta,
                    pv: false,
                    ..*node
                };
                self.store_result(&proof, s, Some(mv));
                return Some(s);
            }
        }
        self.give_list(ply, picker.into_list());
        None
    }

    /// Move-level pruning at shallow depth. Returns true to skip the move.
    /// Tame (quiet, non-checking) moves face late move, futility and quiet
    /// SEE pruning; captures, promotions and checks only the noisy SEE test.
    pub(super) fn prune_move(
        &mut self,
        picker: &mut MovePicker,
        node: &Node,
        m: &MoveState,
    ) -> bool {
        let c = self.config;
        let depth = node.depth;
        let lmr_depth = (depth - self.lmr.get(depth, m.move_count)).max(0);
        if m.tame {
            if c.late_move_pruning
                && depth <= LMP_MAX_DEPTH
                && m.move_count > lmp_threshold(depth, node.improving)
            {
                picker.skip_quiets();
                return true;
            }
            if c.futility
                && !node.in_check
                && lmr_depth <= FUTILITY_MAX_DEPTH
                && node.static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= node.alpha
            {
                // Not `skip_quiets`: a later quiet check is not futile.
                return true;
            }
            if c.see_pruning
                && lmr_depth <= SEE_MAX_DEPTH
                && !see_ge(self.pos.board(), m.mv, -SEE_QUIET_MARGIN * lmr_depth)
            {
                return true;
            }
        } else if c.see_pruning
            && depth <= SEE_MAX_DEPTH
            && !see_ge(self.pos.board(), m.mv, -SEE_NOISY_MARGIN * depth)
        {
            return true;
        }
        false
    }

    /// The late move reduction for this move, in plies (0 = none).
    pub(super) fn reduction(&self, node: &Node, m: &MoveState, new_depth: i32) -> i32 {
        let depth = node.depth;
        if !self.config.lmr || depth < LMR_MIN_DEPTH || m.move_count <= 1 + node.pv as usize {
            return 0;
        }
        let mut r = self.lmr.get(depth, m.move_count);
        if !m.quiet {
            r /= 2;
        }
        r += (!node.pv) as i32 + node.cut_node as i32 + (!node.improving) as i32;
        r -= m.gives_check as i32 + m.killer as i32;
        if m.quiet {
            r -= m.history / LMR_HISTORY_DIVISOR;
        }
        r.clamp(0, (new_depth - 1).max(0))
    }
}
