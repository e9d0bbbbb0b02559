//! One node of the search: negamax alpha-beta, fail-soft, with principal
//! variation search (PVS), and the quiescence search at its horizon.
//!
//! Negamax scores every node from the side to move, so one function serves
//! both players: a child's score is negated and the window (alpha, beta)
//! becomes (-beta, -alpha). A move scoring at least beta proves the opponent
//! will avoid this node, so the remaining moves need no search (a cutoff).
//! PVS searches the first move with the full window and the others with a
//! null window (alpha, alpha + 1) that can only answer "better or not"; only a
//! move that turns out better is searched again with the full window. `PV`
//! is true on the principal variation (window wider than one point).
//!
//! `negamax` reads in the order a node runs, step by step. The margins and
//! reductions are the pure functions after it; the techniques that search
//! again (null move, ProbCut, the singular test, the late-move searches)
//! are methods beside it. The numbers are in `params`, the switches in
//! `config`.

use std::sync::atomic::Ordering;

use super::history::{Cutoff, PieceTo, Tried, learn_cutoff, piece_to};
use super::movepick::{MovePicker, Stage};
use super::params::{
    CURRMOVE_AFTER_MS, EXTENSION_PLY_LIMIT, capture_futility_base, delta_margin,
    eval_history_scale, futility_base, futility_max_depth, futility_per_depth,
    hindsight_shallower_margin, history_bonus_max, iir_min_depth, improving_four_plies, lmp_base,
    lmp_max_depth, lmp_not_improving_pct, lmr_cut_node, lmr_deeper_base, lmr_deeper_per_ply,
    lmr_gives_check, lmr_history_divisor, lmr_killer, lmr_min_depth, lmr_noisy_history_divisor,
    lmr_noisy_pct, lmr_non_pv, lmr_not_improving, lmr_refuted_moves, lmr_tt_capture,
    nmp_base_reduction, nmp_depth_divisor, nmp_eval_divisor, nmp_eval_max_reduction, nmp_min_depth,
    nmp_verify_depth, nmp_verify_quarters, probcut_margin, probcut_min_depth, probcut_reduction,
    probcut_tt_depth_slack, razor_base, razor_max_depth, razor_per_depth_sq,
    rfp_margin as rfp_margin_per_ply, rfp_max_depth, se_depth_divisor, se_double_margin,
    se_margin_per_depth, se_max_double, se_min_depth, se_negative, se_tt_depth_slack,
    see_max_depth, see_noisy_margin, see_quiet_margin, tt_eval_depth_slack, tt_replacement,
};
use super::score::{
    DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, Score, mated_in, score_from_tt,
    score_to_tt, tb_win_in,
};
use super::thread::{Context, ThreadData};
use crate::board::moves::{CheckInfo, moving_piece};
use crate::board::see::{see_ge, see_value};
use crate::board::{BitBoard, Move};
use crate::tablebase::Wdl;
use crate::tt::{
    MAX_STORED_DEPTH, QS_DEPTH_CHECKS, QS_DEPTH_NO_CHECKS, TtBound, TtEntry, bound_decides,
    improves_eval,
};

/// What a node knows before its move loop, for the techniques that search
/// again from it and for its table store.
#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    ply: usize,
    /// Remaining depth (after internal iterative reduction).
    depth: i32,
    alpha: Score,
    beta: Score,
    /// On the principal variation (window wider than one point).
    pv: bool,
    /// Expected to fail high (a null-window child of a non-cut node).
    cut_node: bool,
    in_check: bool,
    /// The static evaluation rose since our previous move (two plies back).
    improving: bool,
    /// The evaluator's score, as the table stores it (`NO_EVAL` in check).
    raw_eval: Score,
    /// `raw_eval` corrected by the correction history.
    static_eval: Score,
    /// `static_eval`, or a hash score that bounds it the right way.
    eval: Score,
    tt_entry: Option<TtEntry>,
    /// The hash score, adjusted to this ply.
    tt_score: Option<Score>,
    tt_move: Option<Move>,
    /// The hash move is a capture or a queen promotion.
    tt_capture: bool,
    /// Move left out by a singular-extension verification search.
    excluded: Option<Move>,
    /// Bounds a tablebase probe set on the node's score (PV nodes only).
    tb_floor: Score,
    tb_cap: Score,
}

impl Node {
    /// A node with no evaluation and no table entry yet.
    fn new(key: u64, ply: usize, depth: i32, (alpha, beta): (Score, Score), pv: bool) -> Self {
        Self {
            key,
            ply,
            depth,
            alpha,
            beta,
            pv,
            cut_node: false,
            in_check: false,
            improving: false,
            raw_eval: NO_EVAL,
            static_eval: NO_EVAL,
            eval: NO_EVAL,
            tt_entry: None,
            tt_score: None,
            tt_move: None,
            tt_capture: false,
            excluded: None,
            tb_floor: -INFINITE,
            tb_cap: INFINITE,
        }
    }

    fn is_root(&self) -> bool {
        self.ply == 0
    }

    /// On a principal variation now, or stored as one by the table.
    fn tt_pv(&self) -> bool {
        self.pv || self.tt_entry.is_some_and(|e| e.pv)
    }
}

/// One move of a node's move loop.
#[derive(Clone, Copy, Debug)]
struct MoveState {
    /// 1 for the first move searched.
    move_count: usize,
    /// Neither a capture nor a queen promotion.
    quiet: bool,
    /// Quiet and not giving check: what futility and late move pruning may skip.
    tame: bool,
    piece_to: PieceTo,
    /// Butterfly plus continuation history (0 for a noisy move).
    history: i32,
    killer: bool,
    /// Known only once the move is made.
    gives_check: bool,
    /// The node's moves refuted by a cutoff in their child so far.
    refuted: u32,
}

impl ThreadData {
    /// Searches the node at `ply` to `depth` within (alpha, beta).
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        cx: &mut Context,
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
        // Step 1. The horizon: quiescence takes over. Count the node.
        if depth <= 0 {
            return self.quiescence::<PV>(cx, ply, alpha, beta, true);
        }
        self.pv.clear(ply);
        if self.visit(cx) {
            return 0;
        }
        self.counters.seldepth = self.counters.seldepth.max(ply);
        let mut node = Node::new(self.pos.key(), ply, depth, (alpha, beta), PV);
        node.cut_node = cut_node;
        node.in_check = self.pos.in_check();
        node.excluded = self.stack[ply].excluded;
        let (in_check, c) = (node.in_check, self.config);

        // Step 2. Early exits: draws, the ply limit, mate distance (not at
        // the root).
        if !node.is_root() {
            if self.is_draw(ply) {
                return self.draw_score(ply);
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate() };
            }
            if c.mate_distance_pruning {
                // No line from here can beat a mate already found nearer the root.
                node.alpha = node.alpha.max(mated_in(ply));
                node.beta = node.beta.min(MATE - ply as Score - 1);
                if node.alpha >= node.beta {
                    return node.alpha;
                }
            }
        }

        // Step 3. The transposition table (not in a singular-extension
        // search): its move, and its score when that decides a non-PV node.
        let entry = self.probe_tt(cx, node.key, node.excluded.is_none());
        node.tt_entry = entry;
        node.tt_score = entry.map(|e| score_from_tt(e.score, ply));
        node.tt_move = if node.is_root() {
            Some(self.root.moves[self.root.pv_idx].mv)
        } else {
            entry.and_then(|e| e.mv)
        };
        node.tt_capture = node.tt_move.is_some_and(|m| self.pos.is_tactical(m));
        if let (Some(e), Some(s)) = (entry, node.tt_score)
            && !PV
            && e.depth >= depth
            && bound_decides(e.bound, s, node.beta)
        {
            return s;
        }

        // Step 4. Tablebases.
        if let Some(s) = self.probe_tablebase(cx, &mut node) {
            return s;
        }

        // Step 5. Static evaluation: the raw one is what the table stores;
        // corrected by history; then a hash score whose bound points the
        // right way, if from a main search of similar depth (never a
        // quiescence result: a shallow bound that missed a threat would
        // keep pruning). A singular search reuses its node's evaluation.
        if in_check {
            (node.raw_eval, node.static_eval) = (NO_EVAL, NO_EVAL);
        } else if node.excluded.is_some() {
            node.static_eval = self.stack[ply].static_eval;
        } else {
            node.raw_eval = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            node.static_eval = self.corrected(node.raw_eval);
        }
        node.eval = match (entry, node.tt_score) {
            (Some(e), Some(s))
                if !in_check
                    && e.depth >= (depth - tt_eval_depth_slack()).max(QS_DEPTH_CHECKS + 1)
                    && improves_eval(e.bound, s, node.static_eval) =>
            {
                s
            }
            _ => node.static_eval,
        };
        // The evaluator's score (or the table's copy of it) is no mate.
        debug_assert!(
            in_check || node.excluded.is_some() || node.raw_eval.abs() < MATE_BOUND,
            "static evaluation {} at ply {ply} reaches the mate scores",
            node.raw_eval
        );
        debug_assert!(
            if in_check {
                node.static_eval == NO_EVAL
            } else {
                node.static_eval.abs() < MATE_BOUND
            },
            "static evaluation {} at ply {ply} (in check: {in_check})",
            node.static_eval,
        );
        self.stack[ply].static_eval = node.static_eval;
        node.improving = self.improving(&node);
        self.learn_from_eval_change(&node);
        self.hindsight(&mut node);
        let depth = node.depth;
        debug_assert!(ply + 1 < MAX_PLY, "a node at ply {ply} searches children");
        self.hist.clear_killers(ply + 1);
        self.stack[ply + 1].cutoffs = 0;
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;

        // Step 6. Node pruning (non-PV, not in check, not in a singular
        // search), on the evaluation against the window.
        let (eval, beta) = (node.eval, node.beta);
        if !PV && !in_check && node.excluded.is_none() {
            // Razoring: far below alpha, a quiescence search decides.
            let alpha = node.alpha;
            if c.razoring && depth <= razor_max_depth() && eval + razor_margin(depth) < alpha {
                let q = self.quiescence::<false>(cx, ply, alpha, alpha + 1, true);
                if q <= alpha {
                    return q;
                }
            }
            // Reverse futility: far enough above beta, nothing will bring it down.
            if c.reverse_futility
                && depth <= rfp_max_depth()
                && eval.abs() < MATE_BOUND
                && eval - rfp_margin(depth, node.improving) >= beta
            {
                return eval;
            }
            if c.null_move
                && depth >= nmp_min_depth()
                && eval >= beta
                && node.static_eval >= beta
                && let Some(s) = self.null_move(cx, &node)
            {
                return s;
            }
            // ProbCut, unless the table already knows the captures fall short.
            if c.probcut && depth >= probcut_min_depth() && beta.abs() < MATE_BOUND {
                let rbeta = beta + probcut_margin();
                let useless = entry.is_some_and(|e| {
                    e.depth >= depth - probcut_tt_depth_slack() && e.score < rbeta
                });
                if !useless && let Some(s) = self.probcut(cx, &node, rbeta) {
                    return s;
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this
        // node is searched shallower now, and well ordered next iteration.
        if c.iir && depth >= iir_min_depth() && node.tt_move.is_none() && (PV || cut_node) {
            node.depth -= 1;
        }
        let depth = node.depth;

        // Step 8. The move loop.
        let prevs = self.stack.prevs(ply);
        let killers = if c.killers {
            self.hist.killers(ply)
        } else {
            [None; 2]
        };
        let counter = if c.countermove {
            self.hist.countermove(prevs[0])
        } else {
            None
        };
        let checks = CheckInfo::new(self.pos.board());
        let threats = self.pos.threats();
        let list = self.stack.take_list(ply);
        let mut picker = MovePicker::new(node.tt_move, [killers[0], killers[1], counter], list);
        let mut best = node.tb_floor;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0;
        let mut tried = Tried::default();
        loop {
            let next = self.next_move(&mut picker, prevs, (checks, threats));
            let Some(mv) = next else { break };
            if Some(mv) == node.excluded || (node.is_root() && !self.root.is_searched(mv)) {
                continue;
            }
            move_count += 1;
            let mut m = self.move_state(mv, move_count, checks);
            m.killer = killers.contains(&Some(mv));

            // Step 8a. Move pruning at shallow depth (not at the root, not
            // while every move so far is mated, not with pawns only). Tame
            // moves face late move, futility and quiet SEE pruning; captures,
            // promotions and checks only the noisy SEE test.
            if !node.is_root()
                && best > -MATE_BOUND
                && self.pos.has_non_pawn_material(self.pos.side_to_move())
            {
                let lmr_depth = (depth - self.lmr.get(depth, move_count)).max(0);
                let board = self.pos.board();
                if m.tame {
                    if c.late_move_pruning
                        && depth <= lmp_max_depth()
                        && move_count > lmp_threshold(depth, node.improving)
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // Not `skip_quiets`: a later quiet check is not futile.
                    if c.futility
                        && !in_check
                        && lmr_depth <= futility_max_depth()
                        && node.static_eval + futility_margin(lmr_depth) <= node.alpha
                    {
                        continue;
                    }
                    if c.see_pruning
                        && lmr_depth <= see_max_depth()
                        && !see_ge(board, mv, -see_quiet_margin() * lmr_depth)
                    {
                        continue;
                    }
                } else {
                    // Capture futility: the victim's value and a margin
                    // cannot lift the static evaluation to alpha.
                    if c.futility
                        && capture_futility_base() != 0
                        && !in_check
                        && lmr_depth <= futility_max_depth()
                        && mv.promotion.is_none()
                        && let Some(victim) = self.pos.captured(mv)
                        && node.static_eval
                            + capture_futility_base()
                            + futility_per_depth() * lmr_depth
                            + see_value(victim)
                            <= node.alpha
                        && !checks.gives_check_by(board, mv, moving_piece(board, mv))
                    {
                        continue;
                    }
                    if c.see_pruning
                        && depth <= see_max_depth()
                        && !see_ge(board, mv, -see_noisy_margin() * depth)
                    {
                        continue;
                    }
                }
            }
            // Its history: read after pruning (most pruned moves need none)
            // and before the singular search updates the histories.
            if m.quiet {
                m.history = self.hist.butterfly(self.pos.side_to_move(), mv, threats)
                    + self.hist.continuation(1, prevs[0], m.piece_to)
                    + self.hist.continuation(2, prevs[1], m.piece_to);
            } else if lmr_noisy_history_divisor() != 0
                && let Some(victim) = self.pos.captured(mv)
            {
                m.history = self.hist.capture(m.piece_to, victim);
            }

            // Step 8b. Extensions: singular (or multi-cut), then check.
            let mut extension = 0;
            if !node.is_root()
                && Some(mv) == node.tt_move
                && node.excluded.is_none()
                && c.singular_extension
            {
                match self.singular(cx, &node, mv) {
                    Singular::Extend(e) => extension = e,
                    Singular::MultiCut(s) => {
                        self.stack.give_list(ply, picker.into_list());
                        return s;
                    }
                }
            }
            if node.is_root()
                && self.is_main()
                && let Some(r) = cx.reporter.as_mut()
                && cx.task.clock.elapsed_ms() > CURRMOVE_AFTER_MS
            {
                let (text, depth) = (self.pos.uci(mv), self.counters.root_depth as u32);
                r.currmove(depth, &text, move_count + self.root.pv_idx);
            }
            let nodes_before = self.counters.nodes;
            self.make_move(ply, Some(mv), Some(m.piece_to));
            cx.shared.tt.prefetch(self.pos.key());
            if m.quiet {
                self.stack[ply].quiet = Some((mv, threats));
            }
            m.gives_check = self.pos.in_check();
            if m.gives_check
                && extension == 0
                && c.check_extension
                && (ply as i32) < EXTENSION_PLY_LIMIT * self.counters.root_depth
            {
                extension = 1;
            }
            if extension >= 2 {
                self.stack[ply + 1].double_extensions += 1;
            }
            let new_depth = depth - 1 + extension;

            // Step 8c. Search the move: the first with the full window, the
            // others reduced and with a null window first.
            let score = if move_count == 1 {
                let (alpha, beta) = (node.alpha, node.beta);
                -self.negamax::<PV>(cx, new_depth, ply + 1, -beta, -alpha, !PV && !node.cut_node)
            } else {
                let r = if c.lmr {
                    let base = self.lmr.get(depth, move_count);
                    m.refuted = self.stack[ply + 1].cutoffs;
                    reduction(base, &node, &m, new_depth)
                } else {
                    0
                };
                self.search_late_move::<PV>(cx, &node, new_depth, r, best)
            };
            self.unmake_move();
            debug_assert_eq!(
                self.pos.key(),
                node.key,
                "make/unmake of {mv} at ply {ply} changed the key"
            );
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            if self.counters.stopped {
                return 0;
            }
            // The child's score: a mate at the earliest after its ply.
            debug_assert!(
                score.abs() <= MATE - (ply as Score + 1),
                "score {score} of {mv} at ply {ply} beyond a mate"
            );
            if node.is_root() {
                let nodes = self.counters.nodes - nodes_before;
                self.update_root_move(mv, score, node.alpha, move_count, nodes);
            }

            // Step 8d. A new best move; a cutoff.
            if score > best {
                best = score;
                if score > node.alpha {
                    best_move = Some(mv);
                    if PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= node.beta {
                        self.stack[ply].cutoffs += 1;
                        break;
                    }
                    node.alpha = score;
                }
            }
            if Some(mv) != best_move {
                tried.push(mv, m.quiet);
            }
        }
        self.stack.give_list(ply, picker.into_list());

        // Step 9. No move: mate, stalemate, or (singular search) below alpha.
        if move_count == 0 {
            return if node.excluded.is_some() {
                node.alpha
            } else if in_check {
                mated_in(ply)
            } else {
                self.draw_score(ply)
            };
        }
        // A move was searched, so `best` is some move's score.
        debug_assert!(
            -INFINITE < best && best < INFINITE,
            "best {best} after {move_count} moves at ply {ply}"
        );

        // Step 10. Learn: the histories from a cutoff, the correction
        // history from the score, the table.
        if best >= node.beta
            && let Some(bm) = best_move
        {
            let cut = Cutoff {
                best: bm,
                depth,
                ply,
                prevs,
                threats,
                quiets: tried.quiets(),
                noisies: tried.noisies(),
            };
            learn_cutoff(&mut self.hist, &self.pos, &cut, c.history);
        }
        // The correction history learns when the result says something
        // about the static evaluation: a fail high above it, a fail low
        // below it, or an exact score; not after a noisy best move (the
        // gain is tactical, not positional) nor from mate scores.
        let (fail_high, fail_low) = (best >= node.beta, best_move.is_none());
        if node.excluded.is_none()
            && !in_check
            && c.correction_history
            && best.abs() < MATE_BOUND
            && !best_move.is_some_and(|m| self.pos.is_tactical(m))
            && !(fail_high && best <= node.static_eval)
            && !(fail_low && best >= node.static_eval)
        {
            let board = self.pos.board();
            self.hist
                .correction
                .update(board, depth, node.raw_eval, best);
        }
        let best = best.min(node.tb_cap);
        if node.excluded.is_none() {
            self.store_result(cx, &node, best, best_move);
        }
        best
    }

    /// Whether the static evaluation rose since this side's previous move
    /// (two plies back; four if in check then and the option is on).
    fn improving(&self, node: &Node) -> bool {
        let (ply, eval) = (node.ply, node.static_eval);
        if node.in_check || ply < 2 {
            return false;
        }
        let before = self.stack[ply - 2].static_eval;
        if before != NO_EVAL {
            return eval > before;
        }
        let earlier = if ply >= 4 {
            self.stack[ply - 4].static_eval
        } else {
            NO_EVAL
        };
        improving_four_plies() != 0 && earlier != NO_EVAL && eval > earlier
    }

    /// The opponent's quiet move that led here is judged by what it did to
    /// the static evaluation: its butterfly history learns the change.
    fn learn_from_eval_change(&mut self, node: &Node) {
        let (ply, scale) = (node.ply, eval_history_scale());
        if scale == 0 || node.is_root() || node.in_check || node.excluded.is_some() {
            return;
        }
        let (parent, quiet) = (self.stack[ply - 1].static_eval, self.stack[ply - 1].quiet);
        let Some((mv, threats)) = quiet else { return };
        if parent == NO_EVAL {
            return;
        }
        let max = history_bonus_max();
        let bonus = (-scale * (node.static_eval + parent)).clamp(-max, max);
        let opponent = !self.pos.side_to_move();
        self.hist.update_butterfly((opponent, threats), mv, bonus);
    }

    /// Step 5b. Hindsight: the parent reduced the move to this node on its
    /// ordering alone; if the static evaluations before and after the move
    /// now say it made its side look much worse, this node (likely a
    /// refutation) is searched a ply shallower still.
    fn hindsight(&self, node: &mut Node) {
        let ply = node.ply;
        if node.is_root() || node.in_check || node.excluded.is_some() {
            return;
        }
        let (prior, parent_eval) = (self.stack[ply].reduction, self.stack[ply - 1].static_eval);
        let margin = hindsight_shallower_margin();
        if margin == 0 || prior < 2 || parent_eval == NO_EVAL || node.depth < 2 {
            return;
        }
        // Above zero: the move made its side's position look worse.
        if node.static_eval + parent_eval > margin {
            node.depth -= 1;
        }
    }

    /// Null move pruning: let the opponent move twice; if a reduced search
    /// still fails high, the node almost surely does. Skipped when the side to
    /// move has only pawns (zugzwang is common there), right after another
    /// null move, and inside a verification search.
    fn null_move(&mut self, cx: &mut Context, node: &Node) -> Option<Score> {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let stm = self.pos.side_to_move();
        if ply < self.nmp_min_ply
            || !self.pos.has_non_pawn_material(stm)
            || (ply > 0 && self.stack[ply - 1].null_move)
        {
            return None;
        }
        let r = nmp_reduction(depth, node.eval, beta);
        if !self.make_move(ply, None, None) {
            return None;
        }
        let score =
            -self.negamax::<false>(cx, depth - r, ply + 1, -beta, -beta + 1, !node.cut_node);
        self.unmake_move();
        debug_assert_eq!(
            self.pos.key(),
            node.key,
            "null move and its undo changed the key"
        );
        if self.counters.stopped || score < beta {
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
        let v = self.negamax::<false>(cx, depth - r, ply, beta - 1, beta, false);
        self.nmp_min_ply = 0;
        (v >= beta).then_some(score)
    }

    /// ProbCut: captures that beat `rbeta` in a quiescence and then a
    /// shallow search are taken as proof that the node fails high. The table
    /// gets the raw evaluation: a probe corrects it again.
    fn probcut(&mut self, cx: &mut Context, node: &Node, rbeta: Score) -> Option<Score> {
        let (depth, ply) = (node.depth, node.ply);
        let tt_move = node.tt_entry.and_then(|e| e.mv);
        let checks = CheckInfo::new(self.pos.board());
        let list = self.stack.take_list(ply);
        let mut picker = MovePicker::new_quiescence(tt_move, false, false, list);
        let prevs = self.stack.prevs(ply);
        loop {
            let next = self.next_move(&mut picker, prevs, (checks, BitBoard::EMPTY));
            let Some(mv) = next else { break };
            if !self.pos.is_tactical(mv) || !see_ge(self.pos.board(), mv, rbeta - node.static_eval)
            {
                continue;
            }
            let stm = self.pos.side_to_move();
            let pt = piece_to(stm, moving_piece(self.pos.board(), mv), mv.to);
            self.make_move(ply, Some(mv), Some(pt));
            let mut s = -self.quiescence::<false>(cx, ply + 1, -rbeta, -rbeta + 1, false);
            if s >= rbeta {
                let d = depth - probcut_reduction();
                s = -self.negamax::<false>(cx, d, ply + 1, -rbeta, -rbeta + 1, !node.cut_node);
            }
            self.unmake_move();
            debug_assert_eq!(
                self.pos.key(),
                node.key,
                "make/unmake of {mv} in ProbCut changed the key"
            );
            if self.counters.stopped {
                return None;
            }
            if s >= rbeta {
                self.stack.give_list(ply, picker.into_list());
                let proof = Node {
                    depth: depth - probcut_tt_depth_slack(),
                    beta: rbeta,
                    pv: false,
                    ..*node
                };
                self.store_result(cx, &proof, s, Some(mv));
                return Some(s);
            }
        }
        self.stack.give_list(ply, picker.into_list());
        None
    }

    /// What the move loop knows about `mv` before making it.
    // Inlined: once per move, into the one loop that asks.
    #[inline(always)]
    fn move_state(&self, mv: Move, move_count: usize, checks: CheckInfo) -> MoveState {
        let stm = self.pos.side_to_move();
        let board = self.pos.board();
        let quiet = !self.pos.is_tactical(mv);
        let piece = moving_piece(board, mv);
        MoveState {
            move_count,
            quiet,
            // Checks are treated like captures: never futile, SEE-pruned with the noisy margin.
            tame: quiet && !checks.quiet_gives_check(board, mv, piece),
            piece_to: piece_to(stm, piece, mv.to),
            history: 0,
            killer: false,
            gives_check: false,
            refuted: 0,
        }
    }

    /// Singular extension: is the hash move much better than all others
    /// (checked by a reduced search that excludes it)? Then it is extended;
    /// if even without it the node fails high, the node returns (multi-cut);
    /// if it is merely good enough, it is searched shallower (negative
    /// extension). Double extensions only off the principal variation: PV
    /// nodes are searched with full windows, where growing the tree costs most.
    #[inline(never)]
    fn singular(&mut self, cx: &mut Context, node: &Node, mv: Move) -> Singular {
        let (Some(e), Some(tt_score)) = (node.tt_entry, node.tt_score) else {
            return Singular::Extend(0);
        };
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let usable = depth >= se_min_depth()
            && e.depth >= depth - se_tt_depth_slack()
            && e.bound != TtBound::Upper
            && tt_score.abs() < MATE_BOUND
            && (ply as i32) < EXTENSION_PLY_LIMIT * self.counters.root_depth;
        if !usable {
            return Singular::Extend(0);
        }
        debug_assert!(
            self.pos.board().is_legal(mv),
            "singular test of the illegal hash move {mv}"
        );
        let singular_beta = tt_score - se_margin_per_depth() * depth;
        self.stack[ply].excluded = Some(mv);
        let s = self.negamax::<false>(
            cx,
            (depth - 1) / se_depth_divisor(),
            ply,
            singular_beta - 1,
            singular_beta,
            node.cut_node,
        );
        self.stack[ply].excluded = None;
        if s < singular_beta {
            let double = !node.pv
                && s < singular_beta - se_double_margin()
                && self.stack[ply].double_extensions < se_max_double();
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            // Multi-cut: even without the hash move the node fails high.
            Singular::MultiCut(singular_beta)
        } else if tt_score >= beta {
            Singular::Extend(-se_negative())
        } else {
            Singular::Extend(0)
        }
    }

    /// Searches a move after the first: reduced null window first (LMR), then
    /// null window at the full depth (one ply more or less, as the reduced
    /// result beat `best` by much or little), then full window on the PV
    /// (PVS re-searches).
    fn search_late_move<const PV: bool>(
        &mut self,
        cx: &mut Context,
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
            let mut s = -self.negamax::<PV>(cx, new_depth - r, ply + 1, -beta, -alpha, false);
            if r > 0 && s > alpha {
                s = -self.negamax::<PV>(cx, new_depth, ply + 1, -beta, -alpha, false);
            }
            return s;
        }
        let reduced = new_depth - r;
        self.stack[ply + 1].reduction = r;
        let mut s = -self.negamax::<false>(cx, reduced, ply + 1, -alpha - 1, -alpha, true);
        self.stack[ply + 1].reduction = 0;
        if r > 0 && s > alpha && !self.counters.stopped {
            let deeper = s > best + lmr_deeper_base() + lmr_deeper_per_ply() * r;
            let shallower = s < best + new_depth;
            new_depth += deeper as i32 - shallower as i32;
            if new_depth > reduced {
                let cut = !node.cut_node;
                s = -self.negamax::<false>(cx, new_depth, ply + 1, -alpha - 1, -alpha, cut);
            }
        }
        if PV && s > alpha && s < beta && !self.counters.stopped {
            s = -self.negamax::<true>(cx, new_depth, ply + 1, -beta, -alpha, false);
        }
        s
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
        let Some(rm) = self.root.moves.iter_mut().find(|r| r.mv == mv) else {
            return;
        };
        rm.nodes += nodes;
        if move_count == 1 || score > alpha {
            rm.score = score;
            rm.seldepth = self.counters.seldepth;
            rm.pv.clear();
            rm.pv.push(mv);
            // Disjoint fields: the child's line is read in place, not copied.
            rm.pv.extend_from_slice(self.pv.line(1));
        } else {
            rm.score = -INFINITE;
        }
    }

    /// The static evaluation `raw` plus the correction history's estimate of its error.
    fn corrected(&self, raw: Score) -> Score {
        if self.config.correction_history {
            self.hist.correction.correct(self.pos.board(), raw)
        } else {
            raw
        }
    }

    /// The table's entry for `key`, if this node may probe and the table is on.
    fn probe_tt(&self, cx: &Context, key: u64, allowed: bool) -> Option<TtEntry> {
        if allowed && self.config.tt {
            cx.shared.tt.probe(key)
        } else {
            None
        }
    }

    /// Stores a node's result (unless the table is switched off): a lower
    /// bound if it failed high, exact if a PV node found a move inside the
    /// window, an upper bound otherwise, with the raw static evaluation.
    fn store_result(&self, cx: &Context, node: &Node, best: Score, best_move: Option<Move>) {
        if !self.config.tt {
            return;
        }
        let bound = if best >= node.beta {
            TtBound::Lower
        } else if node.pv && best_move.is_some() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let entry = TtEntry {
            mv: best_move,
            score: score_to_tt(best, node.ply),
            eval: if node.in_check { 0 } else { node.raw_eval },
            depth: node.depth,
            bound,
            pv: node.tt_pv(),
        };
        // The evaluator's score (or the table's copy of it) is no mate.
        debug_assert!(
            entry.eval.abs() < MATE_BOUND,
            "stored static evaluation {} out of the evaluation range",
            entry.eval
        );
        cx.shared.tt.store(node.key, entry, tt_replacement());
    }

    /// Step 4: probes the tablebases (Syzygy WDL) at a non-root node. Only
    /// right after a capture or pawn move (halfmove clock 0): then the
    /// tables' result holds whatever the clock, and such nodes are few
    /// enough that the probes cost little. Returns the score when it
    /// decides the node; otherwise, on a PV node, bounds the node's score.
    fn probe_tablebase(&mut self, cx: &Context, node: &mut Node) -> Option<Score> {
        let syzygy = self.syzygy.as_ref()?;
        if node.is_root() || node.excluded.is_some() || self.pos.halfmove_clock() != 0 {
            return None;
        }
        let board = self.pos.board();
        let pieces = board.occupied().len();
        let cardinality = syzygy.cardinality();
        if pieces > cardinality || (pieces == cardinality && node.depth < syzygy.probe_depth) {
            return None;
        }
        let wdl = syzygy.tables.probe_wdl(board)?;
        let (score, bound) = tb_score(wdl, syzygy.rule50, node.ply);
        cx.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let decides = match bound {
            TtBound::Exact => true,
            TtBound::Lower => score >= node.beta,
            TtBound::Upper => score <= node.alpha,
        };
        if decides {
            if self.config.tt {
                let entry = TtEntry {
                    mv: None,
                    score: score_to_tt(score, node.ply),
                    // Later visits read the entry's evaluation as this node's.
                    eval: if node.in_check { 0 } else { self.evaluate() },
                    depth: (node.depth + TB_STORE_DEPTH_BONUS).min(MAX_STORED_DEPTH),
                    bound,
                    pv: node.tt_pv(),
                };
                cx.shared.tt.store(node.key, entry, tt_replacement());
            }
            return Some(score);
        }
        if node.pv {
            // A won position is worth at least the win; the search may
            // still find a mate. A lost one at most the loss.
            if bound == TtBound::Lower {
                node.tb_floor = score;
                node.alpha = node.alpha.max(score);
            } else {
                node.tb_cap = score;
            }
        }
        None
    }
}

/// The outcome of a singular-extension test.
enum Singular {
    Extend(i32),
    MultiCut(Score),
}

// --- Margins and reductions ---

/// Razoring: how far below alpha the evaluation must be.
fn razor_margin(depth: i32) -> Score {
    razor_base() + razor_per_depth_sq() * depth * depth
}

/// Reverse futility: how far above beta the evaluation must be (a ply
/// less when improving).
fn rfp_margin(depth: i32, improving: bool) -> Score {
    rfp_margin_per_ply() * (depth - improving as i32)
}

/// Null move: the plies the search after the pass is reduced by, more the
/// further the evaluation is above beta.
fn nmp_reduction(depth: i32, eval: Score, beta: Score) -> i32 {
    nmp_base_reduction()
        + depth / nmp_depth_divisor()
        + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max_reduction())
}

/// Futility: what a quiet move at (reduced) depth could still add.
fn futility_margin(lmr_depth: i32) -> Score {
    futility_base() + futility_per_depth() * lmr_depth
}

/// Quiet moves searched before late move pruning starts (fewer when the
/// evaluation is not improving: the node is less promising).
fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = lmp_base() + depth * depth;
    (if improving {
        base
    } else {
        base * lmp_not_improving_pct() / 100
    }) as usize
}

/// The late move reduction of move `m` at `node`, in plies (0 = none),
/// from the table's `base` for its depth and number.
fn reduction(base: i32, node: &Node, m: &MoveState, new_depth: i32) -> i32 {
    if node.depth < lmr_min_depth() || m.move_count <= 1 + node.pv as usize {
        return 0;
    }
    let mut r = base;
    if !m.quiet {
        r = r * lmr_noisy_pct() / 100;
        let divisor = lmr_noisy_history_divisor();
        if divisor != 0 {
            r -= m.history / divisor;
        }
    }
    r += (!node.pv) as i32 * lmr_non_pv()
        + node.cut_node as i32 * lmr_cut_node()
        + (!node.improving) as i32 * lmr_not_improving();
    r -= m.gives_check as i32 * lmr_gives_check() + m.killer as i32 * lmr_killer();
    let refuted = lmr_refuted_moves();
    r += (refuted != 0 && m.refuted > refuted) as i32;
    if m.quiet {
        r += node.tt_capture as i32 * lmr_tt_capture();
        r -= m.history / lmr_history_divisor();
    }
    r.clamp(0, (new_depth - 1).max(0))
}

/// Probes deepen the stored entry: the result is exact at any depth.
const TB_STORE_DEPTH_BONUS: i32 = 6;

/// The score of a tablebase result `ply` plies from the root and whether it
/// is exact or a bound (a win is at least a win: a mate may be nearer).
/// Under the fifty-move rule a cursed win scores just above a draw.
fn tb_score(wdl: Wdl, rule50: bool, ply: usize) -> (Score, TtBound) {
    match (wdl, rule50) {
        (Wdl::Win, _) | (Wdl::CursedWin, false) => (tb_win_in(ply), TtBound::Lower),
        (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => (-tb_win_in(ply), TtBound::Upper),
        (Wdl::CursedWin, true) => (DRAW + 1, TtBound::Exact),
        (Wdl::BlessedLoss, true) => (DRAW - 1, TtBound::Exact),
        (Wdl::Draw, _) => (DRAW, TtBound::Exact),
    }
}

// --- Quiescence ---

impl ThreadData {
    /// Quiescence search: at the horizon, keep searching captures (and
    /// queen promotions) until the position is quiet, so that the static
    /// evaluation is never taken in the middle of an exchange (the horizon
    /// effect). The side to move may "stand pat": accept the static
    /// evaluation instead of capturing, since some quiet move is assumed to
    /// keep it. In check there is no standing pat and every evasion is
    /// searched. `checks`: also search quiet checks (only at the first
    /// quiescence ply).
    pub(super) fn quiescence<const PV: bool>(
        &mut self,
        cx: &mut Context,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        checks: bool,
    ) -> Score {
        debug_assert!(ply < MAX_PLY, "quiescence at ply {ply}, beyond the stacks");
        debug_assert!(
            -INFINITE <= alpha && alpha < beta && beta <= INFINITE,
            "quiescence window ({alpha}, {beta}) at ply {ply}"
        );
        debug_assert!(
            PV || beta == alpha + 1,
            "non-PV quiescence at ply {ply} with window ({alpha}, {beta})"
        );
        // Q1. Count the node; draws and the ply limit.
        self.pv.clear(ply);
        if self.visit(cx) {
            return 0;
        }
        self.counters.seldepth = self.counters.seldepth.max(ply);
        if self.is_draw(ply) {
            return self.draw_score(ply);
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        if !self.config.quiescence {
            return self.leaf_without_quiescence(ply);
        }

        // Q2. The transposition table.
        let checks = checks && self.config.quiescence_checks;
        // A result without quiet checks must not stand in for one with them.
        let tt_depth = if in_check || checks {
            QS_DEPTH_CHECKS
        } else {
            QS_DEPTH_NO_CHECKS
        };
        let key = self.pos.key();
        let entry = self.probe_tt(cx, key, true);
        // The entry with its score at this ply, converted once.
        let tt = entry.map(|e| (e, score_from_tt(e.score, ply)));
        if let (false, Some((e, s))) = (PV, tt)
            && e.depth >= tt_depth
            && bound_decides(e.bound, s, beta)
            && (e.bound != TtBound::Upper || s <= alpha)
        {
            return s;
        }

        // Q3. Stand pat. The table keeps the raw evaluation; the search uses
        // the corrected one.
        let (raw_eval, static_eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            (raw, self.corrected(raw))
        };
        // A hash score whose bound points the right way is a better guess
        // than the static evaluation for standing pat.
        let mut best = match tt {
            Some((e, s)) if !in_check && improves_eval(e.bound, s, static_eval) => s,
            _ => static_eval,
        };
        if !in_check {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        // Q4. The captures (evasions in check, quiet checks at the first ply).
        let prevs = self.stack.prevs(ply);
        // Only scoring quiet moves (evasions, quiet checks) asks which give check.
        let check_info = if in_check || checks {
            CheckInfo::new(self.pos.board())
        } else {
            CheckInfo::UNUSED
        };
        let list = self.stack.take_list(ply);
        let mut picker =
            MovePicker::new_quiescence(entry.and_then(|e| e.mv), in_check, checks, list);
        let mut best_move = None;
        let mut moves = 0;
        loop {
            let next = self.next_move(&mut picker, prevs, (check_info, BitBoard::EMPTY));
            let Some(mv) = next else { break };
            moves += 1;
            if !in_check {
                if self.config.qsearch_see && picker.stage() >= Stage::BadNoisy {
                    break; // the rest lose material by SEE
                }
                if picker.stage() == Stage::Quiets {
                    // A quiet check: searched unless it just loses material.
                    if !see_ge(self.pos.board(), mv, 0) {
                        continue;
                    }
                } else if self.skip_capture(mv, static_eval, alpha, picker.stage()) {
                    continue;
                }
            }
            // No (piece, to) for the plies below: quiescence moves do not
            // feed the continuation histories.
            self.make_move(ply, Some(mv), None);
            cx.shared.tt.prefetch(self.pos.key());
            let score = -self.quiescence::<PV>(cx, ply + 1, -beta, -alpha, false);
            self.unmake_move();
            debug_assert_eq!(
                self.pos.key(),
                key,
                "make/unmake of {mv} in quiescence changed the key"
            );
            if self.counters.stopped {
                return 0;
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
        }
        self.stack.give_list(ply, picker.into_list());

        // Q5. Mated, or the best score, stored.
        if in_check && moves == 0 {
            return mated_in(ply);
        }
        // Standing pat or a searched move (in check every evasion is searched).
        debug_assert!(
            -INFINITE < best && best < INFINITE,
            "quiescence best {best} at ply {ply}"
        );
        let mut node = Node::new(key, ply, tt_depth, (alpha, beta), PV);
        (node.in_check, node.raw_eval, node.tt_entry) = (in_check, raw_eval, entry);
        self.store_result(cx, &node, best, best_move);
        best
    }

    /// SEE pruning (a hash move that loses material) and delta pruning (a
    /// capture that cannot bring the score near alpha) of a noisy move
    /// handed out by the picker in `stage`.
    fn skip_capture(&self, mv: Move, static_eval: Score, alpha: Score, stage: Stage) -> bool {
        // The good noisy stage hands out only moves that pass this SEE test.
        let see_known_good = stage == Stage::GoodNoisy;
        debug_assert!(!see_known_good || see_ge(self.pos.board(), mv, 0));
        if self.config.qsearch_see && !see_known_good && !see_ge(self.pos.board(), mv, 0) {
            return true;
        }
        // Delta pruning: even winning the piece leaves the score short of alpha.
        let gain = self.pos.captured(mv).map_or(0, see_value);
        self.config.delta_pruning
            && mv.promotion.is_none()
            && static_eval + gain + delta_margin() <= alpha
    }

    /// With quiescence switched off, a leaf is its static evaluation (mates
    /// and stalemates still recognised).
    fn leaf_without_quiescence(&mut self, ply: usize) -> Score {
        if !self.pos.has_legal_move() {
            return if self.pos.in_check() {
                mated_in(ply)
            } else {
                self.draw_score(ply)
            };
        }
        self.evaluate()
    }
}

#[cfg(test)]
#[path = "node_tests.rs"]
mod tests;
