//! Where evaluation features go. Every term reports "colour `c` has feature
//! `i` `n` times"; the same term code then either sums weights (the fast
//! [`ScoreSink`]) or records coefficients (the [`TraceSink`] used by the `eval`
//! trace and the tuner), so the score and its linear trace cannot disagree.

use super::params::{NUM_PARAMS, S};
use super::weights::WEIGHTS;
use crate::board::Color;

/// A sink for evaluation features.
pub trait Sink {
    /// Colour `color` has feature `param` `n` times.
    fn add(&mut self, color: Color, param: usize, n: i32);
    /// A (mg, eg) sum, White minus Black, already weighted (the pawn cache).
    fn add_score(&mut self, mg: i32, eg: i32);
}

/// Sums the weighted features: (mg, eg), White minus Black.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoreSink {
    pub mg: i32,
    pub eg: i32,
}

impl Sink for ScoreSink {
    #[inline(always)]
    fn add(&mut self, color: Color, param: usize, n: i32) {
        let S(mg, eg) = WEIGHTS[param];
        let n = if color == Color::White { n } else { -n };
        self.mg += mg * n;
        self.eg += eg * n;
    }

    #[inline(always)]
    fn add_score(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// Records how often each feature occurs, per colour.
#[derive(Clone, Debug)]
pub struct TraceSink {
    /// `coef[i][c]`: count of feature `i` for colour `c`.
    pub coef: Vec<[i32; 2]>,
    /// Weighted (mg, eg) added directly, outside the features.
    pub fixed: S,
}

impl Default for TraceSink {
    fn default() -> Self {
        Self {
            coef: vec![[0; 2]; NUM_PARAMS],
            fixed: S(0, 0),
        }
    }
}

impl TraceSink {
    /// White-minus-Black coefficient of feature `i`.
    pub fn net(&self, i: usize) -> i32 {
        self.coef[i][0] - self.coef[i][1]
    }

    /// (mg, eg) White minus Black under `weights`.
    pub fn score(&self, weights: &[S]) -> S {
        let (mut mg, mut eg) = (self.fixed.0, self.fixed.1);
        for (i, w) in weights.iter().enumerate() {
            let n = self.net(i);
            mg += w.0 * n;
            eg += w.1 * n;
        }
        S(mg, eg)
    }
}

impl Sink for TraceSink {
    fn add(&mut self, color: Color, param: usize, n: i32) {
        self.coef[param][color as usize] += n;
    }

    fn add_score(&mut self, mg: i32, eg: i32) {
        self.fixed.0 += mg;
        self.fixed.1 += eg;
    }
}
