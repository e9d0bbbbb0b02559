//! Score conventions: centipawns from the side to move, mates as distance from
//! a large constant so that shorter mates score higher.

use crate::eval::wdl;

pub type Score = i32;

/// Deepest ply the search may reach; arrays indexed by ply have this size.
pub const MAX_PLY: usize = 128;
pub const DRAW: Score = 0;
/// Score of delivering mate at the root; mate in `n` plies is `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// A tablebase win `n` plies from the root scores `TB_WIN - n`: below every
/// mate, so that a mate found by the search still ranks above it.
pub const TB_WIN: Score = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins or mates (distances from the root).
pub const TB_WIN_BOUND: Score = TB_WIN - MAX_PLY as Score;
/// Larger than any score: the initial window bound.
pub const INFINITE: Score = 31_000;

/// Marks a missing static evaluation (in check).
pub const NO_EVAL: Score = -INFINITE - 1;

/// Score for the side to move being mated `ply` plies from the root.
pub fn mated_in(ply: usize) -> Score {
    debug_assert!(ply < MAX_PLY, "mate at ply {ply}: not a mate score");
    -MATE + ply as Score
}

/// Score for a tablebase win `ply` plies from the root.
pub fn tb_win_in(ply: usize) -> Score {
    debug_assert!(
        ply < MAX_PLY,
        "tablebase win at ply {ply}: below TB_WIN_BOUND"
    );
    TB_WIN - ply as Score
}

pub fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a mate score to UCI's `mate N`: moves, negative when being mated.
pub fn mate_moves(score: Score) -> i32 {
    debug_assert!(
        is_mate(score) && score.abs() <= MATE,
        "mate_moves of {score}, not a mate score"
    );
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// Mate and tablebase-win scores are stored in the table relative to the
/// node, not the root, so that the same entry is right wherever in the tree
/// the position is found again.
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    let stored = if score >= TB_WIN_BOUND {
        score + ply as Score
    } else if score <= -TB_WIN_BOUND {
        score - ply as Score
    } else {
        score
    };
    // A mate is at least `ply` plies from the root: relative to this node
    // it is still a mate, never beyond one (nor out of the 16 bits).
    debug_assert!(
        stored.abs() <= MATE,
        "score {score} at ply {ply} stores as {stored}, beyond a mate"
    );
    stored
}

/// The table's score `score` as a score `ply` plies from the root.
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= TB_WIN_BOUND {
        score - ply as Score
    } else if score <= -TB_WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// A score ready for output: centipawns or mate in moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    Cp(i32),
    Mate(i32),
}

impl UciScore {
    /// The score as users read it: centipawns in the normalised scale of
    /// the win/draw/loss model (`eval::wdl::normalise`: 100 is an even
    /// chance to win at material 58); mates and tablebase results (beyond
    /// `TB_WIN_BOUND`) as they are. Only what is printed for users is
    /// normalised: the search, datagen, the lab and `bench` keep the raw
    /// scale.
    pub fn normalised(self) -> Self {
        match self {
            UciScore::Cp(cp) if cp.abs() < TB_WIN_BOUND => {
                let bound = TB_WIN_BOUND - 1;
                UciScore::Cp(wdl::normalise(cp).clamp(-bound, bound))
            }
            other => other,
        }
    }
}

impl From<Score> for UciScore {
    fn from(s: Score) -> Self {
        if is_mate(s) {
            UciScore::Mate(mate_moves(s))
        } else {
            UciScore::Cp(s)
        }
    }
}

#[cfg(test)]
#[path = "score_tests.rs"]
mod tests;
