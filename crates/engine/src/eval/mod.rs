//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! The engine plays with the network ([`nnue`]): the search keeps an
//! [`Evaluator`] per thread, which updates the network's accumulators move
//! by move. The hand-crafted evaluation ([`hand`]) judges the positions the
//! network under-rates (a bare king, see [`has_bare_king`]) and plays when no
//! network is loaded. [`wdl`] turns a score into win/draw/loss chances and
//! into the normalised centipawns the engine prints.

pub mod hand;
pub mod nnue;
pub mod wdl;

use std::sync::Arc;

use crate::board::{Board, Color, Move, Piece};
use hand::HandCrafted;

/// The game phase, which time management reads too.
pub use hand::{PHASE_MAX, phase};

/// Per-thread evaluation state: the network's accumulator stack and the
/// hand-crafted evaluation's pawn hash table. The search keeps one per
/// thread, tells it every move it makes and takes back, and calls
/// [`Evaluator::evaluate`].
#[derive(Clone)]
pub struct Evaluator {
    network: Option<nnue::AccumulatorStack>,
    hand: HandCrafted,
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
            network: None,
            hand: HandCrafted::default(),
        }
    }

    /// The network `net` (hand-crafted if `None`).
    pub fn new(net: Option<Arc<nnue::Network>>) -> Self {
        Self {
            network: net.map(nnue::AccumulatorStack::new),
            hand: HandCrafted::default(),
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
        self.hand.evaluate(board)
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
/// (if one is given), the final score normalised (`wdl::normalise`), and
/// last `Final evaluation: <cp> cp (white side)`, the raw score of the
/// evaluation in use (the network when given).
pub fn report(board: &Board, network: Option<&nnue::Network>) -> String {
    let white = |stm: i32| {
        if board.side_to_move() == Color::White {
            stm
        } else {
            -stm
        }
    };
    let mut out = hand::trace(board);
    let mut last = white(hand::evaluate(board));
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
    // The normalised line comes first: the last line stays the raw score
    // that the search uses and tests read.
    out.push_str(&format!(
        "\nEvaluation used: {used}\nNormalised evaluation: {} cp (white side, as info lines print scores)\nFinal evaluation: {last} cp (white side)",
        wdl::normalise(last)
    ));
    out
}
