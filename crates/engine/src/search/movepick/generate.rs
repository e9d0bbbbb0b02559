//! Move generation for the picker: every legal move once, noisy moves
//! scored, quiets marked with their piece and left for later.

use crate::board::see::attackers_to;
use crate::board::{BitBoard, Move, Piece, Position, Rank, Square};
use crate::search::movepick::{
    Batches, CaptureScore, MovePicker, OrderContext, QUIET_MAX, quiet_mark,
};
use cozy_chess::{PieceMoves, get_king_moves};
use std::mem::MaybeUninit;

impl MovePicker {
    /// Generates all legal moves once, scoring noisy ones (MVV-LVA plus
    /// capture history) and leaving quiets unscored until needed.
    // Not inlined (nor `score_quiets`): once per node at most, while `next`
    // runs once per move, so `next` stays small and cheap to enter.
    #[inline(never)]
    pub(super) fn generate(&mut self, pos: &Position, ctx: &OrderContext) {
        if self.quiet_checks {
            return self.generate_with_checks(pos, ctx);
        }
        let board = pos.board();
        let stm = board.side_to_move();
        let evasions = pos.in_check();
        let keep_quiets = !self.noisy_only || evasions;
        let mut out = ListWriter::new(&mut self.list);
        let tt_move = self.tt_move;
        let theirs = board.colors(!stm);
        // Where a pawn's noisy move can go: a capture, en passant, a promotion.
        let (en_passant, promotion_ranks) = (en_passant_target(board), promotion_ranks());
        let pawn_noisy = theirs | en_passant | promotion_ranks;
        let scorer = CaptureScore::new(stm);
        let score_capture =
            |piece: Piece, mv: Move, victim: Piece| scorer.score(ctx, piece, mv, victim);
        // The generator's batches first (a listener that only stores them),
        // then their moves in one loop that keeps its state in registers.
        let mut batches = Batches::new();
        if keep_quiets {
            board.generate_moves(|pm| batches.push(pm));
        } else {
            // Captures only (not in check): the king last, as the generator
            // has it, but only its captures are tested for safety.
            let king = board.king(stm);
            board.generate_moves_for(!king.bitboard(), |pm| batches.push(pm));
            let occ = board.occupied() ^ king.bitboard();
            let mut to = BitBoard::EMPTY;
            for sq in get_king_moves(king) & theirs {
                if (attackers_to(board, sq, occ) & theirs).is_empty() {
                    to |= sq.bitboard();
                }
            }
            if !to.is_empty() {
                batches.push(PieceMoves {
                    piece: Piece::King,
                    from: king,
                    to,
                });
            }
        }
        for mut pm in batches.iter() {
            let pawn = pm.piece == Piece::Pawn;
            if !keep_quiets {
                // Only noisy moves wanted: skip the quiets unseen.
                pm.to &= if pawn { pawn_noisy } else { theirs };
            }
            if pawn && !(pm.to & promotion_ranks).is_empty() {
                for mv in pm {
                    if Some(mv) == tt_move {
                        continue;
                    }
                    if pos.is_tactical(mv) {
                        let victim = pos.captured(mv).unwrap_or(Piece::Pawn);
                        out.push_noisy((mv, score_capture(pm.piece, mv, victim)));
                    } else if keep_quiets {
                        out.push_quiet((mv, quiet_mark(pm.piece)));
                    }
                }
                continue;
            }
            // No promotion: a move is noisy exactly when it captures (a
            // pawn's move to the en passant square is one, and the only pawn
            // move there). The same moves in the same order as `pm`'s
            // iterator, the hash move left out.
            let captures = if pawn { theirs | en_passant } else { theirs };
            if let Some(t) = tt_move
                && t.from == pm.from
            {
                pm.to &= !t.to.bitboard();
            }
            for to in pm.to {
                let mv = Move {
                    from: pm.from,
                    to,
                    promotion: None,
                };
                if captures.has(to) {
                    // Nothing stands on the en passant square: a pawn.
                    let victim = board.piece_on(to).unwrap_or(Piece::Pawn);
                    out.push_noisy((mv, score_capture(pm.piece, mv, victim)));
                } else {
                    out.push_quiet((mv, quiet_mark(pm.piece)));
                }
            }
        }
        let (count, noisy_end) = (out.count, out.noisy_end);
        let list = &mut self.list;
        // SAFETY: the list was empty (`ListWriter::new`), and each push
        // leaves its first `count` spare slots initialised: `push_quiet`
        // writes slot `count`; `push_noisy` copies an initialised slot below
        // `count` there (or slot `count` onto itself, then writes it).
        unsafe { list.set_len(count) };
        debug_assert!(
            list[..noisy_end].iter().all(|e| e.1 > QUIET_MAX)
                && list[noisy_end..].iter().all(|e| e.1 <= QUIET_MAX),
            "noisy moves not first in {}",
            board
        );
        self.noisy_end = noisy_end;
        self.len = count;
        if evasions {
            // In check every evasion must be searched, quiets included.
            self.noisy_only = false;
        }
    }
}

/// Writes moves into the empty move list's spare capacity, the slots and
/// the counts kept in registers: `Vec::push` re-reads the vector's fields and
/// tests the capacity for every move, a good part of generation's cost. The
/// caller sets the list's length to `count` once done.
///
/// Noisy moves are gathered at the front as they come: each swaps places
/// with the first quiet behind them, as a partition of the finished list in
/// one pass would (the quiets' order, which breaks ties between equal
/// scores, is that partition's), without a second pass over every move.
struct ListWriter<'a> {
    spare: &'a mut [MaybeUninit<(Move, i32)>],
    count: usize,
    noisy_end: usize,
}

impl<'a> ListWriter<'a> {
    /// Room for every legal move of a position (218 at most).
    const ROOM: usize = 256;

    fn new(list: &'a mut Vec<(Move, i32)>) -> Self {
        debug_assert!(list.is_empty(), "generation into a list in use");
        list.reserve(Self::ROOM);
        Self {
            spare: list.spare_capacity_mut(),
            count: 0,
            noisy_end: 0,
        }
    }

    /// Writes a quiet move at the back (indexing panics past the capacity,
    /// never more).
    #[inline(always)]
    fn push_quiet(&mut self, entry: (Move, i32)) {
        self.spare[self.count].write(entry);
        self.count += 1;
    }

    /// Writes a noisy move after the other noisy ones; the quiet it displaces
    /// (if any) goes to the back.
    #[inline(always)]
    fn push_noisy(&mut self, entry: (Move, i32)) {
        self.spare[self.count] = self.spare[self.noisy_end];
        self.spare[self.noisy_end].write(entry);
        self.noisy_end += 1;
        self.count += 1;
    }
}

/// The square a pawn of the side to move captures en passant onto, if any.
pub(super) fn en_passant_target(board: &cozy_chess::Board) -> BitBoard {
    let stm = board.side_to_move();
    board.en_passant().map_or(BitBoard::EMPTY, |file| {
        Square::new(file, Rank::Sixth.relative_to(stm)).bitboard()
    })
}

/// The ranks a pawn promotes on (either side's).
pub(super) fn promotion_ranks() -> BitBoard {
    Rank::First.bitboard() | Rank::Eighth.bitboard()
}
