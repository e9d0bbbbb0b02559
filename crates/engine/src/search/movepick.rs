//! The staged move picker: hands out moves best-first, doing only the work
//! each stage needs, since most nodes cut off after one or two moves.
//!
//! Stages: the transposition-table move (tried before any generation), good
//! noisy moves (captures and queen promotions that do not lose material by
//! SEE, most valuable victim first), the two killers, the countermove, quiet
//! moves by history (scored only when this stage is reached), and last the
//! noisy moves that lose material. Quiescence uses only the noisy stages
//! (all moves when in check).

use super::config::SearchConfig;
use super::history::{Histories, PIECE_TO, PieceTo, piece_to};
use super::params::{check_bonus, pawn_history_pct};
use crate::board::moves::{CheckInfo, legal_moves, moving_piece};
use crate::board::see::see_ge;
use crate::board::{BitBoard, Move, Piece, Position};

mod batches;
mod capture_score;
mod checks;
mod generate;
use batches::Batches;
use capture_score::CaptureScore;

/// Marks a quiet move before scoring: `QUIET + piece`, so that scoring
/// knows the moving piece without looking it up on the board.
const QUIET: i32 = i32::MIN;

/// The highest quiet mark (a king move); every noisy score is above it.
const QUIET_MAX: i32 = QUIET + Piece::King as i32;

fn quiet_mark(piece: Piece) -> i32 {
    QUIET + piece as i32
}

/// The moving piece of a quiet move, from its mark.
fn marked_piece(mark: i32) -> Piece {
    debug_assert!(
        (QUIET..=QUIET_MAX).contains(&mark),
        "{mark} is no quiet mark"
    );
    Piece::ALL[(mark - QUIET) as usize]
}

/// Index of the best-scored move in `list[from..to]` (the first of equals):
/// the highest score first (a loop without branches), then its place.
fn best_index(list: &[(Move, i32)], from: usize, to: usize) -> usize {
    let part = &list[from..to];
    let best = part.iter().fold(i32::MIN, |m, &(_, s)| m.max(s));
    from + part.iter().position(|&(_, s)| s == best).unwrap_or(0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    TtMove,
    Generate,
    GoodNoisy,
    Killer1,
    Killer2,
    Countermove,
    ScoreQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// The context the picker needs to score moves.
pub struct OrderContext<'a> {
    pub hist: &'a Histories,
    pub config: &'a SearchConfig,
    /// (piece, square) of the moves 1 and 2 plies back.
    pub prevs: [Option<PieceTo>; 2],
    /// Tells which quiet moves give check (they are ordered first).
    pub checks: CheckInfo,
    /// The squares the opponent attacks (the butterfly history's context).
    pub threats: BitBoard,
}

impl<'a> OrderContext<'a> {
    /// For `pos` taken on its own (no moves before it), every technique on:
    /// the picker outside a search (the lab, tests).
    #[doc(hidden)]
    pub fn standalone(pos: &Position, hist: &'a Histories) -> Self {
        Self {
            hist,
            config: &SearchConfig::ALL_ON,
            prevs: [None; 2],
            checks: CheckInfo::new(pos.board()),
            threats: pos.threats(),
        }
    }
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    /// Refutations already handed out, not to be repeated among the quiets.
    emitted: [Option<Move>; 3],
    /// All moves: noisy ones in `0..noisy_end`, quiets in `noisy_end..len`.
    /// Losing noisy moves, once picked, are parked in `0..bad_end` (a part
    /// already consumed), in the order they were picked.
    list: Vec<(Move, i32)>,
    len: usize,
    noisy_end: usize,
    cursor: usize,
    bad_end: usize,
    bad_cursor: usize,
    noisy_only: bool,
    /// Quiescence at its first ply: quiet checks too (after the captures),
    /// so a mate threat hidden behind a null move or razoring is still seen.
    quiet_checks: bool,
    skip_quiets: bool,
    /// The moves handed out so far, to check none comes twice.
    #[cfg(debug_assertions)]
    handed_out: Vec<Move>,
}

impl MovePicker {
    /// A picker for the main search; `refutations` are killer 1, killer 2 and
    /// the countermove (any may be `None`).
    ///
    /// `list` is a reused buffer (its contents are discarded); get it back
    /// with [`MovePicker::into_list`] so that nodes need not allocate.
    pub fn new(
        tt_move: Option<Move>,
        refutations: [Option<Move>; 3],
        mut list: Vec<(Move, i32)>,
    ) -> Self {
        list.clear();
        Self {
            stage: Stage::TtMove,
            tt_move,
            refutations,
            emitted: [None; 3],
            list,
            len: 0,
            noisy_end: 0,
            cursor: 0,
            bad_end: 0,
            bad_cursor: 0,
            noisy_only: false,
            quiet_checks: false,
            skip_quiets: false,
            #[cfg(debug_assertions)]
            handed_out: Vec::new(),
        }
    }

    /// A picker for quiescence: noisy moves only, unless `in_check`.
    /// With `quiet_checks`, quiet moves that give check follow the captures.
    pub fn new_quiescence(
        tt_move: Option<Move>,
        in_check: bool,
        quiet_checks: bool,
        list: Vec<(Move, i32)>,
    ) -> Self {
        let mut p = Self::new(tt_move, [None; 3], list);
        p.noisy_only = !in_check;
        p.quiet_checks = quiet_checks && !in_check;
        p
    }

    /// Returns the move buffer for reuse.
    pub fn into_list(self) -> Vec<(Move, i32)> {
        self.list
    }

    /// From now on, hand out no more quiet moves (pruning decided they are futile).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The next move to search, best first, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, ctx: &OrderContext) -> Option<Move> {
        let mv = self.pick(pos, ctx);
        #[cfg(debug_assertions)]
        if let Some(mv) = mv {
            self.check_handed_out(pos, ctx, mv);
        }
        mv
    }

    /// What a move handed out must be: legal, new, and of its stage's kind.
    #[cfg(debug_assertions)]
    fn check_handed_out(&mut self, pos: &Position, ctx: &OrderContext, mv: Move) {
        let board = pos.board();
        debug_assert!(board.is_legal(mv), "picker gave illegal {mv} in {board}");
        debug_assert!(
            !self.handed_out.contains(&mv),
            "picker gave {mv} twice in {board}"
        );
        self.handed_out.push(mv);
        // The stage the move came from, as `pick` leaves it.
        let noisy_stage = match self.stage {
            Stage::GoodNoisy | Stage::BadNoisy => Some(true),
            Stage::Killer2 | Stage::Countermove | Stage::ScoreQuiets | Stage::Quiets => Some(false),
            _ => None, // the hash move
        };
        debug_assert!(
            noisy_stage.is_none_or(|noisy| noisy == pos.is_tactical(mv)),
            "picker gave {mv} in stage {:?} in {board}",
            self.stage
        );
        // Quiescence (not in check) searches captures, queen promotions and,
        // at its first ply, quiet checks: nothing else.
        if self.noisy_only && !pos.in_check() {
            let check = ctx
                .checks
                .gives_check_by(board, mv, moving_piece(board, mv));
            debug_assert!(
                pos.is_tactical(mv) || (self.quiet_checks && check),
                "quiescence picker gave quiet {mv} in {board}"
            );
        }
    }

    fn pick(&mut self, pos: &Position, ctx: &OrderContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.checked_tt_move(pos) {
                        return Some(mv);
                    }
                }
                Stage::Generate => {
                    self.generate(pos, ctx);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pop_best(self.noisy_end) {
                    Some(mv) if see_ge(pos.board(), mv, 0) => return Some(mv),
                    Some(mv) => {
                        self.list[self.bad_end].0 = mv;
                        self.bad_end += 1;
                    }
                    None => {
                        self.cursor = self.noisy_end;
                        self.stage = Stage::Killer1;
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Countermove => {
                    let i = self.stage as usize - Stage::Killer1 as usize;
                    self.stage = next_stage(self.stage);
                    if let Some(mv) = self.refutation(i) {
                        return Some(mv);
                    }
                }
                Stage::ScoreQuiets => {
                    self.score_quiets(pos, ctx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets || (self.noisy_only && !self.quiet_checks) {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    let checks_only = self.noisy_only;
                    match self.pop_best(self.len) {
                        Some(mv) if self.already_tried(mv) => {}
                        Some(_) if checks_only && self.list[self.cursor - 1].1 < check_bonus() => {
                            self.stage = Stage::BadNoisy; // sorted: no checks left
                        }
                        Some(mv) => return Some(mv),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_cursor < self.bad_end {
                        self.bad_cursor += 1;
                        return Some(self.list[self.bad_cursor - 1].0);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Takes the best remaining move of `cursor..end` (a selection-sort step).
    fn pop_best(&mut self, end: usize) -> Option<Move> {
        if self.cursor >= end {
            return None;
        }
        let best = best_index(&self.list, self.cursor, end);
        self.list.swap(self.cursor, best);
        self.cursor += 1;
        Some(self.list[self.cursor - 1].0)
    }

    /// The hash move if it is legal here and of a kind this picker hands
    /// out. Out of line: `next` runs once per move, and what this stage
    /// needs would otherwise be set up on every entry.
    #[inline(never)]
    fn checked_tt_move(&mut self, pos: &Position) -> Option<Move> {
        let wanted = |m: Move| !self.noisy_only || pos.in_check() || pos.is_tactical(m);
        self.tt_move = self
            .tt_move
            .filter(|&m| pos.board().is_legal(m) && wanted(m));
        // A hash move may come from another position (a key collision):
        // what `is_legal` lets through must be a move the generator makes.
        debug_assert!(
            self.tt_move
                .is_none_or(|m| legal_moves(pos.board()).contains(&m)),
            "hash move {:?} passed is_legal but is not legal in {}",
            self.tt_move,
            pos.board()
        );
        self.tt_move
    }

    fn refutation(&mut self, i: usize) -> Option<Move> {
        if self.noisy_only || self.skip_quiets {
            return None;
        }
        let mv = self.refutations[i]?;
        let fresh = Some(mv) != self.tt_move && !self.emitted.contains(&Some(mv));
        if fresh
            && self.list[self.noisy_end..self.len]
                .iter()
                .any(|&(m, _)| m == mv)
        {
            self.emitted[i] = Some(mv);
            return Some(mv);
        }
        None
    }

    fn already_tried(&self, mv: Move) -> bool {
        self.emitted.contains(&Some(mv))
    }

    #[inline(never)]
    fn score_quiets(&mut self, pos: &Position, ctx: &OrderContext) {
        if self.quiet_checks || self.noisy_end == self.len {
            return; // the checks were scored as generated, or no quiets
        }
        let board = pos.board();
        let stm = board.side_to_move();
        let checks_only = !ctx.config.history;
        let bonus = check_bonus();
        // The continuation rows of the moves 1 and 2 plies back, found once,
        // as whole rows (indexing by a `PieceTo` needs no bounds test) and
        // all zeros when there is no such move.
        let rows = [
            whole_row(ctx.hist.continuation_row(1, ctx.prevs[0])),
            whole_row(ctx.hist.continuation_row(2, ctx.prevs[1])),
        ];
        let pawn_row = ctx.hist.pawn_row(board).map(|r| whole_row(Some(r)));
        let pawn_pct = pawn_history_pct();
        for entry in &mut self.list[self.noisy_end..self.len] {
            let mv = entry.0;
            let piece = marked_piece(entry.1);
            debug_assert_eq!(piece, moving_piece(board, mv), "mark of {mv} in {board}");
            let check = if ctx.checks.quiet_gives_check(board, mv, piece) {
                bonus
            } else {
                0
            };
            if checks_only {
                entry.1 = check;
                continue;
            }
            let pt = piece_to(stm, piece, mv.to);
            let pawn = pawn_row.map_or(0, |r| r[pt] as i32 * pawn_pct / 100);
            entry.1 = ctx.hist.butterfly(stm, mv, ctx.threats)
                + rows[0][pt] as i32
                + rows[1][pt] as i32
                + pawn
                + check;
        }
    }
}

/// A history row of every `PieceTo`, all zeros for `None` (no such move:
/// it adds nothing, as a missing row does).
fn whole_row(row: Option<&[i16]>) -> &[i16; PIECE_TO] {
    static ZEROS: [i16; PIECE_TO] = [0; PIECE_TO];
    row.map_or(&ZEROS, |r| r.try_into().expect("a row of every PieceTo"))
}

fn next_stage(s: Stage) -> Stage {
    match s {
        Stage::Killer1 => Stage::Killer2,
        Stage::Killer2 => Stage::Countermove,
        _ => Stage::ScoreQuiets,
    }
}

#[cfg(test)]
#[path = "movepick_tests.rs"]
mod tests;
