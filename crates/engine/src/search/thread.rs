//! Per-thread search state. `ThreadData` is what a thread keeps between
//! searches (histories, evaluator, buffers); `Worker` is one search's view of
//! it, with the position, the per-ply stack, the root moves and node
//! counting. Lazy SMP runs one `Worker` per thread; they share only `Shared`
//! (the transposition table, the signals and the counters).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::config::SearchConfig;
use super::history::{Cutoff, Histories, PieceTo, learn_cutoff};
use super::info::Reporter;
use super::job::Settings;
use super::limits::Limits;
use super::lmr::LmrTable;
use super::movepick::{MovePicker, OrderContext};
use super::outcome::RootOutcome;
use super::pv::PvTable;
use super::score::{INFINITE, MAX_PLY, NO_EVAL, Score};
use super::shared::Shared;
use super::time::Clock;
use crate::board::moves::CheckInfo;
use crate::board::{BitBoard, Move, Position};
use crate::eval::Evaluator;
use crate::eval::nnue::Network;
use crate::tablebase::Syzygy;

/// What every thread of one search is given.
pub(crate) struct Task {
    pub root: Position,
    /// The moves searched at the root (`searchmoves`, tablebase filter).
    pub root_moves: Vec<Move>,
    /// What is certain at the root (drawn by rule, tablebase results).
    pub outcome: RootOutcome,
    pub limits: Limits,
    pub settings: Settings,
    pub clock: Clock,
}

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
    /// Its tablebase place (`RootOutcome::rank`): it ranks before the score.
    pub tb_rank: i32,
}

/// What a search thread keeps from one search to the next: its histories
/// (the moves of a game share most of their tree, so they stay until
/// `ucinewgame`), its evaluator and the buffers every search needs, so that
/// a `go` allocates none of them again.
pub struct ThreadData {
    hist: Box<Histories>,
    /// Made by the first search (it needs that search's network).
    evaluator: Option<Evaluator>,
    stack: Vec<Frame>,
    pv: PvTable,
    lmr: LmrTable,
    move_lists: Vec<Vec<(Move, i32)>>,
}

impl Default for ThreadData {
    fn default() -> Self {
        Self {
            hist: Box::default(),
            evaluator: None,
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: PvTable::default(),
            lmr: LmrTable::default(),
            move_lists: (0..MAX_PLY + 4).map(|_| Vec::with_capacity(256)).collect(),
        }
    }
}

impl ThreadData {
    /// Forgets what earlier searches learned (`ucinewgame`).
    pub fn clear_histories(&mut self) {
        *self.hist = Histories::default();
    }

    /// Readies the kept state for a search. Only the histories carry over
    /// (killers belong to the old root's plies; the evaluator's pawn cache
    /// holds exact results only), so that searches on fresh and on kept data
    /// differ by the histories alone.
    fn begin(&mut self) {
        self.lmr.refresh();
        self.hist.clear_all_killers();
        self.stack.fill(Frame::default());
        self.pv.clear_all();
    }
}

/// The evaluator in `slot`, made anew unless it evaluates with `network`
/// (made by the first search, and again after `EvalFile` or `UseNNUE`),
/// set to start from `root`.
fn evaluator_for<'e>(
    slot: &'e mut Option<Evaluator>,
    network: Option<&Arc<Network>>,
    root: &Position,
) -> &'e mut Evaluator {
    let evaluator = match slot.take() {
        Some(e) if e.uses(network) => slot.insert(e),
        _ => slot.insert(Evaluator::new(network.cloned())),
    };
    evaluator.reset(root.board());
    evaluator
}

/// One thread's view of one search: the kept `ThreadData` (borrowed field
/// by field, so that the search reads them as its own) and this search's
/// position, root moves, counters and limits.
pub struct Worker<'a> {
    pub id: usize,
    pub pos: Position,
    pub evaluator: &'a mut Evaluator,
    pub hist: &'a mut Histories,
    pub stack: &'a mut [Frame],
    pub pv: &'a mut PvTable,
    pub lmr: &'a LmrTable,
    /// Move-list buffers, one per ply, lent to each node's move picker.
    move_lists: &'a mut [Vec<(Move, i32)>],
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    /// The root searches moves `pv_idx..pv_last`: those of line `pv_idx`'s
    /// tablebase place, so that a line never beats a better result.
    pub pv_last: usize,
    /// What is certain at the root, for the reports.
    pub outcome: RootOutcome,
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
    /// Thread `id`'s worker for `task`, on its kept data `td`.
    pub fn new(
        id: usize,
        td: &'a mut ThreadData,
        task: &Task,
        shared: &'a Shared,
        reporter: Option<&'a mut (dyn Reporter + 'a)>,
    ) -> Self {
        let mut pos = task.root.clone();
        pos.forget_undo();
        td.begin();
        let network = task.settings.network.as_ref();
        let evaluator = evaluator_for(&mut td.evaluator, network, &pos);
        Self {
            id,
            pos,
            evaluator,
            hist: &mut td.hist,
            stack: &mut td.stack,
            pv: &mut td.pv,
            lmr: &td.lmr,
            move_lists: &mut td.move_lists,
            root_moves: task
                .root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    nodes: 0,
                    tb_rank: task.outcome.rank(mv),
                })
                .collect(),
            pv_idx: 0,
            pv_last: task.root_moves.len(),
            outcome: task.outcome.clone(),
            root_depth: 0,
            seldepth: 0,
            nodes: 0,
            flushed: 0,
            stopped: false,
            nmp_min_ply: 0,
            config: task.settings.config,
            shared,
            clock: task.clock.clone(),
            reporter,
            syzygy: task.settings.syzygy.clone(),
        }
    }

    pub fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node and, every `CHECK_INTERVAL` nodes, publishes the count
    /// and checks the stop flag and limits. Returns true when the search must stop.
    // Inlined: it runs at every node, and its common path is a few tests.
    #[inline(always)]
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
        (checks, threats): (CheckInfo, BitBoard),
    ) -> Option<Move> {
        let ctx = OrderContext {
            hist: self.hist,
            config: &self.config,
            prevs,
            checks,
            threats,
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

    /// Stable-sorts root moves `from..to` by tablebase place, then score,
    /// best first.
    pub fn sort_root_moves(&mut self, from: usize, to: usize) {
        self.root_moves[from..to].sort_by(|a, b| {
            (b.tb_rank.cmp(&a.tb_rank))
                .then(b.score.cmp(&a.score))
                .then(b.prev_score.cmp(&a.prev_score))
        });
    }

    /// True for the root moves that line `pv_idx` chooses from.
    pub fn is_searched_root_move(&self, mv: Move) -> bool {
        self.root_moves[self.pv_idx..self.pv_last]
            .iter()
            .any(|r| r.mv == mv)
    }

    /// Sets `pv_idx` and the end of its tablebase place.
    pub fn set_pv_idx(&mut self, pv_idx: usize) {
        let rank = self.root_moves[pv_idx].tb_rank;
        self.pv_idx = pv_idx;
        self.pv_last = pv_idx
            + self.root_moves[pv_idx..]
                .iter()
                .take_while(|r| r.tb_rank == rank)
                .count();
    }
}

impl Worker<'_> {
    /// Rewards the cutoff move and punishes the moves tried before it.
    pub(super) fn update_histories(
        &mut self,
        best: Move,
        depth: i32,
        ply: usize,
        threats: BitBoard,
        (quiets, noisies): (&[Move], &[Move]),
    ) {
        let cut = Cutoff {
            best,
            depth,
            ply,
            prevs: self.prevs(ply),
            threats,
            quiets,
            noisies,
        };
        learn_cutoff(self.hist, &self.pos, &cut, self.config.history);
    }
}
