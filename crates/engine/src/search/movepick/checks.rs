//! Quiescence's first ply wants the captures and, after them, only the quiet
//! moves that give check. Listing every quiet move, partitioning the list and
//! scoring each quiet for check cost more than the rest of such a node; this
//! queue gives the same checks in the same order for a fraction of the work.
//!
//! The order to keep is the one the partition leaves: it walks the moves in
//! the generator's order and swaps each noisy move with the first quiet of
//! the quiet block behind the noisy ones, so that block behaves as a queue.
//! A quiet move joins at its back; a noisy move sends its front to its back.
//! Only the checks among the quiets are handed out, so the queue keeps the
//! checks and, before each, how many other quiets stand between it and the
//! check ahead of it.

use crate::board::{BitBoard, Move, Piece, Position, Square};
use crate::search::movepick::generate::{en_passant_target, promotion_ranks};
use crate::search::movepick::{Batches, CaptureScore, MovePicker, OrderContext};
use crate::search::params::check_bonus;

impl MovePicker {
    /// [`MovePicker::generate`] for quiescence's first ply out of check: the
    /// noisy moves scored as there, then the quiet checks (scored all alike)
    /// in the order the full list would hand them out. (Generating the
    /// checks only once the captures are done costs more: most of these
    /// nodes get that far.)
    pub(super) fn generate_with_checks(&mut self, pos: &Position, ctx: &OrderContext) {
        debug_assert!(self.quiet_checks && !pos.in_check());
        let board = pos.board();
        let scorer = CaptureScore::new(board.side_to_move());
        let list = &mut self.list;
        let (ours, theirs) = (
            board.colors(board.side_to_move()),
            board.colors(!board.side_to_move()),
        );
        let tt_move = self.tt_move;
        let (en_passant, promotion_ranks) = (en_passant_target(board), promotion_ranks());
        let mut queue = CheckQueue::new();
        let mut batches = Batches::new();
        board.generate_moves(|pm| batches.push(pm));
        for pm in batches.iter() {
            if pm.piece == Piece::Pawn && !(pm.to & promotion_ranks).is_empty() {
                for mv in pm {
                    if Some(mv) == tt_move {
                        continue;
                    }
                    if pos.is_tactical(mv) {
                        let victim = pos.captured(mv).unwrap_or(Piece::Pawn);
                        list.push((mv, scorer.score(ctx, pm.piece, mv, victim)));
                        queue.rotate();
                    } else {
                        let check = ctx.checks.quiet_gives_check(board, mv, pm.piece);
                        queue.push_quiet(mv, check);
                    }
                }
                continue;
            }
            // Other moves: noisy exactly when they capture (a pawn's move to
            // the en passant square is one). The quiets between two captures
            // join the queue together, so the work is per capture and per
            // check, not per move.
            let mut to = pm.to;
            if let Some(t) = tt_move
                && t.from == pm.from
            {
                to &= !t.to.bitboard();
            }
            let ep = if pm.piece == Piece::Pawn {
                en_passant
            } else {
                BitBoard::EMPTY
            };
            let captures = to & (theirs | ep);
            let mut quiets = to & !captures;
            let mut checks = quiets & !ours & ctx.checks.quiet_check_targets(pm.piece, pm.from);
            // Castling (the king onto its rook): played to see.
            for sq in quiets & ours {
                let mv = Move {
                    from: pm.from,
                    to: sq,
                    promotion: None,
                };
                if ctx.checks.quiet_gives_check(board, mv, pm.piece) {
                    checks |= sq.bitboard();
                }
            }
            for sq in captures {
                let below = quiets & BitBoard(sq.bitboard().0 - 1);
                queue.push_quiets(pm.from, below, checks);
                quiets ^= below;
                let mv = Move {
                    from: pm.from,
                    to: sq,
                    promotion: None,
                };
                let victim = board.piece_on(sq).unwrap_or(Piece::Pawn);
                list.push((mv, scorer.score(ctx, pm.piece, mv, victim)));
                queue.rotate();
            }
            queue.push_quiets(pm.from, quiets, checks);
        }
        self.noisy_end = list.len();
        let bonus = check_bonus();
        list.extend(queue.checks().map(|mv| (mv, bonus)));
        self.len = list.len();
    }
}

/// Every quiet move of a position at most (218 legal moves), so that the
/// ring's `u8` indices never catch up with each other.
const RING: usize = 256;

pub(super) struct CheckQueue {
    /// From `head` to `tail` (wrapping): each check, and the count of quiet
    /// moves that are not checks just before it in the queue.
    ring: [(u8, Move); RING],
    head: u8,
    tail: u8,
    /// Quiet moves that are not checks after the last check.
    trailing: u8,
}

impl CheckQueue {
    pub(super) fn new() -> Self {
        let none = Move {
            from: Square::A1,
            to: Square::A1,
            promotion: None,
        };
        Self {
            ring: [(0, none); RING],
            head: 0,
            tail: 0,
            trailing: 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.head == self.tail
    }

    /// A quiet move joins the back of the queue.
    #[inline(always)]
    pub(super) fn push_quiet(&mut self, mv: Move, check: bool) {
        if check {
            self.ring[self.tail as usize] = (self.trailing, mv);
            self.tail = self.tail.wrapping_add(1);
            self.trailing = 0;
        } else {
            self.trailing += 1;
        }
    }

    /// The quiet moves from `from` to `to`, in the order of their squares,
    /// join the back; those to `checks` give check.
    #[inline(always)]
    pub(super) fn push_quiets(&mut self, from: Square, to: BitBoard, checks: BitBoard) {
        let mut left = to;
        for sq in to & checks {
            let before = left & BitBoard(sq.bitboard().0 - 1);
            self.trailing += before.len() as u8;
            let mv = Move {
                from,
                to: sq,
                promotion: None,
            };
            self.push_quiet(mv, true);
            left ^= before | sq.bitboard();
        }
        self.trailing += left.len() as u8;
    }

    /// A noisy move was generated: the front quiet goes to the back.
    #[inline(always)]
    pub(super) fn rotate(&mut self) {
        if self.is_empty() {
            return; // only non-checks (or nothing): their order is all the same
        }
        let front = &mut self.ring[self.head as usize];
        if front.0 > 0 {
            front.0 -= 1;
            self.trailing += 1;
        } else {
            let mv = front.1;
            self.head = self.head.wrapping_add(1);
            self.push_quiet(mv, true);
        }
    }

    /// The checks, front first.
    pub(super) fn checks(&self) -> impl Iterator<Item = Move> + '_ {
        let len = self.tail.wrapping_sub(self.head) as usize;
        (0..len).map(move |i| self.ring[(self.head as usize + i) % RING].1)
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
