//! Parameters of the pruning, reduction and extension techniques, one group
//! per technique. The code using them is in `alphabeta` and `quiescence`; the
//! switches are in `config`. Values are the usual starting points of the
//! literature (Stockfish, Ethereal), to be tuned by matches.

use super::score::Score;

// Reverse futility pruning (static null move): at shallow depth, a static
// evaluation far above beta is unlikely to drop below it within `depth` plies.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: Score = 100;

// Razoring: at very shallow depth, a static evaluation far below alpha is
// checked with a quiescence search only.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_BASE: Score = 400;
pub const RAZOR_PER_DEPTH_SQ: Score = 250;

// Null move pruning: if passing still fails high on a reduced search, a real
// move will too (unsound only in zugzwang, hence the conditions).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
pub const NMP_EVAL_DIVISOR: Score = 200;
/// From this depth a null-move fail high is verified by a reduced normal search.
pub const NMP_VERIFY_DEPTH: i32 = 12;

// Futility pruning: a quiet move cannot raise a static evaluation far below
// alpha enough at shallow depth.
pub const FUTILITY_MAX_DEPTH: i32 = 8;
pub const FUTILITY_BASE: Score = 90;
pub const FUTILITY_PER_DEPTH: Score = 100;

// Late move pruning: after enough quiet moves at shallow depth, the rest
// (ordered last by history) are skipped.
pub const LMP_MAX_DEPTH: i32 = 8;

/// Quiet moves searched before late move pruning starts.
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

// SEE pruning: moves that lose material by static exchange at shallow depth.
pub const SEE_QUIET_MARGIN: Score = 60;
pub const SEE_NOISY_MARGIN: Score = 100;
pub const SEE_MAX_DEPTH: i32 = 8;

// Delta pruning (quiescence): a capture that cannot bring the score near
// alpha even with this margin is skipped.
pub const DELTA_MARGIN: Score = 200;

// ProbCut: a capture that beats beta by a margin in a shallow search very
// probably beats beta in the full one.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: Score = 200;
pub const PROBCUT_REDUCTION: i32 = 4;

// Internal iterative reduction: a node without a hash move at high depth is
// probably not important; search it one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

// Singular extension: when the hash move is much better than every
// alternative (checked by a reduced search excluding it), extend it.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// The alternatives must stay this far (per ply of depth) below the hash score.
pub const SE_MARGIN_PER_DEPTH: Score = 3;
pub const SE_DOUBLE_MARGIN: Score = 20;
/// Plies taken off a hash move that is not singular but already beats beta.
pub const SE_NEGATIVE: i32 = 2;
/// Double extensions allowed along one line, to bound tree growth.
pub const SE_MAX_DOUBLE: u32 = 6;

// Aspiration windows around the previous iteration's score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
pub const ASPIRATION_DELTA: Score = 15;

// Late move reductions (the table is in `lmr`).
pub const LMR_MIN_DEPTH: i32 = 3;
/// History value worth one ply of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

use super::movepick::{MovePicker, is_noisy};
use super::node::{MoveState, Node};
use super::score::MATE_BOUND;
use super::thread::Worker;
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
                .is_some_and(|e| e.depth >= depth - 3 && e.score < rbeta);
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
            + ((node.eval - beta) / NMP_EVAL_DIVISOR).min(3);
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
        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
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
            if !is_noisy(&self.pos, mv) || !see_ge(self.pos.board(), mv, rbeta - node.static_eval) {
                continue;
            }
            let stm = self.pos.side_to_move();
            let piece = self
                .pos
                .board()
                .piece_on(mv.from)
                .unwrap_or(crate::board::Piece::Pawn);
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
                    depth: depth - 3,
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
