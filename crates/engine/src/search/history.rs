//! History heuristics: statistics of which moves caused cutoffs, used to order
//! the moves no static rule can rank (quiets), and to scale reductions.
//!
//! - Butterfly history, by side, from and to square, and whether the
//!   opponent attacks each of the two squares: moving a piece out of an
//!   attack, or into one, is a different move.
//! - Continuation history, by (piece, square) of the move 1 and 2 plies back
//!   and (piece, square) of this move: moves that answer a given move well.
//! - Capture history, by piece, target square and captured piece.
//! - Pawn history (when `pawn_history_pct` is set), by pawn structure and
//!   (piece, square): where a piece belongs depends on the pawns around it.
//! - Killers (two quiet cutoff moves per ply) and the countermove (the quiet
//!   that refuted the opponent's last move).
//!
//! - Correction history (see [`super::correction`]), which corrects the
//!   static evaluation rather than ordering moves.
//!
//! All of them are kept from one search to the next until `ucinewgame`.
//!
//! After a cutoff, `learn_cutoff` rewards the move that caused it and
//! punishes the moves tried before it (`Tried` remembers them).
//!
//! Updates use the "gravity" formula `h += bonus - h * |bonus| / MAX`: values
//! saturate smoothly at +-MAX and old information decays as new arrives.

use super::correction::{CorrectionHistory, pawn_hash};
use super::params::{
    history_bonus_linear, history_bonus_max, history_bonus_quadratic, history_malus_linear,
    history_malus_max, history_malus_quadratic, history_max, pawn_history_pct,
};
use super::score::MAX_PLY;

/// Filler for move arrays, never read. Its bytes are all zero (a1, a1, the
/// pawn's index), so that filling `Tried`'s arrays at every node is a plain
/// zeroing of memory, not a byte pattern stored move by move.
const NO_MOVE: Move = Move {
    from: crate::board::Square::A1,
    to: crate::board::Square::A1,
    promotion: Some(Piece::Pawn),
};
use crate::board::moves::moving_piece;
use crate::board::{BitBoard, Board, Color, Move, Piece, Position, Square};

/// Bonus for a move that caused a cutoff at `depth`.
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_quadratic() + depth * history_bonus_linear())
        .min(history_bonus_max())
}

/// Malus (as a positive number) for the moves tried before it.
pub fn history_malus(depth: i32) -> i32 {
    (depth * depth * history_malus_quadratic() + depth * history_malus_linear())
        .min(history_malus_max())
}

fn gravity(entry: &mut i16, bonus: i32) {
    let (e, max) = (*entry as i32, history_max());
    debug_assert!(
        (1..=i16::MAX as i32).contains(&max),
        "history_max {max} does not fit an i16 entry"
    );
    let b = bonus.clamp(-max, max);
    let updated = e + b - e * b.abs() / max;
    debug_assert!(
        updated.abs() <= max,
        "history {e} + {bonus} gave {updated}, beyond +-{max}"
    );
    *entry = updated as i16;
}

/// A move's (piece, to-square) pair as one index: what the continuation
/// histories are keyed by.
pub type PieceTo = usize;

pub fn piece_to(color: Color, piece: Piece, to: Square) -> PieceTo {
    ((color as usize * 6 + piece as usize) * 64) + to as usize
}

/// The number of (piece, to-square) pairs.
pub const PIECE_TO: usize = 2 * 6 * 64;

/// Pawn structures the pawn history tells apart (a power of two).
const PAWN_SLOTS: usize = 1 << 10;

/// The pawn history's row for `board`'s pawn structure.
fn pawn_slot(board: &Board) -> usize {
    (pawn_hash(board) >> (64 - PAWN_SLOTS.trailing_zeros())) as usize
}

pub struct Histories {
    butterfly: Vec<i16>,
    /// `continuation[prev_piece_to][piece_to]`, shared by the 1- and 2-ply tables.
    continuation: [Vec<i16>; 2],
    capture: Vec<i16>,
    /// `pawn[pawn_slot][piece_to]`; empty while the pawn history is off
    /// (1.5 MB a thread otherwise; a `spsa` build that turns it on gets
    /// the table at the next `ucinewgame`).
    pawn: Vec<i16>,
    countermove: Vec<Option<Move>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    pub correction: CorrectionHistory,
}

impl Default for Histories {
    fn default() -> Self {
        Self {
            butterfly: vec![0; 2 * 4 * 64 * 64],
            continuation: [vec![0; PIECE_TO * PIECE_TO], vec![0; PIECE_TO * PIECE_TO]],
            capture: vec![0; PIECE_TO * 6],
            pawn: if pawn_history_pct() != 0 {
                vec![0; PAWN_SLOTS * PIECE_TO]
            } else {
                Vec::new()
            },
            countermove: vec![None; PIECE_TO],
            killers: [[None; 2]; MAX_PLY + 1],
            correction: CorrectionHistory::default(),
        }
    }
}

/// `threats`: the squares the opponent attacks.
fn butterfly_index(color: Color, mv: Move, threats: BitBoard) -> usize {
    let attacked = |sq: Square| threats.has(sq) as usize;
    let table = color as usize * 4 + attacked(mv.from) * 2 + attacked(mv.to);
    (table * 64 + mv.from as usize) * 64 + mv.to as usize
}

impl Histories {
    pub fn butterfly(&self, color: Color, mv: Move, threats: BitBoard) -> i32 {
        self.butterfly[butterfly_index(color, mv, threats)] as i32
    }

    /// Continuation history of `pt` after the move `prev` plies back (1 or 2).
    pub fn continuation(&self, plies_back: usize, prev: Option<PieceTo>, pt: PieceTo) -> i32 {
        prev.map_or(0, |p| {
            self.continuation[plies_back - 1][p * PIECE_TO + pt] as i32
        })
    }

    /// The continuation-history row of the move `prev` plies back (1 or
    /// 2), indexed by `PieceTo`: [`Histories::continuation`] for many moves
    /// after the same previous move.
    pub fn continuation_row(&self, plies_back: usize, prev: Option<PieceTo>) -> Option<&[i16]> {
        prev.map(|p| &self.continuation[plies_back - 1][p * PIECE_TO..(p + 1) * PIECE_TO])
    }

    /// The pawn-history row of `board`'s pawn structure, indexed by
    /// `PieceTo`; `None` when the pawn history is off.
    pub fn pawn_row(&self, board: &Board) -> Option<&[i16]> {
        if pawn_history_pct() == 0 {
            return None;
        }
        let start = pawn_slot(board) * PIECE_TO;
        self.pawn.get(start..start + PIECE_TO)
    }

    pub fn capture(&self, pt: PieceTo, victim: Piece) -> i32 {
        self.capture[pt * 6 + victim as usize] as i32
    }

    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    pub fn countermove(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.countermove[p])
    }

    pub fn clear_all_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    /// Records a quiet cutoff move as killer and countermove.
    pub fn add_refutation(&mut self, ply: usize, mv: Move, prev: Option<PieceTo>) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some(p) = prev {
            self.countermove[p] = Some(mv);
        }
    }

    /// Rewards (positive bonus) or punishes a quiet move in every quiet table.
    pub fn update_quiet(
        &mut self,
        (color, threats): (Color, BitBoard),
        mv: Move,
        pt: PieceTo,
        prevs: [Option<PieceTo>; 2],
        bonus: i32,
    ) {
        gravity(
            &mut self.butterfly[butterfly_index(color, mv, threats)],
            bonus,
        );
        for (i, prev) in prevs.iter().enumerate() {
            if let Some(p) = prev {
                gravity(&mut self.continuation[i][p * PIECE_TO + pt], bonus);
            }
        }
    }

    /// Rewards or punishes a quiet move in the butterfly history only.
    pub fn update_butterfly(&mut self, (color, threats): (Color, BitBoard), mv: Move, bonus: i32) {
        gravity(
            &mut self.butterfly[butterfly_index(color, mv, threats)],
            bonus,
        );
    }

    fn update_pawn(&mut self, slot: usize, pt: PieceTo, bonus: i32) {
        gravity(&mut self.pawn[slot * PIECE_TO + pt], bonus);
    }

    pub fn update_capture(&mut self, pt: PieceTo, victim: Piece, bonus: i32) {
        gravity(&mut self.capture[pt * 6 + victim as usize], bonus);
    }
}

/// Moves remembered per node for history maluses.
const TRIED_MAX: usize = 64;

/// A cutoff to learn from: the move, where, and the moves tried before it.
pub struct Cutoff<'a> {
    pub best: Move,
    pub depth: i32,
    pub ply: usize,
    /// (piece, square) of the moves 1 and 2 plies back.
    pub prevs: [Option<PieceTo>; 2],
    /// The squares the opponent attacks (the butterfly history's context).
    pub threats: BitBoard,
    pub quiets: &'a [Move],
    pub noisies: &'a [Move],
}

/// Rewards the cutoff move and punishes the moves tried before it (the quiet
/// tables only with `quiet_history`, the `history` switch). Shared with the
/// lab's ordering experiment, so that it learns as the engine does.
pub fn learn_cutoff(hist: &mut Histories, pos: &Position, c: &Cutoff, quiet_history: bool) {
    let (bonus, malus) = (history_bonus(c.depth), history_malus(c.depth));
    debug_assert!(
        bonus >= 0 && malus >= 0,
        "history bonus {bonus} and malus {malus} at depth {}: a reward must not punish",
        c.depth
    );
    debug_assert!(
        !c.quiets.contains(&c.best) && !c.noisies.contains(&c.best),
        "the cutoff move {} is also among the moves punished",
        c.best
    );
    let stm = pos.side_to_move();
    let board = pos.board();
    let pt_of = |mv: Move| {
        let piece = moving_piece(board, mv);
        piece_to(stm, piece, mv.to)
    };
    if !pos.is_tactical(c.best) {
        if quiet_history {
            let side = (stm, c.threats);
            hist.update_quiet(side, c.best, pt_of(c.best), c.prevs, bonus);
            for &q in c.quiets {
                hist.update_quiet(side, q, pt_of(q), c.prevs, -malus);
            }
            if pawn_history_pct() != 0 && !hist.pawn.is_empty() {
                let slot = pawn_slot(board);
                hist.update_pawn(slot, pt_of(c.best), bonus);
                for &q in c.quiets {
                    hist.update_pawn(slot, pt_of(q), -malus);
                }
            }
        }
        hist.add_refutation(c.ply, c.best, c.prevs[0]);
    } else if let Some(victim) = pos.captured(c.best) {
        hist.update_capture(pt_of(c.best), victim, bonus);
    }
    for &n in c.noisies {
        if let Some(victim) = pos.captured(n) {
            hist.update_capture(pt_of(n), victim, -malus);
        }
    }
}

/// The moves searched at a node before the best one, for history maluses.
pub(crate) struct Tried {
    quiets: [Move; TRIED_MAX],
    noisies: [Move; TRIED_MAX],
    n_quiets: usize,
    n_noisies: usize,
}

impl Default for Tried {
    fn default() -> Self {
        Self {
            quiets: [NO_MOVE; TRIED_MAX],
            noisies: [NO_MOVE; TRIED_MAX],
            n_quiets: 0,
            n_noisies: 0,
        }
    }
}

impl Tried {
    pub(crate) fn push(&mut self, mv: Move, quiet: bool) {
        let (list, n) = if quiet {
            (&mut self.quiets, &mut self.n_quiets)
        } else {
            (&mut self.noisies, &mut self.n_noisies)
        };
        if *n < TRIED_MAX {
            list[*n] = mv;
            *n += 1;
        }
    }

    pub(crate) fn quiets(&self) -> &[Move] {
        &self.quiets[..self.n_quiets]
    }

    pub(crate) fn noisies(&self) -> &[Move] {
        &self.noisies[..self.n_noisies]
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
