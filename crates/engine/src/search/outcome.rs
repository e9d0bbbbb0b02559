//! What is certain about the root whatever the search finds: a game drawn
//! by rule, or each root move's tablebase result. The search's scores stay
//! its own (they steer aspiration and time); the reports show these.

use super::info::Outcome;
use super::job::Settings;
use super::score::{DRAW, MAX_PLY, Score, is_mate, tb_win_in};
use crate::board::{Move, Position};
use crate::tablebase::{RootEntry, Wdl, root};

/// A root move in the tables: its place among the root moves (higher is
/// better), the score to show for it and its result.
#[derive(Clone, Copy, Debug)]
struct TbMove {
    mv: Move,
    rank: i32,
    score: Score,
    outcome: Outcome,
}

/// The root's certain results.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootOutcome {
    /// Drawn by rule at the root: insufficient material, fifty moves or a
    /// threefold repetition.
    drawn: bool,
    /// The root moves' tablebase results, when the root is in the tables.
    tb: Vec<TbMove>,
}

impl RootOutcome {
    /// Examines the root and returns the moves to search with what is
    /// certain. In the tables, MultiPV 1 searches only the moves that keep
    /// the best result; more lines search all moves, best result first.
    pub fn examine(root: &Position, moves: Vec<Move>, settings: &Settings) -> (Vec<Move>, Self) {
        let drawn =
            root.is_insufficient_material() || root.is_fifty_move_draw() || root.is_repetition(0);
        let entries = settings
            .syzygy
            .as_ref()
            .and_then(|s| Some((root::probe(s, root.board(), &moves)?, s.rule50)));
        let Some((mut entries, rule50)) = entries else {
            return (
                moves,
                Self {
                    drawn,
                    tb: Vec::new(),
                },
            );
        };
        if settings.multipv <= 1 {
            entries = root::select(&entries, rule50);
        }
        let tb: Vec<TbMove> = entries.iter().map(|e| tb_move(e, rule50)).collect();
        (tb.iter().map(|t| t.mv).collect(), Self { drawn, tb })
    }

    /// Root moves with a tablebase result (the root probe's hits).
    pub fn tb_moves(&self) -> usize {
        self.tb.len()
    }

    /// `mv`'s tablebase place (0 without tables): lines keep this order.
    pub fn rank(&self, mv: Move) -> i32 {
        self.find(mv).map_or(0, |t| t.rank)
    }

    /// The score to show for a line starting with `mv` that the search
    /// scored `score`, and its result when certain. A mate the search
    /// proves stands, unless it contradicts the tables.
    pub fn shown(&self, mv: Option<Move>, score: Score) -> (Score, Option<Outcome>) {
        if self.drawn {
            return (DRAW, Some(Outcome::Draw));
        }
        let Some(t) = mv.and_then(|mv| self.find(mv)) else {
            return (score, None);
        };
        let same_side =
            (score > 0 && t.outcome == Outcome::Win) || (score < 0 && t.outcome == Outcome::Loss);
        if is_mate(score) && same_side {
            return (score, Some(t.outcome));
        }
        (t.score, Some(t.outcome))
    }

    fn find(&self, mv: Move) -> Option<&TbMove> {
        self.tb.iter().find(|t| t.mv == mv)
    }
}

/// A root entry's score, as Stockfish shows it: a win or loss at the
/// distance its DTZ gives (kept inside the tablebase range), a draw 0.
fn tb_move(e: &RootEntry, rule50: bool) -> TbMove {
    let plies = (e.dtz.unsigned_abs() as usize).min(MAX_PLY - 1);
    let (score, outcome) = match root::counts_as(e.wdl, rule50) {
        Wdl::Win => (tb_win_in(plies), Outcome::Win),
        Wdl::Loss => (-tb_win_in(plies), Outcome::Loss),
        _ => (DRAW, Outcome::Draw),
    };
    TbMove {
        mv: e.mv,
        rank: root::key(e, rule50),
        score,
        outcome,
    }
}

#[cfg(test)]
#[path = "outcome_tests.rs"]
mod tests;
