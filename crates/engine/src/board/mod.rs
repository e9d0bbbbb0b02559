//! The position: a cozy-chess board plus what a search needs on top of it.
//!
//! cozy-chess gives legal move generation, Zobrist keys and Chess960 castling.
//! `Position` adds copy-make with an undo stack, the keys of earlier positions
//! for repetition detection, null moves, and move classification helpers.

pub mod cli;
pub mod fen;
pub mod moves;
pub mod perft;
pub mod perft_suite;
pub mod see;

pub use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The Zobrist key of `board` computed from scratch (the board rebuilt
/// square by square), to check the incrementally updated one.
fn recomputed_key(board: &Board) -> Option<u64> {
    cozy_chess::BoardBuilder::from_board(board)
        .build()
        .ok()
        .map(|b| b.hash())
}

/// See [`Position::key`].
fn key_of(board: &Board) -> u64 {
    match en_passant_takers(board) {
        Some((target, takers)) if can_take(board, target, takers) => board.hash(),
        _ => board.hash_without_ep(),
    }
}

/// The en passant square and the pawns of the side to move that attack it,
/// legality aside; `None` without one. cozy-chess records the file after
/// every double push, whether a pawn can take or not.
pub fn en_passant_takers(board: &Board) -> Option<(Square, BitBoard)> {
    let file = board.en_passant()?;
    let us = board.side_to_move();
    let target = Square::new(file, Rank::Sixth.relative_to(us));
    let takers = cozy_chess::get_pawn_attacks(target, !us) & board.colored_pieces(us, Piece::Pawn);
    (!takers.is_empty()).then_some((target, takers))
}

/// True if one of `takers` may legally take en passant on `target`.
fn can_take(board: &Board, target: Square, takers: BitBoard) -> bool {
    let mut found = false;
    board.generate_moves_for(takers, |moves| {
        found |= moves.to.has(target);
        found
    });
    found
}

/// A game position with its history.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// `key_of(&board)`, kept with the board: the search asks for it
    /// several times a node.
    key: u64,
    /// Boards before each move played, for undo (copy-make).
    undo: Vec<Board>,
    /// Keys of all earlier positions of the game, oldest first.
    keys: Vec<u64>,
    /// `keys.len()` after each null move still on the undo stack: positions
    /// before a null move cannot repeat in a real game line.
    nulls: Vec<usize>,
    chess960: bool,
}

impl Default for Position {
    fn default() -> Self {
        Self::new(Board::default(), false)
    }
}

impl Position {
    pub fn new(board: Board, chess960: bool) -> Self {
        Self {
            key: key_of(&board),
            board,
            undo: Vec::with_capacity(256),
            keys: Vec::with_capacity(512),
            nulls: Vec::new(),
            chess960,
        }
    }

    /// Parses a FEN (standard, X-FEN or Shredder-FEN castling).
    /// Without `chess960`, castling rights must be those of standard chess.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Self, String> {
        let board = fen::parse_fen(fen)?;
        if !chess960 {
            fen::check_standard_castling(&board)?;
        }
        Ok(Self::new(board, chess960))
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn chess960(&self) -> bool {
        self.chess960
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// The key of the table and of repetitions: cozy-chess's key without
    /// the en passant file when no pawn can legally take en passant.
    /// cozy-chess sets the file after every double push, so its key alone
    /// tells a position just after a double push from the same position
    /// reached otherwise, and a threefold repetition through it went unseen.
    pub fn key(&self) -> u64 {
        debug_assert_eq!(self.key, key_of(&self.board), "stale key in {}", self.board);
        self.key
    }

    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.board.halfmove_clock() as u32
    }

    /// Number of moves played since this `Position` was created.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }

    /// Plays a legal move (copy-make: the old board goes on the undo stack).
    pub fn play(&mut self, mv: Move) {
        debug_assert!(
            self.board.is_legal(mv),
            "illegal move {mv} played in {}",
            self.board
        );
        self.keys.push(self.key());
        self.undo.push(self.board.clone());
        self.board.play_unchecked(mv);
        self.key = key_of(&self.board);
        debug_assert_eq!(
            Some(self.board.hash()),
            recomputed_key(&self.board),
            "incremental key differs from the recomputed one after {mv}"
        );
    }

    /// Takes back the last move or null move.
    pub fn undo(&mut self) {
        if let Some(b) = self.undo.pop() {
            debug_assert_eq!(
                self.keys.last(),
                Some(&key_of(&b)),
                "the key stack is out of step with the undo stack"
            );
            self.board = b;
            if self.nulls.last() == Some(&self.keys.len()) {
                self.nulls.pop();
            }
            // The key before the move: `play` pushed it with the board.
            self.key = self.keys.pop().unwrap_or_else(|| key_of(&self.board));
        }
    }

    /// Plays a null move (pass). Returns false, doing nothing, when in check.
    pub fn play_null(&mut self) -> bool {
        match self.board.null_move() {
            Some(b) => {
                debug_assert_eq!(
                    Some(b.hash()),
                    recomputed_key(&b),
                    "incremental key differs from the recomputed one after a null move"
                );
                self.keys.push(self.key());
                self.nulls.push(self.keys.len());
                self.undo.push(std::mem::replace(&mut self.board, b));
                self.key = key_of(&self.board);
                true
            }
            None => false,
        }
    }

    /// Forgets the undo stack but keeps the keys for repetition detection:
    /// used after `position ... moves` so the search starts at ply 0.
    pub fn forget_undo(&mut self) {
        self.undo.clear();
    }

    /// Parses a UCI move and plays it if legal.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let mv = moves::parse_uci(&self.board, text, self.chess960)?;
        self.play(mv);
        Ok(mv)
    }

    /// Formats a move of this position in UCI notation.
    pub fn uci(&self, mv: Move) -> String {
        moves::format_uci(&self.board, mv, self.chess960)
    }

    /// True if the current position repeats an earlier one. A single repetition
    /// of a position reached after the search root (`ply` moves ago at most)
    /// counts, since the side that could avoid it would already have; an older
    /// one must have occurred twice (threefold repetition).
    pub fn is_repetition(&self, ply: usize) -> bool {
        let key = self.key();
        let since_null = self.keys.len() - self.nulls.last().copied().unwrap_or(0);
        let window = (self.board.halfmove_clock() as usize)
            .min(self.keys.len())
            .min(since_null);
        let mut seen = 0;
        let mut back = 4;
        while back <= window {
            if self.keys[self.keys.len() - back] == key {
                if back < ply {
                    return true;
                }
                seen += 1;
                if seen == 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Draw by the fifty-move rule (a mate on the last move still wins).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.board.halfmove_clock() >= 100 && self.has_legal_move()
    }

    /// Neither side can ever mate: K v K, K+minor v K, or only same-coloured bishops.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        let minors = (knights | bishops).len();
        if minors <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & BitBoard::DARK_SQUARES).is_empty()
                || (bishops & BitBoard::LIGHT_SQUARES).is_empty())
    }

    pub fn has_legal_move(&self) -> bool {
        self.board.generate_moves(|_| true)
    }

    /// All legal moves, in the generator's order.
    pub fn legal_moves(&self) -> Vec<Move> {
        moves::legal_moves(&self.board)
    }

    /// True if the side to move has a piece other than pawns and the king
    /// (where null move pruning is sound enough: zugzwang is rare).
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let b = &self.board;
        let pieces = b.colors(color) & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King));
        !pieces.is_empty()
    }

    /// The squares the opponent of the side to move attacks.
    pub fn threats(&self) -> BitBoard {
        see::attacked_by(&self.board, !self.board.side_to_move())
    }

    pub fn is_capture(&self, mv: Move) -> bool {
        moves::is_capture(&self.board, mv)
    }

    /// The piece captured by `mv`, if any (a pawn for en passant).
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        moves::captured(&self.board, mv)
    }

    /// A capture or a promotion: moves that change the material balance.
    /// The moves quiescence searches and the move picker's noisy stages:
    /// captures and queen promotions. Underpromotions are searched as quiets
    /// (unlike `is_noisy`, which counts every promotion).
    pub fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion == Some(Piece::Queen) || self.is_capture(mv)
    }

    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.promotion.is_some() || self.is_capture(mv)
    }

    pub fn fen(&self) -> String {
        fen::to_fen(&self.board, false)
    }
}
