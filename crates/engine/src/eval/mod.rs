//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! Two evaluations: the network ([`nnue`], the default) and the hand-crafted
//! one. The hand-crafted evaluation is a tapered hand-crafted evaluation: every term is a count of some feature
//! times a (midgame, endgame) weight from [`weights::WEIGHTS`]; the two sums
//! are blended by game phase, the endgame part scaled down in drawish
//! material, and a mop-up bonus added when a bare king must be mated. Terms
//! report features through an [`accumulator::Acc`], so one code path gives
//! both the fast score and the linear trace the tuner fits.

pub mod accumulator;
pub mod bits;
pub mod endgame;
pub mod hand;
pub mod king_safety;
pub mod material;
pub mod mobility;
pub mod nnue;
pub mod params;
pub mod passed;
pub mod pawns;
pub mod pieces;
pub mod threats;
pub mod trace;
pub mod wdl;
pub mod weights;

use std::cell::RefCell;
use std::sync::Arc;

use crate::board::{Board, Color, Move, Piece};
use accumulator::{Acc, ScoreAcc};
use mobility::Attacks;
use pawns::PawnTable;

pub use trace::{LinearTrace, trace};

/// Phase weight per piece type; 24 is a full board of pieces.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;

/// Game phase from 0 (bare endgame) to `PHASE_MAX` (all pieces on).
pub fn phase(board: &Board) -> i32 {
    let p: i32 = Piece::ALL
        .iter()
        .map(|&pc| PHASE_WEIGHT[pc as usize] * board.pieces(pc).len() as i32)
        .sum();
    p.min(PHASE_MAX)
}

/// Blends a midgame and an endgame value by phase.
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Feeds every feature of `board` into `acc`; the pawn terms come from
/// `table` when given (the fast path) and are computed afresh otherwise.
pub fn features<A: Acc>(acc: &mut A, board: &Board, table: Option<&mut PawnTable>) {
    let white = bits::bb(board.colored_pieces(Color::White, Piece::Pawn));
    let black = bits::bb(board.colored_pieces(Color::Black, Piece::Pawn));
    let pawn_info = match table {
        Some(t) => t.probe(acc, board),
        None => pawns::evaluate(acc, white, black),
    };
    material::evaluate(acc, board);
    let mut attacks = Attacks::new(board);
    mobility::evaluate(acc, board, &mut attacks);
    pieces::evaluate(acc, board, &pawn_info);
    passed::evaluate(acc, board, &pawn_info);
    king_safety::evaluate(acc, board, &attacks);
    threats::evaluate(acc, board, &attacks);
    acc.add(board.side_to_move(), params::TEMPO, 1);
}

/// The final score from White's view, given the (mg, eg) sums.
pub fn blend(board: &Board, mg: i32, eg: i32) -> i32 {
    let phase = phase(board);
    let scale = endgame::scale(board, eg);
    if scale == 0 {
        return 0; // neither side can win: a dead draw, whatever the rest says
    }
    let eg_part = eg * (PHASE_MAX - phase) * scale / endgame::SCALE_NORMAL;
    (mg * phase + eg_part) / PHASE_MAX + endgame::mop_up(board)
}

/// Per-thread evaluation state: the network's accumulator stack, or the
/// hand-crafted evaluation's pawn hash table. The search keeps one per
/// thread, tells it every move it makes and takes back, and calls
/// [`Evaluator::evaluate`].
#[derive(Clone)]
pub struct Evaluator {
    pawns: PawnTable,
    network: Option<nnue::AccumulatorStack>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::hand_crafted()
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.network.is_some() {
            "network"
        } else {
            "hand-crafted"
        };
        write!(f, "Evaluator({kind})")
    }
}

impl Evaluator {
    /// The hand-crafted evaluation.
    pub fn hand_crafted() -> Self {
        Self {
            pawns: PawnTable::default(),
            network: None,
        }
    }

    /// The network `net` (hand-crafted if `None`).
    pub fn new(net: Option<Arc<nnue::Network>>) -> Self {
        Self {
            pawns: PawnTable::default(),
            network: net.map(nnue::AccumulatorStack::new),
        }
    }

    pub fn uses_network(&self) -> bool {
        self.network.is_some()
    }

    /// True if this evaluator evaluates with `net` (the very same network;
    /// `None`: the hand-crafted evaluation).
    pub fn uses(&self, net: Option<&Arc<nnue::Network>>) -> bool {
        match (&self.network, net) {
            (Some(stack), Some(net)) => Arc::ptr_eq(stack.network(), net),
            (None, None) => true,
            _ => false,
        }
    }

    /// Starts a new line of moves at `board` (the search root).
    pub fn reset(&mut self, board: &Board) {
        if let Some(n) = &mut self.network {
            n.reset(board);
        }
    }

    /// `mv` is about to be played on `board`.
    #[inline]
    pub fn push(&mut self, board: &Board, mv: Move) {
        if let Some(n) = &mut self.network {
            n.push(board, mv);
        }
    }

    /// A null move is about to be played.
    #[inline]
    pub fn push_null(&mut self) {
        if let Some(n) = &mut self.network {
            n.push_null();
        }
    }

    /// The last move or null move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(n) = &mut self.network {
            n.pop();
        }
    }

    /// Evaluates the board for the side to move: the board reached from the
    /// last `reset` by the pushed moves.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        match &mut self.network {
            Some(n) if network_applies(board) => n.evaluate(board),
            _ => self.evaluate_hand(board),
        }
    }

    /// The hand-crafted evaluation of `board` for the side to move.
    pub fn evaluate_hand(&mut self, board: &Board) -> i32 {
        let mut acc = ScoreAcc::default();
        features(&mut acc, board, Some(&mut self.pawns));
        let white = blend(board, acc.mg, acc.eg);
        if board.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }
}

/// True if a side has nothing but its king. The self-play data holds few
/// such positions (games are adjudicated long before), so the network
/// under-rates them; the hand-crafted evaluation knows how to drive the
/// bare king to the edge (mop-up, KBN v K) and stays in charge there.
pub fn has_bare_king(board: &Board) -> bool {
    Color::ALL
        .into_iter()
        .any(|c| board.colors(c) == board.colored_pieces(c, Piece::King))
}

/// True if an engine with a network evaluates `board` with it (the one rule
/// shared by [`Evaluator::evaluate`] and [`report`]).
fn network_applies(board: &Board) -> bool {
    !has_bare_king(board)
}

/// The `eval` command's text: the hand-crafted trace, the network's score
/// (if one is given), and last `Final evaluation: <cp> cp (white side)`,
/// the score of the evaluation in use (the network when given).
pub fn report(board: &Board, network: Option<&nnue::Network>) -> String {
    let white = |stm: i32| {
        if board.side_to_move() == Color::White {
            stm
        } else {
            -stm
        }
    };
    let mut out = trace(board);
    let mut last = white(evaluate(board));
    let mut used = "hand-crafted";
    if let Some(net) = network {
        let nnue = white(nnue::evaluate_board(net, board));
        out.push_str(&format!("\nNNUE network: {}", net.shape()));
        out.push_str(&format!("\nNNUE evaluation: {nnue} cp (white side)"));
        (last, used) = if network_applies(board) {
            (nnue, "network")
        } else {
            (last, "hand-crafted (a bare king)")
        };
    }
    out.push_str(&format!(
        "\nEvaluation used: {used}\nFinal evaluation: {last} cp (white side)"
    ));
    out
}

thread_local! {
    /// Lets the stateless [`evaluate`] use a pawn cache too.
    static EVALUATOR: RefCell<Evaluator> = RefCell::new(Evaluator::hand_crafted());
}

/// The hand-crafted evaluation of the board for the side to move (stateless
/// convenience; it uses a per-thread [`Evaluator`] behind the scenes).
pub fn evaluate(board: &Board) -> i32 {
    EVALUATOR.with(|e| e.borrow_mut().evaluate_hand(board))
}
