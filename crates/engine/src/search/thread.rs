//! `ThreadData`: everything one search thread owns. The pool keeps one per
//! thread from search to search (the histories carry over, the rest is
//! reset by `new_search`); a search borrows the rest of what it needs, the
//! state all threads share and the main thread's reporter, as a `Context`
//! for its duration only. Lazy SMP runs one `ThreadData` per thread; they
//! share only `Shared` (the transposition table, the signals, the counters).

use std::ops::{Index, IndexMut};
use std::sync::atomic::Ordering;

use super::clock::Clock;
use super::config::SearchConfig;
use super::history::{Histories, PieceTo};
use super::info::Reporter;
use super::job::Settings;
use super::movepick::{MovePicker, OrderContext};
use super::outcome::RootOutcome;
use super::params::{lmr_base_pct, lmr_divisor_pct};
use super::score::{INFINITE, MAX_PLY, NO_EVAL, Score};
use super::shared::Shared;
use crate::board::moves::CheckInfo;
use crate::board::{BitBoard, Move, Position};
use crate::eval::Evaluator;
use crate::tablebase::Syzygy;
use crate::time::Limits;

/// What every thread of one search is given: the root, its moves and what
/// is certain there, the limits, the settings and the clock.
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

/// What one thread's search borrows for its duration: the search's task
/// (root, limits, settings, clock), the state all threads share, and on
/// the main thread the reporter. Held for one search only, so that the
/// pool can resize the table in place between searches.
pub(crate) struct Context<'a> {
    pub task: &'a Task,
    pub shared: &'a Shared,
    pub reporter: Option<&'a mut (dyn Reporter + 'a)>,
}

/// One ply of the search stack, indexed by distance from the root.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub static_eval: Score,
    /// (piece, to) of the move made at this ply, which the continuation
    /// histories of the plies below read; `None` for a null move and in
    /// quiescence.
    pub piece_to: Option<PieceTo>,
    pub null_move: bool,
    /// Move excluded by a singular-extension verification search.
    pub excluded: Option<Move>,
    pub double_extensions: u32,
    /// The late move reduction the parent gave the move to this ply (0 if
    /// none), while the reduced search runs.
    pub reduction: i32,
    /// The quiet move made at this ply and the squares the opponent
    /// attacked then (its butterfly history's index); `None` after a
    /// noisy move, a null move and in quiescence.
    pub quiet: Option<(Move, BitBoard)>,
    /// Beta cutoffs in the move loops of this ply's nodes since the node a
    /// ply up began: how many of its moves were refuted so far.
    pub cutoffs: u32,
}

impl Default for Frame {
    fn default() -> Self {
        Self {
            static_eval: NO_EVAL,
            piece_to: None,
            null_move: false,
            excluded: None,
            double_extensions: 0,
            reduction: 0,
            quiet: None,
            cutoffs: 0,
        }
    }
}

/// The per-ply frames and the move-list buffers lent to each ply's picker.
pub(super) struct Stack {
    frames: Vec<Frame>,
    lists: Vec<Vec<(Move, i32)>>,
}

impl Default for Stack {
    fn default() -> Self {
        Self {
            frames: vec![Frame::default(); MAX_PLY + 4],
            lists: (0..MAX_PLY + 4).map(|_| Vec::with_capacity(256)).collect(),
        }
    }
}

impl Index<usize> for Stack {
    type Output = Frame;
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl IndexMut<usize> for Stack {
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}

impl Stack {
    /// Lends the move buffer of `ply` (a node searched again at the same ply,
    /// as in a singular-extension search, gets a fresh one).
    pub fn take_list(&mut self, ply: usize) -> Vec<(Move, i32)> {
        std::mem::take(&mut self.lists[ply])
    }

    pub fn give_list(&mut self, ply: usize, list: Vec<(Move, i32)>) {
        self.lists[ply] = list;
    }

    /// (piece, to) of the moves 1 and 2 plies before `ply`.
    pub fn prevs(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let at = |back| ply.checked_sub(back).and_then(|p| self.frames[p].piece_to);
        [at(1), at(2)]
    }
}

/// The triangular principal-variation table: each ply keeps the best line
/// found below it, and a new best move at ply p is prefixed to ply p+1's line.
#[derive(Clone, Debug)]
pub(super) struct PvTable {
    lines: Vec<Vec<Move>>,
}

impl Default for PvTable {
    fn default() -> Self {
        Self {
            lines: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
        }
    }
}

impl PvTable {
    /// Empties every line (at the start of a search).
    pub fn clear_all(&mut self) {
        self.lines.iter_mut().for_each(Vec::clear);
    }

    /// Empties the line at `ply` (on entering a node).
    pub fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// Sets the line at `ply` to `mv` followed by the line at `ply + 1`.
    pub fn update(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply]
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

/// The root moves and the line (MultiPV index) being searched.
#[derive(Default)]
pub(super) struct RootMoves {
    pub moves: Vec<RootMove>,
    pub pv_idx: usize,
    /// The root searches moves `pv_idx..pv_last`: those of line `pv_idx`'s
    /// tablebase place, so that a line never beats a better result.
    pub pv_last: usize,
}

impl RootMoves {
    fn new(moves: &[Move], outcome: &RootOutcome) -> Self {
        Self {
            moves: moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    nodes: 0,
                    tb_rank: outcome.rank(mv),
                })
                .collect(),
            pv_idx: 0,
            pv_last: moves.len(),
        }
    }

    /// Stable-sorts root moves `from..to` by tablebase place, then score,
    /// best first.
    pub fn sort(&mut self, from: usize, to: usize) {
        self.moves[from..to].sort_by(|a, b| {
            (b.tb_rank.cmp(&a.tb_rank))
                .then(b.score.cmp(&a.score))
                .then(b.prev_score.cmp(&a.prev_score))
        });
    }

    /// True for the root moves that line `pv_idx` chooses from.
    pub fn is_searched(&self, mv: Move) -> bool {
        self.moves[self.pv_idx..self.pv_last]
            .iter()
            .any(|r| r.mv == mv)
    }

    /// Sets `pv_idx` and the end of its tablebase place.
    pub fn set_pv_idx(&mut self, pv_idx: usize) {
        let rank = self.moves[pv_idx].tb_rank;
        self.pv_idx = pv_idx;
        self.pv_last = pv_idx
            + self.moves[pv_idx..]
                .iter()
                .take_while(|r| r.tb_rank == rank)
                .count();
    }
}

/// LMR base reductions by depth and move number, from `ln(d) * ln(m)`.
pub(super) struct LmrTable {
    table: Vec<[i32; 64]>,
    /// The (base, divisor) it was built from: a `spsa` build rebuilds it
    /// when `setoption` changes them.
    #[cfg(feature = "spsa")]
    built_from: (i32, i32),
}

/// The table of `base_pct / 100 + ln(d) * ln(m) / (divisor_pct / 100)`,
/// truncated. Hundredths divided as `f64` are the nearest doubles to the
/// decimals (0.75, 2.25), so the defaults give the table they always gave.
fn build(base_pct: i32, divisor_pct: i32) -> Vec<[i32; 64]> {
    let base = base_pct as f64 / 100.0;
    let divisor = divisor_pct as f64 / 100.0;
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

impl Default for LmrTable {
    fn default() -> Self {
        Self {
            table: build(lmr_base_pct(), lmr_divisor_pct()),
            #[cfg(feature = "spsa")]
            built_from: (lmr_base_pct(), lmr_divisor_pct()),
        }
    }
}

impl LmrTable {
    pub fn get(&self, depth: i32, move_count: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][move_count.min(63)]
    }

    /// Before a search: rebuilds the table if its parameters changed since
    /// (only a `spsa` build can change them).
    #[inline]
    pub fn refresh(&mut self) {
        #[cfg(feature = "spsa")]
        if self.built_from != (lmr_base_pct(), lmr_divisor_pct()) {
            *self = Self::default();
        }
    }
}

/// How far this search has got, and whether it must stop.
#[derive(Default)]
pub(super) struct Counters {
    /// The iteration's depth.
    pub root_depth: i32,
    pub seldepth: usize,
    pub nodes: u64,
    /// `nodes` as last published to `Shared::nodes`.
    flushed: u64,
    pub stopped: bool,
}

/// Everything one search thread owns: the position it searches and the
/// evaluator that follows it, the stack, the PV lines, what it learned (the
/// histories: the moves of a game share most of their tree, so they stay
/// until `ucinewgame`), the root moves and its counters. Made once per pool
/// thread, so that a `go` allocates none of it again.
pub struct ThreadData {
    pub(super) id: usize,
    pub(super) pos: Position,
    pub(super) evaluator: Evaluator,
    pub(super) stack: Stack,
    pub(super) pv: PvTable,
    pub(super) hist: Box<Histories>,
    pub(super) lmr: LmrTable,
    pub(super) root: RootMoves,
    pub(super) counters: Counters,
    /// Null move is not tried before this ply (null-move verification).
    pub(super) nmp_min_ply: usize,
    pub(super) config: SearchConfig,
    /// Tablebases probed inside the search.
    pub(super) syzygy: Option<Syzygy>,
    /// The score of a draw by rule or stalemate for the side to move at an
    /// even and at an odd ply: `Contempt` below 0 for the root's side.
    draw: [Score; 2],
}

impl Default for ThreadData {
    fn default() -> Self {
        Self {
            id: 0,
            pos: Position::default(),
            evaluator: Evaluator::new(None),
            stack: Stack::default(),
            pv: PvTable::default(),
            hist: Box::default(),
            lmr: LmrTable::default(),
            root: RootMoves::default(),
            counters: Counters::default(),
            nmp_min_ply: 0,
            config: SearchConfig::ALL_ON,
            syzygy: None,
            draw: [0; 2],
        }
    }
}

impl ThreadData {
    /// Forgets what earlier searches learned (`ucinewgame`).
    pub fn clear_histories(&mut self) {
        *self.hist = Histories::default();
    }

    /// Readies the thread as thread `id` of `task`. Only the histories carry
    /// over (killers belong to the old root's plies; the evaluator's pawn
    /// cache holds exact results only), so that searches on fresh and on
    /// kept data differ by the histories alone. The evaluator is made anew
    /// when the search's network is another (after `EvalFile` or `UseNNUE`).
    pub(super) fn new_search(&mut self, id: usize, task: &Task) {
        self.id = id;
        self.pos = task.root.clone();
        self.pos.forget_undo();
        let network = task.settings.network.as_ref();
        if !self.evaluator.uses(network) {
            self.evaluator = Evaluator::new(network.cloned());
        }
        self.evaluator.reset(self.pos.board());
        self.stack.frames.fill(Frame::default());
        self.pv.clear_all();
        self.hist.clear_all_killers();
        self.lmr.refresh();
        self.root = RootMoves::new(&task.root_moves, &task.outcome);
        self.counters = Counters::default();
        self.nmp_min_ply = 0;
        self.config = task.settings.config;
        self.syzygy = task.settings.syzygy.clone();
        let contempt = task.settings.contempt;
        self.draw = [-contempt, contempt];
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node and, every `CHECK_INTERVAL` nodes, publishes the count
    /// and checks the stop flag and limits. Returns true when the search must stop.
    // Inlined: it runs at every node, and its common path is a few tests.
    #[inline(always)]
    pub(super) fn visit(&mut self, cx: &Context) -> bool {
        let (clock, shared) = (&cx.task.clock, cx.shared);
        self.counters.nodes += 1;
        if clock.node_limit_reached(self.counters.root_depth, || self.total_nodes(shared)) {
            self.counters.stopped = true;
        }
        if self.counters.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.flush_nodes(shared);
            if shared.stopped()
                || (self.is_main() && clock.hard_stop(shared, self.total_nodes(shared)))
            {
                self.counters.stopped = true;
            }
        }
        self.counters.stopped
    }

    pub(super) fn flush_nodes(&mut self, shared: &Shared) {
        let c = &mut self.counters;
        shared
            .nodes
            .fetch_add(c.nodes - c.flushed, Ordering::Relaxed);
        c.flushed = c.nodes;
    }

    /// Nodes of all threads (this one exactly, the others as last published).
    pub(super) fn total_nodes(&self, shared: &Shared) -> u64 {
        shared.nodes.load(Ordering::Relaxed) + self.counters.nodes - self.counters.flushed
    }

    /// The picker's next move, ordered with this thread's histories.
    pub(super) fn next_move(
        &self,
        picker: &mut MovePicker,
        prevs: [Option<PieceTo>; 2],
        (checks, threats): (CheckInfo, BitBoard),
    ) -> Option<Move> {
        let ctx = OrderContext {
            hist: &self.hist,
            config: &self.config,
            prevs,
            checks,
            threats,
        };
        picker.next(&self.pos, &ctx)
    }

    /// Draw by repetition, fifty-move rule or insufficient material.
    pub(super) fn is_draw(&self, ply: usize) -> bool {
        self.pos.is_repetition(ply)
            || self.pos.is_fifty_move_draw()
            || self.pos.is_insufficient_material()
    }

    /// The score of a draw by rule or a stalemate at `ply`, from the side to
    /// move: the root's side plays at even plies. One search has one root
    /// side, so the table's draw scores agree within it (docs/wdl.md,
    /// `Contempt`, on entries from earlier searches).
    #[inline]
    pub(super) fn draw_score(&self, ply: usize) -> Score {
        self.draw[ply & 1]
    }

    /// The static evaluation of the current position, from the side to move.
    pub(super) fn evaluate(&mut self) -> Score {
        self.evaluator.evaluate(self.pos.board())
    }

    /// Plays `mv` at `ply`, or passes (`None`), and writes the ply's frame:
    /// the (piece, to) that the continuation histories below read (`None`
    /// for a pass and for the moves of quiescence) and whether it was a
    /// pass. Every move the search makes goes through here, so that the
    /// evaluator's accumulators follow the line. False (nothing played)
    /// when passing is not possible.
    pub(super) fn make_move(
        &mut self,
        ply: usize,
        mv: Option<Move>,
        piece_to: Option<PieceTo>,
    ) -> bool {
        match mv {
            Some(mv) => {
                self.evaluator.push(self.pos.board(), mv);
                self.pos.play(mv);
            }
            None => {
                if !self.pos.play_null() {
                    return false;
                }
                self.evaluator.push_null();
            }
        }
        let frame = &mut self.stack[ply];
        frame.piece_to = piece_to;
        frame.null_move = mv.is_none();
        frame.quiet = None;
        true
    }

    /// Takes back the last move (or pass) made with `make_move`.
    pub(super) fn unmake_move(&mut self) {
        self.evaluator.pop();
        self.pos.undo();
    }
}
