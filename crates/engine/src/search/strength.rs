//! Strength limiting (`UCI_LimitStrength` and `UCI_Elo`, or `Skill Level`,
//! which maps onto `UCI_Elo`: `skill_elo`): play like a weaker
//! player, not like a strong one that blunders at random. Two handicaps,
//! both larger at a lower Elo, with all their parameters here:
//!
//! - a node budget per move, so the search sees less far ahead, as a weaker
//!   player does (it misses deeper tactics, not shallow ones); the main
//!   thread searches alone (`pool`), so `Threads` changes nothing;
//! - below `NOISE_TOP_ELO`, a choice among the best `LINES` root lines of
//!   the last completed iteration: each line's score plus a random bonus
//!   drawn uniformly from `[0, spread)` centipawns; the highest sum is
//!   played. So a move is never more than `spread` below the best by the
//!   engine's own search: a second best but sensible move, never a random
//!   one. From `NOISE_TOP_ELO` on, the best line is played.
//!
//! The randomness is seeded from the position (its Zobrist key), so a search
//! is reproducible. Calibration against Stockfish: docs/strength.md.

use super::score::Score;
use crate::rng::SplitMix;

/// The range of `UCI_Elo`.
pub const MIN_ELO: i32 = 1320;
pub const MAX_ELO: i32 = 2850;
/// `Skill Level` runs from 0 to this, full strength (as in Stockfish).
pub const MAX_SKILL: i32 = 20;
/// Root lines searched, at least, to choose among (below `NOISE_TOP_ELO`).
pub const LINES: usize = 4;
/// From this Elo on, one line and no random choice: the extra lines cost
/// more nodes than a strong level can spare at fast time controls.
pub const NOISE_TOP_ELO: i32 = 2200;
/// Nodes `LINES` lines take for the depth one line reaches (4.7 measured at
/// depth 13 after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6; rounded down).
const LINES_NODE_COST: f64 = 4.0;

/// (Elo, nodes per move of a one-line search): the budget is interpolated
/// in log nodes between these anchors, and multiplied by `LINES_NODE_COST`
/// where several lines are searched (fitted against Stockfish 15.1,
/// docs/strength.md).
const NODES: [(i32, f64); 5] = [
    (MIN_ELO, 220.0),
    (1500, 620.0),
    (2000, 8_100.0),
    (2200, 43_400.0),
    (2350, 86_000.0),
];
/// Above the last anchor: nodes double every this many Elo.
const ELO_PER_DOUBLING: f64 = 100.0;
/// (Elo, spread in centipawns), interpolated linearly (used below
/// `NOISE_TOP_ELO`). Wider at the bottom, where fewer nodes no longer made
/// the play weaker (docs/strength.md).
const SPREAD: [(i32, f64); 4] = [(MIN_ELO, 160.0), (1500, 130.0), (2000, 50.0), (2400, 20.0)];

/// A strength limit, set by `UCI_Elo` when `UCI_LimitStrength` is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i32,
}

impl Strength {
    /// The limit for `elo`, clamped to `MIN_ELO..=MAX_ELO`.
    pub fn new(elo: i32) -> Self {
        Self {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    pub fn elo(&self) -> i32 {
        self.elo
    }

    /// True when the move is chosen among several lines (below
    /// `NOISE_TOP_ELO`); otherwise the search's own best move is played.
    pub fn noisy(&self) -> bool {
        self.elo < NOISE_TOP_ELO
    }

    /// Nodes per move. Only the main thread searches under a limit, so the
    /// search is the same whatever the `Threads` option.
    pub fn node_budget(&self) -> u64 {
        let (last_elo, last_nodes) = NODES[NODES.len() - 1];
        let log_nodes = if self.elo > last_elo {
            let doublings = f64::from(self.elo - last_elo) / ELO_PER_DOUBLING;
            last_nodes.ln() + doublings * std::f64::consts::LN_2
        } else {
            let logs = NODES.map(|(e, n)| (e, n.ln()));
            interpolate(&logs, self.elo)
        };
        let cost = if self.noisy() { LINES_NODE_COST } else { 1.0 };
        (log_nodes.exp() * cost).round() as u64
    }

    /// The largest random bonus, in centipawns (0: the best line is played).
    pub fn spread(&self) -> Score {
        if !self.noisy() {
            return 0;
        }
        interpolate(&SPREAD, self.elo).round() as Score
    }

    /// Root lines to search when the user asked for `multipv`.
    pub fn multipv(&self, multipv: usize) -> usize {
        if self.noisy() {
            multipv.max(LINES)
        } else {
            multipv
        }
    }

    /// The index of the line to play among lines scored `scores` (best
    /// first), with the randomness seeded by `seed`.
    pub fn pick(&self, scores: &[Score], seed: u64) -> usize {
        if !self.noisy() {
            return 0;
        }
        let spread = f64::from(self.spread());
        let mut rng = SplitMix(seed);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &score) in scores.iter().enumerate() {
            let value = f64::from(score) + spread * rng.unit();
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

/// The `UCI_Elo` a `Skill Level` plays at: none at `MAX_SKILL` (full
/// strength); below it, linear from `MIN_ELO` at 0 to `MAX_ELO`, the
/// strongest limited level, at `MAX_SKILL - 1` (about 80 Elo a level,
/// rounded to the nearest).
pub fn skill_elo(level: i32) -> Option<i32> {
    let level = level.clamp(0, MAX_SKILL);
    if level == MAX_SKILL {
        return None;
    }
    let (span, steps) = (MAX_ELO - MIN_ELO, MAX_SKILL - 1);
    Some(MIN_ELO + (level * span + steps / 2) / steps)
}

/// Piecewise linear through `points` (sorted by Elo), flat outside them.
fn interpolate(points: &[(i32, f64)], elo: i32) -> f64 {
    let (first, last) = (points[0], points[points.len() - 1]);
    if elo <= first.0 {
        return first.1;
    }
    for pair in points.windows(2) {
        let ((e0, v0), (e1, v1)) = (pair[0], pair[1]);
        if elo <= e1 {
            let t = f64::from(elo - e0) / f64::from(e1 - e0);
            return v0 + t * (v1 - v0);
        }
    }
    last.1
}

#[cfg(test)]
#[path = "strength_tests.rs"]
mod tests;
