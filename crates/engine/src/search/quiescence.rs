//! Quiescence search: at the horizon, keep searching captures (and queen
//! promotions) until the position is quiet, so that the static evaluation is
//! never taken in the middle of an exchange (the horizon effect).
//!
//! The side to move may "stand pat": accept the static evaluation instead of
//! capturing, since it is assumed some quiet move at least keeps it. In check
//! there is no standing pat and every evasion is searched. Captures that lose
//! material by SEE, and captures that cannot lift the score near alpha (delta
//! pruning), are skipped.

use super::movepick::{MovePicker, Stage};
use super::node::Node;
use super::params::delta_margin;
use super::score::{DRAW, INFINITE, MAX_PLY, Score, mated_in, score_from_tt};
use super::thread::Worker;
use crate::board::BitBoard;
use crate::board::moves::CheckInfo;
use crate::board::see::{see_ge, see_value};
use crate::tt::{QS_DEPTH_CHECKS, QS_DEPTH_NO_CHECKS, TtBound, bound_decides, improves_eval};

impl Worker<'_> {
    /// `checks`: also search quiet checks (only at the first quiescence ply).
    pub fn quiescence<const PV: bool>(
        &mut self,
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
        self.pv.clear(ply);
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_fifty_move_draw()
            || self.pos.is_insufficient_material()
            || self.pos.is_repetition(ply)
        {
            return DRAW;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        if !self.config.quiescence {
            return self.leaf_without_quiescence(ply);
        }

        let checks = checks && self.config.quiescence_checks;
        // A result without quiet checks must not stand in for one with them.
        let tt_depth = if in_check || checks {
            QS_DEPTH_CHECKS
        } else {
            QS_DEPTH_NO_CHECKS
        };
        let key = self.pos.key();
        let entry = self.probe_tt(key, true);
        // The entry with its score at this ply, converted once.
        let tt = entry.map(|e| (e, score_from_tt(e.score, ply)));
        if let (false, Some((e, s))) = (PV, tt)
            && e.depth >= tt_depth
            && bound_decides(e.bound, s, beta)
            && (e.bound != TtBound::Upper || s <= alpha)
        {
            return s;
        }

        // The table keeps the raw evaluation; the search uses the corrected one.
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

        let prevs = self.prevs(ply);
        // Only scoring quiet moves (evasions, quiet checks) asks which give check.
        let check_info = if in_check || checks {
            CheckInfo::new(self.pos.board())
        } else {
            CheckInfo::UNUSED
        };
        let list = self.take_list(ply);
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
            self.make_move(mv);
            self.shared.tt.prefetch(self.pos.key());
            self.stack[ply].piece_to = None;
            self.stack[ply].null_move = false;
            let score = -self.quiescence::<PV>(ply + 1, -beta, -alpha, false);
            self.unmake_move();
            debug_assert_eq!(
                self.pos.key(),
                key,
                "make/unmake of {mv} in quiescence changed the key"
            );
            if self.stopped {
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
        self.give_list(ply, picker.into_list());
        if in_check && moves == 0 {
            return mated_in(ply);
        }
        // Standing pat or a searched move (in check every evasion is searched).
        debug_assert!(
            -INFINITE < best && best < INFINITE,
            "quiescence best {best} at ply {ply}"
        );
        let mut node = Node::new(key, ply, tt_depth, alpha, beta);
        (node.pv, node.in_check, node.raw_eval) = (PV, in_check, raw_eval);
        node.tt_entry = entry;
        self.store_result(&node, best, best_move);
        best
    }

    /// SEE pruning (a hash move that loses material) and delta pruning (a
    /// capture that cannot bring the score near alpha) of a noisy move
    /// handed out by the picker in `stage`.
    fn skip_capture(
        &self,
        mv: crate::board::Move,
        static_eval: Score,
        alpha: Score,
        stage: Stage,
    ) -> bool {
        // The good noisy stage hands out only moves that pass this SEE test.
        let see_known_good = stage == Stage::GoodNoisy;
        debug_assert!(!see_known_good || see_ge(self.pos.board(), mv, 0));
        if self.config.qsearch_see && !see_known_good && !see_ge(self.pos.board(), mv, 0) {
            return true;
        }
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
                DRAW
            };
        }
        self.evaluate()
    }
}
