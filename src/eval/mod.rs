//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! A first evaluation: material plus piece-square terms, each with a midgame
//! and an endgame value, blended by game phase (tapered evaluation).

use crate::board::{Board, Color, Piece, Square};

/// Midgame and endgame material values: P, N, B, R, Q, K.
pub const MATERIAL_MG: [i32; 6] = [100, 320, 330, 480, 950, 0];
pub const MATERIAL_EG: [i32; 6] = [120, 300, 315, 530, 980, 0];

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

/// Distance-from-centre measure: 0 in the four centre squares, 3 in the corners.
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = (2 * f - 7).abs() / 2;
    let dr = (2 * r - 7).abs() / 2;
    df.max(dr)
}

/// Piece-square bonus (mg, eg) for a piece of `color` on `sq`.
fn pst(piece: Piece, color: Color, sq: Square) -> (i32, i32) {
    let rel = sq.relative_to(color);
    let rank = rel.rank() as i32;
    let centre = 3 - edge_distance(sq);
    match piece {
        Piece::Pawn => {
            let central_file = matches!(sq.file() as i32, 3 | 4) as i32;
            (rank * 4 + central_file * rank * 4, rank * rank * 3)
        }
        Piece::Knight => (centre * 12 - 10, centre * 8 - 8),
        Piece::Bishop => (centre * 6, centre * 5),
        Piece::Rook => ((rank == 6) as i32 * 20, 0),
        Piece::Queen => (centre * 3, centre * 6),
        Piece::King => {
            let shelter = if rank == 0 { 20 } else { -15 * rank };
            (shelter - centre * 10, centre * 14)
        }
    }
}

/// Per-thread evaluation state (caches such as a pawn hash table live here).
/// The search keeps one per thread and calls [`Evaluator::evaluate`].
#[derive(Clone, Debug, Default)]
pub struct Evaluator {}

impl Evaluator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Evaluates the board for the side to move.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        evaluate(board)
    }
}

/// Evaluates the board for the side to move (stateless convenience).
pub fn evaluate(board: &Board) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                let (pm, pe) = pst(piece, color, sq);
                mg += sign * (MATERIAL_MG[piece as usize] + pm);
                eg += sign * (MATERIAL_EG[piece as usize] + pe);
            }
        }
    }
    let white = taper(mg, eg, phase(board));
    if board.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// A readable breakdown of the evaluation (UCI `eval`), ending with the
/// line `Final evaluation: <cp> cp (white side)`.
pub fn trace(board: &Board) -> String {
    let stm = evaluate(board);
    let white = if board.side_to_move() == Color::White {
        stm
    } else {
        -stm
    };
    format!(
        "Phase: {} / {PHASE_MAX}\nFinal evaluation: {white} cp (white side)",
        phase(board)
    )
}
