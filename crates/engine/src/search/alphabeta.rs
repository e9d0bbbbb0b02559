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
use super::history::{PieceTo, Tried, piece_to};
use super::movepick::MovePicker;
use super::node::{MoveState, Node};
use super::params::{
    CURRMOVE_AFTER_MS, EXTENSION_PLY_LIMIT, iir_min_depth, lmr_deeper_base, lmr_deeper_per_ply,
    tt_eval_depth_slack,
};
use super::score::{
    DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, Score, mated_in, score_from_tt,
};
use super::thread::Worker;
use crate::board::moves::{CheckInfo, moving_piece};
use crate::board::{BitBoard, Move};
use crate::tt::{QS_DEPTH_CHECKS, bound_decides, improves_eval};

impl Worker<'_> {
    /// Searches the node at `ply` to `depth` within (alpha, beta).
    pub fn negamax<const PV: bool>(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut_node: bool,
    ) -> Score {
        debug_assert!(ply < MAX_PLY, "negamax at ply {ply}, beyond the stacks");
        debug_assert!(
            -INFINITE <= alpha && alpha < beta && beta <= INFINITE,
            "window ({alpha}, {beta}) at ply {ply}"
        );
        // Non-PV nodes are searched with null windows only: a child gets its
        // parent's window negated, and the PVS window (alpha, alpha + 1).
        debug_assert!(
            PV || beta == alpha + 1,
            "non-PV node at ply {ply} with window ({alpha}, {beta})"
        );
        if depth <= 0 {
            return self.quiescence::<PV>(ply, alpha, beta, true);
        }
        self.pv.clear(ply);
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut node = Node::new(self.pos.key(), ply, depth, alpha, beta);
        node.pv = PV;
        node.cut_node = cut_node;
        node.in_check = self.pos.in_check();
        node.excluded = self.stack[ply].excluded;
        if let Some(s) = self.early_exit(&mut node) {
            return s;
        }
        if let Some(s) = self.probe_node(&mut node) {
            return s;
        }
        if let Some(s) = self.probe_tablebase(&mut node) {
            return s;
        }
        self.evaluate_node(&mut node);
        debug_assert!(ply + 1 < MAX_PLY, "a node at ply {ply} searches children");
        self.hist.clear_killers(ply + 1);
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;

        if !PV
            && !node.in_check
            && node.excluded.is_none()
            && let Some(s) = self.prune_node(&node)
        {
            return s;
        }
        if self.config.iir && depth >= iir_min_depth() && node.tt_move.is_none() && (PV || cut_node)
        {
            node.depth -= 1;
        }
        self.search_moves::<PV>(&mut node)
    }

    /// Draws, the ply limit and mate distance pruning (none at the root).
    // Inlined: once per node, from `negamax` alone.
    #[inline(always)]
    fn early_exit(&mut self, node: &mut Node) -> Option<Score> {
        if node.is_root() {
            return None;
        }
        let ply = node.ply;
        if self.is_draw(ply) {
            return Some(DRAW);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if node.in_check { DRAW } else { self.evaluate() });
        }
        if self.config.mate_distance_pruning {
            // No line from here can beat a mate already found nearer the root.
            node.alpha = node.alpha.max(mated_in(ply));
            node.beta = node.beta.min(MATE - ply as Score - 1);
            if node.alpha >= node.beta {
                return Some(node.alpha);
            }
        }
        None
    }

    /// Reads the table entry (not in a singular-extension search) and returns
    /// its score when it decides a non-PV node.
    // Inlined: once per node, from `negamax` alone.
    #[inline(always)]
    fn probe_node(&mut self, node: &mut Node) -> Option<Score> {
        let entry = self.probe_tt(node.key, node.excluded.is_none());
        node.tt_entry = entry;
        node.tt_score = entry.map(|e| score_from_tt(e.score, node.ply));
        node.tt_move = if node.is_root() {
            Some(self.root_moves[self.pv_idx].mv)
        } else {
            entry.and_then(|e| e.mv)
        };
        node.tt_capture = node.tt_move.is_some_and(|m| self.pos.is_tactical(m));
        match (entry, node.tt_score) {
            (Some(e), Some(s))
                if !node.pv && e.depth >= node.depth && bound_decides(e.bound, s, node.beta) =>
            {
                Some(s)
            }
            _ => None,
        }
    }

    /// Static evaluation (the raw one is what the table stores), corrected by
    /// history, then improved by a hash score whose bound points the right way.
    fn evaluate_node(&mut self, node: &mut Node) {
        let ply = node.ply;
        if node.in_check {
            (node.raw_eval, node.static_eval) = (NO_EVAL, NO_EVAL);
        } else if node.excluded.is_some() {
            node.static_eval = self.stack[ply].static_eval;
        } else {
            node.raw_eval = node.tt_entry.map_or_else(|| self.evaluate(), |e| e.eval);
            node.static_eval = self.corrected(node.raw_eval);
        }
        // Only a hash score from a main search of similar depth, never a
        // quiescence result (no quiet move but checks): a shallow bound
        // that missed a threat would otherwise keep pruning.
        node.eval = match (node.tt_entry, node.tt_score) {
            (Some(e), Some(s))
                if !node.in_check
                    && e.depth >= (node.depth - tt_eval_depth_slack()).max(QS_DEPTH_CHECKS + 1)
                    && improves_eval(e.bound, s, node.static_eval) =>
            {
                s
            }
            _ => node.static_eval,
        };
        // The evaluator's score (or the table's copy of it) is no mate.
        debug_assert!(
            node.in_check || node.excluded.is_some() || node.raw_eval.abs() < MATE_BOUND,
            "static evaluation {} at ply {ply} reaches the mate scores",
            node.raw_eval
        );
        // A singular search reads the evaluation its node stored at this ply.
        debug_assert!(
            if node.in_check {
                node.static_eval == NO_EVAL
            } else {
                node.static_eval.abs() < MATE_BOUND
            },
            "static evaluation {} at ply {ply} (in check: {})",
            node.static_eval,
            node.in_check
        );
        self.stack[ply].static_eval = node.static_eval;
        node.improving = !node.in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && node.static_eval > self.stack[ply - 2].static_eval;
    }

    /// The move loop, then the history, correction and table updates.
    fn search_moves<const PV: bool>(&mut self, node: &mut Node) -> Score {
        let ply = node.ply;
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
        let checks = CheckInfo::new(self.pos.board());
        let threats = self.pos.threats();
        let list = self.take_list(ply);
        let mut picker = MovePicker::new(node.tt_move, [killers[0], killers[1], counter], list);
        let mut best = node.tb_floor;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0;
        let mut tried = Tried::default();

        loop {
            let next = self.next_move(&mut picker, prevs, (checks, threats));
            let Some(mv) = next else { break };
            if Some(mv) == node.excluded || (node.is_root() && !self.is_searched_root_move(mv)) {
                continue;
            }
            move_count += 1;
            let mut m = self.move_state(mv, move_count, checks);
            m.killer = killers.contains(&Some(mv));
            if !node.is_root()
                && best > -MATE_BOUND
                && self.pos.has_non_pawn_material(self.pos.side_to_move())
                && self.prune_move(&mut picker, node, &m)
            {
                continue;
            }
            // Read after pruning (most pruned moves need no history) and
            // before the singular search updates the histories.
            m.history = self.move_history(&m, prevs, threats);
            let extension = match self.singular_extension(node, mv) {
                Singular::Extend(e) => e,
                Singular::MultiCut(s) => {
                    self.give_list(ply, picker.into_list());
                    return s;
                }
            };
            let Some(score) = self.search_move::<PV>(node, &mut m, extension, best) else {
                return 0;
            };
            if score > best {
                best = score;
                if score > node.alpha {
                    best_move = Some(mv);
                    if PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= node.beta {
                        break;
                    }
                    node.alpha = score;
                }
            }
            if Some(mv) != best_move {
                tried.push(mv, m.quiet);
            }
        }

        self.give_list(ply, picker.into_list());
        if move_count == 0 {
            return if node.excluded.is_some() {
                node.alpha
            } else if node.in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        // A move was searched, so `best` is some move's score.
        debug_assert!(
            -INFINITE < best && best < INFINITE,
            "best {best} after {move_count} moves at ply {ply}"
        );
        if best >= node.beta
            && let Some(bm) = best_move
        {
            let tried = (tried.quiets(), tried.noisies());
            self.update_histories(bm, node.depth, ply, threats, tried);
        }
        if node.excluded.is_none() && !node.in_check {
            self.update_correction(node, best, best_move);
        }
        let best = best.min(node.tb_cap);
        if node.excluded.is_none() {
            self.store_result(node, best, best_move);
        }
        best
    }

    /// What the move loop knows about `mv` before making it (its history
    /// comes from [`Worker::move_history`]).
    // Inlined: once per move, into the one loop that asks.
    #[inline(always)]
    fn move_state(&self, mv: Move, move_count: usize, checks: CheckInfo) -> MoveState {
        let stm = self.pos.side_to_move();
        let board = self.pos.board();
        let quiet = !self.pos.is_tactical(mv);
        let piece = moving_piece(board, mv);
        MoveState {
            mv,
            move_count,
            quiet,
            // Checks are treated like captures: never futile, SEE-pruned with the noisy margin.
            tame: quiet && !checks.quiet_gives_check(board, mv, piece),
            piece_to: piece_to(stm, piece, mv.to),
            history: 0,
            killer: false,
            gives_check: false,
        }
    }

    /// Butterfly plus continuation history of the move `m` (0 for a noisy move).
    // Inlined: once per move, into the one loop that asks.
    #[inline(always)]
    fn move_history(&self, m: &MoveState, prevs: [Option<PieceTo>; 2], threats: BitBoard) -> i32 {
        if !m.quiet {
            return 0;
        }
        self.hist.butterfly(self.pos.side_to_move(), m.mv, threats)
            + self.hist.continuation(1, prevs[0], m.piece_to)
            + self.hist.continuation(2, prevs[1], m.piece_to)
    }

    /// Makes the move, searches it (with the check extension and late move
    /// reductions; `best` is the node's best score so far) and takes it
    /// back. `None` when the search was stopped.
    fn search_move<const PV: bool>(
        &mut self,
        node: &Node,
        m: &mut MoveState,
        mut extension: i32,
        best: Score,
    ) -> Option<Score> {
        let ply = node.ply;
        if node.is_root() && self.is_main() && self.clock.elapsed_ms() > CURRMOVE_AFTER_MS {
            self.report_currmove(m.mv, m.move_count);
        }
        let nodes_before = self.nodes;
        self.make_move(m.mv);
        self.shared.tt.prefetch(self.pos.key());
        self.stack[ply].piece_to = Some(m.piece_to);
        self.stack[ply].null_move = false;
        m.gives_check = self.pos.in_check();
        if m.gives_check
            && extension == 0
            && self.config.check_extension
            && (ply as i32) < EXTENSION_PLY_LIMIT * self.root_depth
        {
            extension = 1;
        }
        if extension >= 2 {
            self.stack[ply + 1].double_extensions += 1;
        }
        let new_depth = node.depth - 1 + extension;

        let score = if m.move_count == 1 {
            let (alpha, beta) = (node.alpha, node.beta);
            -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, !PV && !node.cut_node)
        } else {
            let r = self.reduction(node, m, new_depth);
            self.search_late_move::<PV>(node, new_depth, r, best)
        };
        self.unmake_move();
        debug_assert_eq!(
            self.pos.key(),
            node.key,
            "make/unmake of {} at ply {ply} changed the key",
            m.mv
        );
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
        if self.stopped {
            return None;
        }
        // The child's score: a mate at the earliest after its ply.
        debug_assert!(
            score.abs() <= MATE - (ply as Score + 1),
            "score {score} of {} at ply {ply} beyond a mate",
            m.mv
        );
        if node.is_root() {
            let nodes = self.nodes - nodes_before;
            self.update_root_move(m.mv, score, node.alpha, m.move_count, nodes);
        }
        Some(score)
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
    fn update_correction(&mut self, node: &Node, best: Score, best_move: Option<Move>) {
        let fail_high = best >= node.beta;
        let fail_low = best_move.is_none();
        if !self.config.correction_history
            || best.abs() >= MATE_BOUND
            || best_move.is_some_and(|m| self.pos.is_tactical(m))
            || (fail_high && best <= node.static_eval)
            || (fail_low && best >= node.static_eval)
        {
            return;
        }
        self.hist
            .correction
            .update(self.pos.board(), node.depth, node.raw_eval, best);
    }

    /// Searches a move after the first: reduced null window first (LMR), then
    /// null window at the full depth (one ply more or less, as the reduced
    /// result beat `best` by much or little), then full window on the PV
    /// (PVS re-searches).
    fn search_late_move<const PV: bool>(
        &mut self,
        node: &Node,
        mut new_depth: i32,
        r: i32,
        best: Score,
    ) -> Score {
        let (ply, alpha, beta) = (node.ply, node.alpha, node.beta);
        // Each move that beat `best` so far raised alpha too (or cut off).
        debug_assert!(
            best <= alpha,
            "best {best} above alpha {alpha} at ply {ply}"
        );
        debug_assert!(
            (0..new_depth.max(1)).contains(&r),
            "reduction {r} of depth {new_depth} at ply {ply}: never into quiescence"
        );
        if !self.config.pvs {
            // Plain alpha-beta: every move gets the full window.
            let mut s = -self.negamax::<PV>(new_depth - r, ply + 1, -beta, -alpha, false);
            if r > 0 && s > alpha {
                s = -self.negamax::<PV>(new_depth, ply + 1, -beta, -alpha, false);
            }
            return s;
        }
        let reduced = new_depth - r;
        let mut s = -self.negamax::<false>(reduced, ply + 1, -alpha - 1, -alpha, true);
        if r > 0 && s > alpha && !self.stopped {
            let deeper = s > best + lmr_deeper_base() + lmr_deeper_per_ply() * r;
            let shallower = s < best + new_depth;
            new_depth += deeper as i32 - shallower as i32;
            if new_depth > reduced {
                s = -self.negamax::<false>(new_depth, ply + 1, -alpha - 1, -alpha, !node.cut_node);
            }
        }
        if PV && s > alpha && s < beta && !self.stopped {
            s = -self.negamax::<true>(new_depth, ply + 1, -beta, -alpha, false);
        }
        s
    }
}
