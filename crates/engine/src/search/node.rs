//! The state the search helpers share: what a node knows before its move
//! loop (`Node`) and what the loop knows about one move (`MoveState`). The
//! pruning, reduction, extension and table-store helpers take these instead
//! of long argument lists, so a new technique reads a field, not a parameter.
//! Also the search's probe and store of the table, shared by the main search
//! and quiescence.

use super::history::PieceTo;
use super::params::tt_replacement;
use super::score::{INFINITE, MATE_BOUND, NO_EVAL, Score, score_to_tt};
use super::thread::Worker;
use crate::board::Move;
use crate::tt::{TtBound, TtEntry};

/// One node of the search, as known before its move loop.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub key: u64,
    pub ply: usize,
    /// Remaining depth (after internal iterative reduction).
    pub depth: i32,
    pub alpha: Score,
    pub beta: Score,
    /// On the principal variation (window wider than one point).
    pub pv: bool,
    /// Expected to fail high (a null-window child of a non-cut node).
    pub cut_node: bool,
    pub in_check: bool,
    /// The static evaluation rose since our previous move (two plies back).
    pub improving: bool,
    /// The evaluator's score, as the table stores it (`NO_EVAL` in check).
    pub raw_eval: Score,
    /// `raw_eval` corrected by the correction history.
    pub static_eval: Score,
    /// `static_eval`, or a hash score that bounds it the right way.
    pub eval: Score,
    pub tt_entry: Option<TtEntry>,
    /// The hash score, adjusted to this ply.
    pub tt_score: Option<Score>,
    pub tt_move: Option<Move>,
    /// The hash move is a capture or a queen promotion.
    pub tt_capture: bool,
    /// Move left out by a singular-extension verification search.
    pub excluded: Option<Move>,
    /// Bounds a tablebase probe set on the node's score (PV nodes only).
    pub tb_floor: Score,
    pub tb_cap: Score,
}

impl Node {
    /// A node with no evaluation and no table entry yet.
    pub fn new(key: u64, ply: usize, depth: i32, alpha: Score, beta: Score) -> Self {
        Self {
            key,
            ply,
            depth,
            alpha,
            beta,
            pv: false,
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

    pub fn is_root(&self) -> bool {
        self.ply == 0
    }

    /// On a principal variation now, or stored as one by the table.
    pub fn tt_pv(&self) -> bool {
        self.pv || self.tt_entry.is_some_and(|e| e.pv)
    }
}

/// One move of a node's move loop.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoveState {
    pub mv: Move,
    /// 1 for the first move searched.
    pub move_count: usize,
    /// Neither a capture nor a queen promotion.
    pub quiet: bool,
    /// Quiet and not giving check: what futility and late move pruning may skip.
    pub tame: bool,
    pub piece_to: PieceTo,
    /// Butterfly plus continuation history (0 for a noisy move).
    pub history: i32,
    pub killer: bool,
    /// Known only once the move is made.
    pub gives_check: bool,
}

/// The search's use of the table, shared by the main search and quiescence.
impl Worker<'_> {
    /// The table's entry for `key`, if this node may probe and the table is on.
    pub(super) fn probe_tt(&self, key: u64, allowed: bool) -> Option<TtEntry> {
        if allowed && self.config.tt {
            self.shared.tt.probe(key)
        } else {
            None
        }
    }

    /// Stores a node's result (unless the table is switched off): a lower
    /// bound if it failed high, exact if a PV node found a move inside the
    /// window, an upper bound otherwise, with the raw static evaluation.
    pub(super) fn store_result(&self, node: &Node, best: Score, best_move: Option<Move>) {
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
        self.shared.tt.store(node.key, entry, tt_replacement());
    }
}
