//! Negamax alpha-beta (fail-soft) with a capture-only quiescence search.
//!
//! Negamax scores every node from the side to move, so one function serves
//! both players: a child's score is negated and the window (alpha, beta)
//! becomes (-beta, -alpha). A move scoring at least beta proves the node will
//! be avoided by the opponent, so its remaining moves need no search (cutoff).

use super::pv::PvTable;
use super::score::{DRAW, INFINITE, MAX_PLY, Score, mated_in};
use super::{Clock, Shared, limits::Limits};
use crate::board::{Move, Position};
use crate::eval::evaluate;

/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

/// One search thread's state.
pub struct Worker<'a> {
    pos: Position,
    shared: &'a Shared,
    clock: Clock,
    root_moves: Vec<Move>,
    nodes: u64,
    seldepth: usize,
    pv: PvTable,
    stopped: bool,
}

impl<'a> Worker<'a> {
    pub fn new(mut pos: Position, shared: &'a Shared, clock: Clock, limits: &Limits) -> Self {
        pos.forget_undo();
        let mut root_moves = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        Self {
            pos,
            shared,
            clock,
            root_moves,
            nodes: 0,
            seldepth: 0,
            pv: PvTable::default(),
            stopped: false,
        }
    }

    pub fn root_moves(&self) -> &[Move] {
        &self.root_moves
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn root_pv(&self) -> Vec<Move> {
        self.pv.line(0).to_vec()
    }

    /// Searches the root to `depth`, best move of the last iteration first.
    pub fn search_root(&mut self, depth: u32) -> Score {
        self.seldepth = 0;
        if let Some(i) = self
            .pv
            .line(0)
            .first()
            .and_then(|best| self.root_moves.iter().position(|m| m == best))
        {
            self.root_moves[..=i].rotate_right(1);
        }
        self.pv.clear(0);
        let (mut alpha, beta) = (-INFINITE, INFINITE);
        let mut best = -INFINITE;
        let moves = self.root_moves.clone();
        for mv in moves {
            self.pos.play(mv);
            self.nodes += 1;
            let score = -self.negamax(depth as i32 - 1, 1, -beta, -alpha);
            self.pos.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                self.pv.update(0, mv);
                alpha = alpha.max(score);
            }
        }
        if self.root_moves.is_empty() {
            return if self.pos.in_check() {
                mated_in(0)
            } else {
                DRAW
            };
        }
        best
    }

    /// Checks the stop flag and limits every `CHECK_INTERVAL` nodes.
    fn poll(&mut self) -> bool {
        if self.nodes.is_multiple_of(CHECK_INTERVAL)
            && (self.shared.stopped() || self.clock.hard_stop(self.shared, self.nodes))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Draw by repetition, fifty-move rule or insufficient material.
    fn is_draw(&self, ply: usize) -> bool {
        self.pos.is_repetition(ply)
            || self.pos.is_fifty_move_draw()
            || self.pos.is_insufficient_material()
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.pv.clear(ply);
        if self.poll() {
            return 0;
        }
        if self.is_draw(ply) {
            return DRAW;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(ply, alpha, beta);
        }
        let mut moves = self.pos.legal_moves();
        if moves.is_empty() {
            return if self.pos.in_check() {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        order_captures_first(&self.pos, &mut moves);
        let mut best = -INFINITE;
        for mv in moves {
            self.pos.play(mv);
            self.nodes += 1;
            let score = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            self.pos.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches captures only, so that the leaves are quiet: the side to move
    /// may "stand pat" on the static evaluation instead of capturing.
    fn quiescence(&mut self, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        if self.poll() {
            return 0;
        }
        let in_check = self.pos.in_check();
        let mut best = if in_check {
            -INFINITE
        } else {
            evaluate(self.pos.board())
        };
        if best >= beta || ply >= MAX_PLY - 1 {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = self.pos.legal_moves();
        if moves.is_empty() && in_check {
            return mated_in(ply);
        }
        if !in_check {
            moves.retain(|&m| self.pos.is_noisy(m));
        }
        order_captures_first(&self.pos, &mut moves);
        for mv in moves {
            self.pos.play(mv);
            self.nodes += 1;
            let score = -self.quiescence(ply + 1, -beta, -alpha);
            self.pos.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// MVV-LVA: captures of the most valuable victim first, by the least valuable attacker.
fn order_captures_first(pos: &Position, moves: &mut [Move]) {
    moves.sort_by_cached_key(|&m| {
        let victim = pos.captured(m).map_or(-1, |p| p as i32);
        let attacker = pos.board().piece_on(m.from).map_or(0, |p| p as i32);
        let promo = m.promotion.map_or(0, |p| p as i32);
        -(victim * 8 + promo * 8 - attacker)
    });
}
