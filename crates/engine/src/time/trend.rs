//! The soft limit's scaling between iterations: how settled the search
//! looks.

use super::params::{
    EFFORT_BASE, EFFORT_MAX, EFFORT_MIN, FALLING_DIVISOR, FALLING_MAX_DROP, STABILITY,
};
use crate::board::Move;

/// A finished iteration, as the time manager sees it.
pub struct Iteration {
    pub best: Move,
    /// The best move's score (centipawns, the search's `Score`).
    pub score: i32,
    /// Nodes under the best move, and in the whole iteration.
    pub best_nodes: u64,
    pub nodes: u64,
}

/// What the time manager remembers from one iteration to the next.
#[derive(Default)]
pub struct Trend {
    best: Option<Move>,
    stable_iterations: usize,
    prev_score: Option<i32>,
}

impl Trend {
    /// The soft limit's factor after `it`: less while the best move stays,
    /// more while the score falls, less when the best move holds most nodes.
    pub fn soft_factor(&mut self, it: &Iteration) -> f64 {
        if self.best == Some(it.best) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
        }
        self.best = Some(it.best);
        let stability = STABILITY[self.stable_iterations.min(STABILITY.len() - 1)];
        let drop = self
            .prev_score
            .map_or(0, |p| (p - it.score).clamp(0, FALLING_MAX_DROP));
        self.prev_score = Some(it.score);
        let falling = 1.0 + drop as f64 / FALLING_DIVISOR;
        let share = it.best_nodes as f64 / it.nodes.max(1) as f64;
        let effort = (EFFORT_BASE - share).clamp(EFFORT_MIN, EFFORT_MAX);
        stability * falling * effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(best: Move, score: i32, best_nodes: u64, nodes: u64) -> Iteration {
        Iteration {
            best,
            score,
            best_nodes,
            nodes,
        }
    }

    #[test]
    fn a_stable_best_move_shrinks_the_soft_limit_and_a_falling_score_grows_it() {
        let a: Move = "e2e4".parse().unwrap();
        let b: Move = "d2d4".parse().unwrap();
        let mut t = Trend::default();
        let first = t.soft_factor(&iteration(a, 0, 50, 100));
        let stable = t.soft_factor(&iteration(a, 0, 50, 100));
        assert!(stable < first, "{stable} {first}");
        let changed = t.soft_factor(&iteration(b, 0, 50, 100));
        assert_eq!(changed, first);
        let falling = t.soft_factor(&iteration(b, -100, 50, 100));
        assert!(falling > stable * 1.4, "{falling}");
    }

    /// Factors computed when these numbers were tunables, to the last bit:
    /// (best move, score, best move's nodes, nodes, factor).
    #[test]
    fn the_factors_are_kept() {
        let mut t = Trend::default();
        for (best, score, best_nodes, nodes, factor) in [
            ("e2e4", 20, 50, 100, 1.7600000000000002),
            ("e2e4", 25, 90, 100, 0.9100000000000001),
            ("e2e4", -60, 10, 100, 2.1945),
            ("d2d4", -200, 70, 100, 2.1600000000000006),
            ("d2d4", -190, 95, 100, 0.8450000000000002),
            ("d2d4", -190, 0, 0, 1.54),
            ("d2d4", 0, 30, 100, 1.3),
            ("d2d4", 0, 30, 100, 1.1700000000000002),
            ("d2d4", 0, 30, 100, 1.04),
            ("d2d4", 0, 30, 100, 1.04),
            ("d2d4", 0, 30, 100, 1.04),
        ] {
            let it = iteration(best.parse().unwrap(), score, best_nodes, nodes);
            assert_eq!(t.soft_factor(&it), factor, "{best} {score}");
        }
    }
}
