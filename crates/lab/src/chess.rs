//! Chess as a [`Game`]: the side to move at the root is MAX, values are
//! centipawns for MAX, and the tree ends where python-chess's
//! `board.is_game_over()` says the game is over (checkmate, stalemate,
//! insufficient material, the 75-move rule, fivefold repetition; claimable
//! draws do not end it), as in the published comparison.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use cutoff_engine::board::{BitBoard, Board, Color, Move, Piece, Position};
use cutoff_engine::eval::Evaluator;

use super::game::{Game, Value};
use super::pyorder;

/// Value of mating at the root; a mate `n` plies deep is worth `MATE - n`.
pub const MATE: Value = 1_000_000;

/// Values this far from `MATE` or beyond are mates.
pub const MATE_BOUND: Value = MATE - 10_000;

/// Which evaluation the leaves get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The classic material count: P 100, N 300, B 300, R 500, Q 900.
    #[default]
    Material,
    /// Cutoff's own evaluation.
    Full,
}

/// The order moves are tried in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveOrder {
    /// cozy-chess's generator order.
    #[default]
    Generator,
    /// python-chess's `board.legal_moves` order.
    PythonChess,
}

/// Options of the chess game seen by the textbook algorithms.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessOptions {
    pub eval: EvalKind,
    pub order: MoveOrder,
    /// Every mate is worth the same (the published code's infinity) instead of
    /// `MATE` minus its distance.
    pub flat_mate: bool,
}

/// A chess position with its history since the root.
#[derive(Clone, Debug)]
pub struct ChessGame {
    pos: Position,
    root_color: Color,
    options: ChessOptions,
    evaluator: Evaluator,
    /// Keys of the positions before each move since the root (for repetitions).
    keys: Vec<u64>,
    brake: Option<Brake>,
}

/// Ends a long search from outside (a stop flag) or after a budget of moves:
/// once it holds, every position counts as the end of the game, so the
/// searches unwind at once. Their values are then meaningless.
#[derive(Clone, Debug)]
struct Brake {
    stop: Arc<AtomicBool>,
    moves_left: u64,
    spent: bool,
    /// Moves played, shared with whoever reports progress; added in
    /// batches of [`COUNT_BATCH`], as an atomic add per move costs time.
    played: Option<Arc<AtomicU64>>,
    unreported: u64,
}

const COUNT_BATCH: u64 = 64;

const PIECE_VALUES: [(Piece, Value); 5] = [
    (Piece::Pawn, 100),
    (Piece::Knight, 300),
    (Piece::Bishop, 300),
    (Piece::Rook, 500),
    (Piece::Queen, 900),
];

/// Material for `color` minus material for the other side (kings cancel).
pub fn material(board: &Board, color: Color) -> Value {
    PIECE_VALUES
        .iter()
        .map(|&(p, v)| {
            let ours = (board.pieces(p) & board.colors(color)).len() as Value;
            let theirs = (board.pieces(p) & board.colors(!color)).len() as Value;
            v * (ours - theirs)
        })
        .sum()
}

impl ChessGame {
    pub fn new(pos: Position, options: ChessOptions) -> Self {
        let mut evaluator = Evaluator::new(Some(cutoff_engine::eval::nnue::default_network()));
        evaluator.reset(pos.board());
        Self {
            root_color: pos.side_to_move(),
            pos,
            options,
            evaluator,
            keys: Vec::new(),
            brake: None,
        }
    }

    /// Stops every search on this game once `stop` is set or after
    /// `max_moves` moves in all (the web server's cancel and node budget).
    pub fn with_brake(mut self, stop: Arc<AtomicBool>, max_moves: u64) -> Self {
        self.brake = Some(Brake {
            stop,
            moves_left: max_moves,
            spent: false,
            played: None,
            unreported: 0,
        });
        self
    }

    /// Adds the moves this game plays to `played` (progress reports), in
    /// batches; a no-op without a brake.
    pub fn counting(mut self, played: Arc<AtomicU64>) -> Self {
        if let Some(b) = &mut self.brake {
            b.played = Some(played);
        }
        self
    }

    /// A copy that stops with this game's stop flag but adds nothing to
    /// its count of moves played (for repeats timed apart from the work).
    pub fn uncounted(&self) -> Self {
        let mut copy = self.clone();
        if let Some(b) = &mut copy.brake {
            b.played = None;
        }
        copy
    }

    /// True once the brake holds: the last search's results are void.
    pub fn braked(&self) -> bool {
        self.brake
            .as_ref()
            .is_some_and(|b| b.spent || b.stop.load(Ordering::Relaxed))
    }

    /// Why the brake holds, for an error message.
    pub fn brake_reason(&self) -> &'static str {
        match &self.brake {
            Some(b) if b.spent => "stopped: the node budget ran out",
            _ => "stopped",
        }
    }

    /// Parses a FEN; errors are the board module's clear messages.
    pub fn from_fen(fen: &str, options: ChessOptions) -> Result<Self, String> {
        Ok(Self::new(Position::from_fen(fen, false)?, options))
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn options(&self) -> ChessOptions {
        self.options
    }

    /// Plies played since the root.
    pub fn ply(&self) -> usize {
        self.pos.ply()
    }

    /// The value of being mated now, for the side to move, seen by MAX.
    fn mated_value(&self) -> Value {
        let v = if self.options.flat_mate {
            MATE
        } else {
            MATE - self.ply() as Value
        };
        if self.max_to_move() { -v } else { v }
    }

    /// python-chess's rule: each side alone could not mate, even helped.
    fn insufficient_material(&self) -> bool {
        let b = self.pos.board();
        insufficient_for(b, Color::White) && insufficient_for(b, Color::Black)
    }

    /// Fivefold repetition: the position occurred four times before since the root.
    fn fivefold(&self) -> bool {
        let window = self.pos.halfmove_clock() as usize;
        if window < 16 {
            return false;
        }
        let key = self.pos.key();
        let earlier = self.keys.iter().rev().take(window);
        earlier.filter(|&&k| k == key).count() >= 4
    }
}

fn insufficient_for(b: &Board, color: Color) -> bool {
    let ours = b.colors(color);
    let theirs = b.colors(!color);
    let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    if !(ours & heavy).is_empty() {
        return false;
    }
    if !(ours & b.pieces(Piece::Knight)).is_empty() {
        // A lone knight cannot mate unless the opponent has pieces to block with.
        let their_blockers = theirs & !b.pieces(Piece::King) & !b.pieces(Piece::Queen);
        return ours.len() <= 2 && their_blockers.is_empty();
    }
    let bishops = b.pieces(Piece::Bishop);
    if !(ours & bishops).is_empty() {
        let same_colour = (bishops & BitBoard::DARK_SQUARES).is_empty()
            || (bishops & BitBoard::LIGHT_SQUARES).is_empty();
        return same_colour
            && b.pieces(Piece::Pawn).is_empty()
            && b.pieces(Piece::Knight).is_empty();
    }
    true
}

impl Game for ChessGame {
    type Move = Move;

    fn moves(&mut self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves = self.pos.legal_moves();
        if self.options.order == MoveOrder::PythonChess {
            pyorder::sort(self.pos.board(), &mut moves);
        }
        moves
    }

    fn is_over(&mut self) -> bool {
        self.braked()
            || !self.pos.has_legal_move()
            || self.insufficient_material()
            || self.pos.halfmove_clock() >= 150
            || self.fivefold()
    }

    fn evaluate(&mut self) -> Value {
        if !self.pos.has_legal_move() {
            return if self.pos.in_check() {
                self.mated_value()
            } else {
                0
            };
        }
        if self.is_over() {
            return 0;
        }
        match self.options.eval {
            EvalKind::Material => material(self.pos.board(), self.root_color),
            EvalKind::Full => {
                let v = self.evaluator.evaluate(self.pos.board());
                if self.max_to_move() { v } else { -v }
            }
        }
    }

    fn max_to_move(&self) -> bool {
        self.pos.side_to_move() == self.root_color
    }

    fn play(&mut self, mv: Move) {
        if let Some(b) = &mut self.brake {
            b.spent |= b.moves_left == 0;
            b.moves_left = b.moves_left.saturating_sub(1);
            b.unreported += 1;
            if b.unreported == COUNT_BATCH {
                if let Some(played) = &b.played {
                    played.fetch_add(COUNT_BATCH, Ordering::Relaxed);
                }
                b.unreported = 0;
            }
        }
        self.keys.push(self.pos.key());
        self.evaluator.push(self.pos.board(), mv);
        self.pos.play(mv);
    }

    fn undo(&mut self) {
        if self.keys.pop().is_some() {
            self.evaluator.pop();
            self.pos.undo();
        }
    }

    fn move_name(&mut self, mv: Move) -> String {
        self.pos.uci(mv)
    }
}
