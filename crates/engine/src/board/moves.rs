//! Move helpers: UCI notation (standard and Chess960 castling), move lists,
//! and classification (captures, victims).

use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{
    BitBoard, Board, Move, Piece, Square, get_between_rays, get_bishop_moves, get_bishop_rays,
    get_knight_moves, get_line_rays, get_pawn_attacks, get_rook_moves, get_rook_rays,
};

/// All legal moves of a board, in the generator's order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut out = Vec::with_capacity(64);
    board.generate_moves(|pm| {
        out.extend(pm);
        false
    });
    out
}

/// Parses a UCI move and checks it is legal. Standard castling is written as
/// the king's two-square move (e1g1); in Chess960 mode as king takes rook (e1h1).
pub fn parse_uci(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(format!("cannot parse move '{text}'"));
    }
    let mv = if chess960 {
        text.parse::<Move>().map_err(|_| ())
    } else {
        parse_uci_move(board, text).map_err(|_| ())
    }
    .map_err(|_| format!("cannot parse move '{text}'"))?;
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("illegal move '{text}' in {board}"))
    }
}

/// Formats a move in UCI notation (see [`parse_uci`] for castling).
pub fn format_uci(board: &Board, mv: Move, chess960: bool) -> String {
    if chess960 {
        mv.to_string()
    } else {
        display_uci_move(board, mv).to_string()
    }
}

/// True for captures, en passant included. Castling (king onto own rook) is not.
/// Bitboard tests only: this runs for every generated move.
pub fn is_capture(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to) || is_en_passant(board, mv)
}

/// The piece `mv` moves. For a move of `board` the from-square is never
/// empty (a debug build checks it holds a piece of the side to move); in a
/// release build the pawn only keeps a stray move from panicking.
#[inline]
pub fn moving_piece(board: &Board, mv: Move) -> Piece {
    debug_assert!(
        board.colors(board.side_to_move()).has(mv.from),
        "{mv}: no piece of the side to move on its from-square in {board}"
    );
    board.piece_on(mv.from).unwrap_or(Piece::Pawn)
}

/// The piece a move captures, if any.
pub fn captured(board: &Board, mv: Move) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        return board.piece_on(mv.to);
    }
    is_en_passant(board, mv).then_some(Piece::Pawn)
}

/// A pawn moving diagonally onto an empty square can only be capturing en passant.
fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.pieces(Piece::Pawn).has(mv.from)
        && mv.from.file() != mv.to.file()
        && !board.occupied().has(mv.to)
}

/// Whether a legal move gives check, without playing it (see [`CheckInfo`]).
pub fn gives_check(board: &Board, mv: Move) -> bool {
    CheckInfo::new(board).gives_check(board, mv)
}

/// What is needed to tell quickly whether a move gives check, computed once
/// per position: the squares from which each piece type would attack the
/// enemy king, and our pieces that block one of our sliders' lines to it
/// (moving them off the line uncovers a check).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    king: Square,
    squares: [BitBoard; 6],
    discoverers: BitBoard,
}

impl CheckInfo {
    /// A stand-in where no move's check is asked (its answers are meaningless).
    pub const UNUSED: Self = Self {
        king: Square::A1,
        squares: [BitBoard::EMPTY; 6],
        discoverers: BitBoard::EMPTY,
    };

    pub fn new(board: &Board) -> Self {
        let stm = board.side_to_move();
        let king = board.king(!stm);
        let occ = board.occupied();
        let bishop = get_bishop_moves(king, occ);
        let rook = get_rook_moves(king, occ);
        let ours = board.colors(stm);
        let diag = ours & (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen));
        let orth = ours & (board.pieces(Piece::Rook) | board.pieces(Piece::Queen));
        let snipers = (get_bishop_rays(king) & diag) | (get_rook_rays(king) & orth);
        let mut discoverers = BitBoard::EMPTY;
        for sniper in snipers {
            let between = get_between_rays(sniper, king) & occ;
            if between.len() == 1 && !(between & ours).is_empty() {
                discoverers |= between;
            }
        }
        Self {
            king,
            squares: [
                get_pawn_attacks(king, !stm),
                get_knight_moves(king),
                bishop,
                rook,
                bishop | rook,
                BitBoard::EMPTY,
            ],
            discoverers,
        }
    }

    /// Whether the legal move `mv` of `board` gives check. Castling, en passant
    /// and promotions are rare: those are played on a copy.
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        board
            .piece_on(mv.from)
            .is_some_and(|piece| self.gives_check_by(board, mv, piece))
    }

    /// [`CheckInfo::gives_check_by`] for a legal move that captures nothing
    /// (no en passant): only castling and promotions are played on a copy.
    #[inline(always)]
    pub fn quiet_gives_check(&self, board: &Board, mv: Move, piece: Piece) -> bool {
        debug_assert!(
            !board.colors(!board.side_to_move()).has(mv.to) && !is_en_passant(board, mv),
            "{mv} captures in {board}"
        );
        if mv.promotion.is_some() || board.colors(board.side_to_move()).has(mv.to) {
            return played_gives_check(board, mv);
        }
        self.squares[piece as usize].has(mv.to)
            || (self.discoverers.has(mv.from) && !get_line_rays(self.king, mv.from).has(mv.to))
    }

    /// The squares where a quiet move of `piece` from `from` gives check,
    /// castling and promotions aside (see [`CheckInfo::quiet_gives_check`]).
    #[inline(always)]
    pub fn quiet_check_targets(&self, piece: Piece, from: Square) -> BitBoard {
        let direct = self.squares[piece as usize];
        if self.discoverers.has(from) {
            direct | !get_line_rays(self.king, from)
        } else {
            direct
        }
    }

    /// [`CheckInfo::gives_check`] when the moving piece is already known.
    // Inlined: the move picker asks it of every quiet move it scores.
    #[inline(always)]
    pub fn gives_check_by(&self, board: &Board, mv: Move, piece: Piece) -> bool {
        let en_passant = piece == Piece::Pawn && is_en_passant(board, mv);
        if board.colors(board.side_to_move()).has(mv.to) || mv.promotion.is_some() || en_passant {
            return played_gives_check(board, mv);
        }
        self.squares[piece as usize].has(mv.to)
            || (self.discoverers.has(mv.from) && !get_line_rays(self.king, mv.from).has(mv.to))
    }
}

/// Whether `mv` gives check, found by playing it on a copy (castling, en
/// passant and promotions: rare, and kept out of the inlined fast path).
#[inline(never)]
fn played_gives_check(board: &Board, mv: Move) -> bool {
    let mut b = board.clone();
    b.play_unchecked(mv);
    !b.checkers().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast test agrees with playing the move, over many positions.
    #[test]
    fn gives_check_matches_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut frontier = vec![fen.parse::<Board>().unwrap()];
            for _ in 0..2 {
                let mut next = Vec::new();
                for b in &frontier {
                    for mv in legal_moves(b) {
                        let mut c = b.clone();
                        c.play_unchecked(mv);
                        assert_eq!(gives_check(b, mv), !c.checkers().is_empty(), "{b} {mv}");
                        checked += 1;
                        next.push(c);
                    }
                }
                frontier = next;
            }
        }
        assert!(checked > 2_000, "only {checked} moves checked");
    }
}
