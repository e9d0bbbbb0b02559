//! The hand-crafted evaluation: the engine's judge of bare-king endings
//! (see [`super::has_bare_king`]), the evaluation of engines without a
//! network, and what the Texel tuner (`cutoff tune`) fits.
//!
//! A tapered evaluation: every term is a count of some feature times a
//! (midgame, endgame) weight from [`weights::WEIGHTS`]; the two sums are
//! blended by game phase, the endgame part scaled down in drawish material,
//! and a mop-up bonus added when a bare king must be mated. Terms report
//! features to a [`sink::Sink`], so one code path gives both the fast score
//! and the linear trace the tuner fits.

pub mod bits;
pub mod endgame;
pub mod king_safety;
pub mod material;
pub mod mobility;
pub mod params;
pub mod passed;
pub mod pawns;
pub mod pieces;
pub mod sink;
pub mod threats;
pub mod trace;
pub mod weights;

use std::cell::RefCell;

use crate::board::{Board, Color, Piece};
use mobility::Attacks;
use pawns::PawnTable;
use sink::{ScoreSink, Sink};

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

/// Feeds every feature of `board` into `sink`; the pawn terms come from
/// `table` when given (the fast path) and are computed afresh otherwise.
pub fn features<A: Sink>(sink: &mut A, board: &Board, table: Option<&mut PawnTable>) {
    let white = bits::bb(board.colored_pieces(Color::White, Piece::Pawn));
    let black = bits::bb(board.colored_pieces(Color::Black, Piece::Pawn));
    let pawn_info = match table {
        Some(t) => t.probe(sink, board),
        None => pawns::evaluate(sink, white, black),
    };
    material::evaluate(sink, board);
    let mut attacks = Attacks::new(board);
    mobility::evaluate(sink, board, &mut attacks);
    pieces::evaluate(sink, board, &pawn_info);
    passed::evaluate(sink, board, &pawn_info);
    king_safety::evaluate(sink, board, &attacks);
    threats::evaluate(sink, board, &attacks);
    sink.add(board.side_to_move(), params::TEMPO, 1);
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

/// The hand-crafted evaluation with its pawn cache (one per thread).
#[derive(Clone, Debug, Default)]
pub struct HandCrafted {
    pawns: PawnTable,
}

impl HandCrafted {
    /// The score of `board` for the side to move.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let mut sink = ScoreSink::default();
        features(&mut sink, board, Some(&mut self.pawns));
        let white = blend(board, sink.mg, sink.eg);
        if board.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }
}

thread_local! {
    /// Lets the stateless [`evaluate`] use a pawn cache too.
    static HAND: RefCell<HandCrafted> = RefCell::new(HandCrafted::default());
}

/// The hand-crafted evaluation of the board for the side to move (stateless
/// convenience; it uses a per-thread [`HandCrafted`] behind the scenes).
pub fn evaluate(board: &Board) -> i32 {
    HAND.with(|h| h.borrow_mut().evaluate(board))
}
