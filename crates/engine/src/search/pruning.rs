//! Pruning: skipping nodes (razoring, reverse futility, null move, ProbCut)
//! and moves (late move, futility, SEE pruning) that very probably do not
//! matter, and the late move reduction of each move. The numbers are in
//! `params`, the switches in `config`.

use super::movepick::MovePicker;
use super::node::{MoveState, Node};
use super::params::{
    futility_base, futility_max_depth, futility_per_depth, lmp_max_depth, lmp_threshold,
    lmr_cut_node, lmr_gives_check, lmr_history_divisor, lmr_killer, lmr_min_depth, lmr_noisy_pct,
    lmr_non_pv, lmr_not_improving, lmr_tt_capture, nmp_base_reduction, nmp_depth_divisor,
    nmp_eval_divisor, nmp_eval_max_reduction, nmp_min_depth, nmp_verify_depth, nmp_verify_quarters,
    probcut_margin, probcut_min_depth, probcut_reduction, probcut_tt_depth_slack, razor_base,
    razor_max_depth, razor_per_depth_sq, rfp_margin, rfp_max_depth, see_max_depth,
    see_noisy_margin, see_quiet_margin,
};
use super::score::{MATE_BOUND, Score};
use super::thread::Worker;
use crate::board::BitBoard;
use crate::board::moves::moving_piece;
use crate::board::see::see_ge;

impl Worker<'_> {
    /// Node-level pruning before any move is searched (non-PV, not in check).
    /// Returns the score to return from the node, if it can be pruned.
    pub(super) fn prune_node(&mut self, node: &Node) -> Option<Score> {
        let c = self.config;
        let (depth, eval, alpha, beta) = (node.depth, node.eval, node.alpha, node.beta);
        if c.razoring
            && depth <= razor_max_depth()
            && eval + razor_base() + razor_per_depth_sq() * depth * depth < alpha
        {
            let q = self.quiescence::<false>(node.ply, alpha, alpha + 1, true);
            if q <= alpha {
                return Some(q);
            }
        }
        if c.reverse_futility
            && depth <= rfp_max_depth()
            && eval.abs() < MATE_BOUND
            && eval - rfp_margin() * (depth - node.improving as i32) >= beta
        {
            return Some(eval);
        }
        if c.null_move
            && depth >= nmp_min_depth()
            && eval >= beta
            && node.static_eval >= beta
            && let Some(s) = self.null_move(node)
        {
            return Some(s);
        }
        if c.probcut && depth >= probcut_min_depth() && beta.abs() < MATE_BOUND {
            let rbeta = beta + probcut_margin();
            let useless = node
                .tt_entry
                .is_some_and(|e| e.depth >= depth - probcut_tt_depth_slack() && e.score < rbeta);
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
        let r = nmp_base_reduction()
            + depth / nmp_depth_divisor()
            + ((node.eval - beta) / nmp_eval_divisor()).min(nmp_eval_max_reduction());
        if !self.make_null_move() {
            return None;
        }
        self.stack[ply].piece_to = None;
        self.stack[ply].null_move = true;
        let score = -self.negamax::<false>(depth - r, ply + 1, -beta, -beta + 1, !node.cut_node);
        self.unmake_null_move();
        debug_assert_eq!(
            self.pos.key(),
            node.key,
            "null move and its undo changed the key"
        );
        self.stack[ply].null_move = false;
        if self.stopped || score < beta {
            return None;
        }
        // A mate found by passing is not a real mate.
        let score = if score >= MATE_BOUND { beta } else { score };
        if depth < nmp_verify_depth() || self.nmp_min_ply != 0 {
            return Some(score);
        }
        // Verification: search without null moves for this side near the top.
        // Never negative, whatever the tuned reductions make of `depth - r`.
        self.nmp_min_ply = ply + (nmp_verify_quarters() * (depth - r) / 4).max(0) as usize;
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
            let next = self.next_move(&mut picker, prevs, (checks, BitBoard::EMPTY));
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
                    depth - probcut_reduction(),
                    ply + 1,
                    -rbeta,
                    -rbeta + 1,
                    !node.cut_node,
                );
            }
            self.unmake_move();
            debug_assert_eq!(
                self.pos.key(),
                node.key,
                "make/unmake of {mv} in ProbCut changed the key"
            );
            if self.stopped {
                return None;
            }
            if s >= rbeta {
                self.give_list(ply, picker.into_list());
                let proof = Node {
                    depth: depth - probcut_tt_depth_slack(),
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
                && depth <= lmp_max_depth()
                && m.move_count > lmp_threshold(depth, node.improving)
            {
                picker.skip_quiets();
                return true;
            }
            if c.futility
                && !node.in_check
                && lmr_depth <= futility_max_depth()
                && node.static_eval + futility_base() + futility_per_depth() * lmr_depth
                    <= node.alpha
            {
                // Not `skip_quiets`: a later quiet check is not futile.
                return true;
            }
            if c.see_pruning
                && lmr_depth <= see_max_depth()
                && !see_ge(self.pos.board(), m.mv, -see_quiet_margin() * lmr_depth)
            {
                return true;
            }
        } else if c.see_pruning
            && depth <= see_max_depth()
            && !see_ge(self.pos.board(), m.mv, -see_noisy_margin() * depth)
        {
            return true;
        }
        false
    }

    /// The late move reduction for this move, in plies (0 = none).
    pub(super) fn reduction(&self, node: &Node, m: &MoveState, new_depth: i32) -> i32 {
        let depth = node.depth;
        if !self.config.lmr || depth < lmr_min_depth() || m.move_count <= 1 + node.pv as usize {
            return 0;
        }
        let mut r = self.lmr.get(depth, m.move_count);
        if !m.quiet {
            r = r * lmr_noisy_pct() / 100;
        }
        r += (!node.pv) as i32 * lmr_non_pv()
            + node.cut_node as i32 * lmr_cut_node()
            + (!node.improving) as i32 * lmr_not_improving();
        r -= m.gives_check as i32 * lmr_gives_check() + m.killer as i32 * lmr_killer();
        if m.quiet {
            r += node.tt_capture as i32 * lmr_tt_capture();
            r -= m.history / lmr_history_divisor();
        }
        r.clamp(0, (new_depth - 1).max(0))
    }
}
