//! Extensions: searching a move deeper than the nominal depth.
//!
//! The check extension (in `alphabeta`) searches checks one ply deeper. The
//! singular extension here extends the hash move when every alternative is
//! clearly worse (checked by a reduced search that excludes it), and gives
//! two related shortcuts: multi-cut (even without the hash move the node
//! fails high, so return) and the negative extension (the hash move is merely
//! good enough, so search it shallower).

use super::node::Node;
use super::params::{
    EXTENSION_PLY_LIMIT, se_depth_divisor, se_double_margin, se_margin_per_depth, se_max_double,
    se_min_depth, se_negative, se_tt_depth_slack,
};
use super::score::{MATE_BOUND, Score};
use super::thread::Worker;
use crate::board::Move;
use crate::tt::TtBound;

/// The outcome of a singular-extension test.
pub(super) enum Singular {
    Extend(i32),
    MultiCut(Score),
}

impl Worker<'_> {
    /// The singular-extension test of the hash move, when it applies.
    // Inlined (the test itself is not): asked of every move, it applies
    // to one at most.
    #[inline(always)]
    pub(super) fn singular_extension(&mut self, node: &Node, mv: Move) -> Singular {
        if node.is_root()
            || Some(mv) != node.tt_move
            || node.excluded.is_some()
            || !self.config.singular_extension
        {
            return Singular::Extend(0);
        }
        self.singular(node, mv)
    }

    /// Singular extension: is the hash move much better than all others?
    /// Double extensions only off the principal variation: PV nodes are
    /// searched with full windows, where growing the tree costs most.
    #[inline(never)]
    fn singular(&mut self, node: &Node, mv: Move) -> Singular {
        let (Some(e), Some(tt_score)) = (node.tt_entry, node.tt_score) else {
            return Singular::Extend(0);
        };
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let usable = depth >= se_min_depth()
            && e.depth >= depth - se_tt_depth_slack()
            && e.bound != TtBound::Upper
            && tt_score.abs() < MATE_BOUND
            && (ply as i32) < EXTENSION_PLY_LIMIT * self.root_depth;
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
}
