//! Per-thread search state: the position, evaluator, histories, the stack of
//! per-ply data, the root moves and node counting. Lazy SMP runs one `Worker`
//! per thread; they share only the transposition table and the stop flag.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::config::SearchConfig;
use super::history::{Cutoff, Histories, PieceTo, learn_cutoff};
use super::lmr::LmrTable;
use super::movepick::{MovePicker, OrderContext};
use super::pv::PvTable;
use super::score::{INFINITE, MAX_PLY, NO_EVAL, Score};
use super::time::Clock;
use super::{Shared, info::Reporter};
use crate::board::moves::CheckInfo;
use crate::board::{Move, Position};
use crate::eval::Evaluator;
use crate::eval::nnue::Network;
use crate::tablebase::Syzygy;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 256;

/// Per-ply data, indexed by distance from the root.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub static_eval: Score,
    /// (piece, to) of the move made at this ply; `None` for a null move.
    pub piece_to: Option<PieceTo>,
    pub null_move: bool,
    /// Move excluded by a singular-extension verification search.
    pub excluded: Option<Move>,
    pub double_extensions: u32,
}

impl Default for Frame {
    fn default() -> Self {
        Self {
            static_eval: NO_EVAL,
            piece_to: None,
            null_move: false,
            excluded: None,
            double_extensions: 0,
        }
    }
}

/// A root move with what the current and previous iteration found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: Score,
    pub prev_score: Score,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes spent below this move in the current iteration.
    pub nodes: u64,
}

pub struct Worker<'a> {
    pub id: usize,
    pub pos: Position,
    pub evaluator: Evaluator,
    pub hist: Box<Histories>,
    pub stack: Vec<Frame>,
    pub pv: PvTable,
    pub lmr: LmrTable,
    /// Move-list buffers, one per ply, lent to each node's move picker.
    move_lists: Vec<Vec<(Move, i32)>>,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub seldepth: usize,
    pub nodes: u64,
    flushed: u64,
    pub stopped: bool,
    /// Null move is not tried before this ply (null-move verification).
    pub nmp_min_ply: usize,
    pub config: SearchConfig,
    pub shared: &'a Shared,
    pub clock: Clock,
    /// Only the main thread reports.
    pub reporter: Option<&'a mut (dyn Reporter + 'a)>,
    /// Tablebases probed inside the search (see `tbprobe`).
    pub syzygy: Option<Syzygy>,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        mut pos: Position,
        root_moves: &[Move],
        shared: &'a Shared,
        clock: Clock,
        config: SearchConfig,
        network: Option<Arc<Network>>,
    ) -> Self {
        pos.forget_undo();
        let mut evaluator = Evaluator::new(network);
        evaluator.reset(pos.board());
        Self {
            id,
            pos,
            evaluator,
            hist: shared.take_histories(id),
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: PvTable::default(),
            lmr: LmrTable::default(),
            move_lists: (0..MAX_PLY + 4).map(|_| Vec::with_capacity(256)).collect(),
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    nodes: 0,
                })
                .collect(),
            pv_idx: 0,
            root_depth: 0,
            seldepth: 0,
            nodes: 0,
            flushed: 0,
            stopped: false,
            nmp_min_ply: 0,
            config,
            shared,
            clock,
            reporter: None,
            syzygy: None,
        }
    }

    pub fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node and, every `CHECK_INTERVAL` nodes, publishes the count
    /// and checks the stop flag and limits. Returns true when the search must stop.
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self
            .clock
            .node_limit_reached(self.root_depth, || self.total_nodes())
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.flush_nodes();
            if self.shared.stopped()
                || (self.is_main() && self.clock.hard_stop(self.shared, self.total_nodes()))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Nodes of all threads (this one exactly, the others as last published).
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// The picker's next move, ordered with this thread's histories.
    pub fn next_move(
        &self,
        picker: &mut MovePicker,
        prevs: [Option<PieceTo>; 2],
        checks: CheckInfo,
    ) -> Option<Move> {
        let ctx = OrderContext {
            hist: &self.hist,
            config: &self.config,
            prevs,
            checks,
        };
        picker.next(&self.pos, &ctx)
    }

    /// Lends the move buffer of `ply` (a node searched again at the same ply,
    /// as in a singular-extension search, gets a fresh one).
    pub fn take_list(&mut self, ply: usize) -> Vec<(Move, i32)> {
        std::mem::take(&mut self.move_lists[ply])
    }

    pub fn give_list(&mut self, ply: usize, list: Vec<(Move, i32)>) {
        self.move_lists[ply] = list;
    }

    /// Draw by repetition, fifty-move rule or insufficient material.
    pub fn is_draw(&self, ply: usize) -> bool {
        self.pos.is_repetition(ply)
            || self.pos.is_fifty_move_draw()
            || self.pos.is_insufficient_material()
    }

    /// (piece, to) of the moves 1 and 2 plies before `ply`.
    pub fn prevs(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let at = |back: usize| {
            if ply >= back {
                self.stack[ply - back].piece_to
            } else {
                None
            }
        };
        [at(1), at(2)]
    }

    /// The static evaluation of the current position, from the side to move.
    pub fn evaluate(&mut self) -> Score {
        self.evaluator.evaluate(self.pos.board())
    }

    /// Plays `mv` on the search's position. Every move the search makes goes
    /// through here, so that the evaluator's accumulators follow the line.
    pub fn make_move(&mut self, mv: Move) {
        self.evaluator.push(self.pos.board(), mv);
        self.pos.play(mv);
    }

    /// Takes back the last move made with `make_move`.
    pub fn unmake_move(&mut self) {
        self.evaluator.pop();
        self.pos.undo();
    }

    /// Passes the move; false (nothing played) when that is not possible.
    pub fn make_null_move(&mut self) -> bool {
        let played = self.pos.play_null();
        if played {
            self.evaluator.push_null();
        }
        played
    }

    /// Takes back the null move made with `make_null_move`.
    pub fn unmake_null_move(&mut self) {
        self.unmake_move();
    }

    /// Stable-sorts root moves `from..to` by score, best first.
    pub fn sort_root_moves(&mut self, from: usize, to: usize) {
        self.root_moves[from..to]
            .sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
    }
}

impl Worker<'_> {
    /// Rewards the cutoff move and punishes the moves tried before it.
    pub(super) fn update_histories(
        &mut self,
        best: Move,
        depth: i32,
        ply: usize,
        quiets: &[Move],
        noisies: &[Move],
    ) {
        let cut = Cutoff {
            best,
            depth,
            ply,
            prevs: self.prevs(ply),
            quiets,
            noisies,
        };
        learn_cutoff(&mut self.hist, &self.pos, &cut, self.config.history);
    }
}
