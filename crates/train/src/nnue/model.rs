//! The float network the trainer fits: the same `(768 -> hidden) x 2 -> 1`
//! SCReLU architecture as the engine's, output buckets and input feature
//! sets included, with forward and backward passes.
//!
//! Parameters live in one flat vector, `[w1 | b1 | w2 | b2]` (`w2` and `b2`
//! bucket by bucket), so the optimiser and the checkpoint treat them alike.
//! With one bucket the layout is the one of the trainer before buckets.

use super::data::Sample;
use cutoff_engine::eval::nnue::{FeatureSet, INPUTS, SCALE, output_bucket};

/// Every weight stays within this bound, so that quantised they fit the
/// engine's integer arithmetic: `QA * 1.98` per input row keeps 32 rows and a
/// bias inside i16, and `QA * QB * 1.98` keeps `v * w` of SCReLU inside i16.
pub const CLIP: f32 = 1.98;

/// Centipawns per unit of the logistic that maps scores to expected results
/// (fitted to the hand-crafted evaluation's scores on the generation-0 data,
/// so the network keeps the scale the search's margins were set for).
pub const WDL_SCALE: f32 = 140.0;

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The parameters of a network with `hidden` neurons per perspective and
/// `buckets` output buckets, over the inputs of `features` (the samples it
/// is given must be decoded with the same feature set).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub hidden: usize,
    pub buckets: usize,
    pub features: FeatureSet,
    pub params: Vec<f32>,
}

impl Model {
    /// Small random weights (uniform, scaled by fan-in), zero biases, plain
    /// inputs ([`Model::with_features`] sets others).
    pub fn random(hidden: usize, buckets: usize, rng: &mut super::data::Rng) -> Self {
        let mut m = Self {
            hidden,
            buckets,
            features: FeatureSet::Plain,
            params: vec![0.0; Self::len(hidden, buckets)],
        };
        let s1 = 1.0 / (INPUTS as f32).sqrt();
        let s2 = 1.0 / (2.0 * hidden as f32).sqrt();
        let (w1, b1, w2) = (m.w1_range(), m.b1_range(), m.w2_range());
        m.params[w1]
            .iter_mut()
            .for_each(|w| *w = s1 * rng.symmetric());
        m.params[b1].iter_mut().for_each(|w| *w = 0.0);
        m.params[w2]
            .iter_mut()
            .for_each(|w| *w = s2 * rng.symmetric());
        m
    }

    /// The same weights read as inputs of `features`. From plain inputs to
    /// mirrored, every position whose king is on files a-d is evaluated as
    /// before, and the others as their mirror image was (which training with
    /// mirroring taught to be alike): a starting point for fine-tuning.
    pub fn with_features(mut self, features: FeatureSet) -> Self {
        assert_eq!(features.inputs(), INPUTS, "the same inputs count");
        self.features = features;
        self
    }

    /// The same network with its single output layer copied into each of
    /// `buckets` buckets: it evaluates every position as before, and training
    /// then lets the buckets part.
    pub fn split_output(&self, buckets: usize) -> Self {
        assert_eq!(self.buckets, 1, "only a one-bucket network is split");
        let mut m = Self {
            hidden: self.hidden,
            buckets,
            features: self.features,
            params: self.params[..self.w2_range().start].to_vec(),
        };
        for _ in 0..buckets {
            m.params.extend_from_slice(&self.params[self.w2_range()]);
        }
        let bias = self.params[self.b2_range()][0];
        m.params.extend(std::iter::repeat_n(bias, buckets));
        m
    }

    /// The same network with `hidden` neurons (at least as many as now):
    /// the new ones get small random input weights (as [`Model::random`]
    /// gives), zero bias and zero output weights, so every evaluation is
    /// unchanged and training brings them in.
    pub fn widen(&self, hidden: usize, rng: &mut super::data::Rng) -> Self {
        assert!(hidden >= self.hidden, "a network is only widened");
        let (old, extra) = (self.hidden, hidden - self.hidden);
        let s1 = 1.0 / (INPUTS as f32).sqrt();
        let mut params = Vec::with_capacity(Self::len(hidden, self.buckets));
        for row in self.params[self.w1_range()].chunks_exact(old) {
            params.extend_from_slice(row);
            params.extend((0..extra).map(|_| s1 * rng.symmetric()));
        }
        params.extend_from_slice(&self.params[self.b1_range()]);
        params.extend(std::iter::repeat_n(0.0, extra));
        for side in self.params[self.w2_range()].chunks_exact(old) {
            params.extend_from_slice(side);
            params.extend(std::iter::repeat_n(0.0, extra));
        }
        params.extend_from_slice(&self.params[self.b2_range()]);
        Self {
            hidden,
            buckets: self.buckets,
            features: self.features,
            params,
        }
    }

    /// Number of parameters.
    pub fn len(hidden: usize, buckets: usize) -> usize {
        INPUTS * hidden + hidden + buckets * (2 * hidden + 1)
    }

    pub fn w1_range(&self) -> std::ops::Range<usize> {
        0..INPUTS * self.hidden
    }
    pub fn b1_range(&self) -> std::ops::Range<usize> {
        let s = INPUTS * self.hidden;
        s..s + self.hidden
    }
    /// Output weights of every bucket.
    pub fn w2_range(&self) -> std::ops::Range<usize> {
        let s = (INPUTS + 1) * self.hidden;
        s..s + self.buckets * 2 * self.hidden
    }
    /// Output weights of one bucket: side to move's, then the other side's.
    pub fn w2_bucket(&self, bucket: usize) -> std::ops::Range<usize> {
        let s = self.w2_range().start + bucket * 2 * self.hidden;
        s..s + 2 * self.hidden
    }
    /// Output biases, one per bucket.
    pub fn b2_range(&self) -> std::ops::Range<usize> {
        let s = self.w2_range().end;
        s..s + self.buckets
    }
    pub fn b2_index(&self, bucket: usize) -> usize {
        self.b2_range().start + bucket
    }
    /// The output bucket of a sample.
    pub fn bucket(&self, s: &Sample) -> usize {
        output_bucket(s.count as u32, self.buckets)
    }

    /// Keeps every parameter within `CLIP`.
    pub fn clip(&mut self) {
        self.params
            .iter_mut()
            .for_each(|w| *w = w.clamp(-CLIP, CLIP));
    }

    /// First layer of one perspective.
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.params[self.b1_range()]);
        for &f in features {
            let row = &self.params[f as usize * h..(f as usize + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// Network output (before `SCALE`) and both accumulators.
    fn forward(&self, s: &Sample, accs: &mut [Vec<f32>; 2]) -> f32 {
        let bucket = self.bucket(s);
        let w2 = &self.params[self.w2_bucket(bucket)];
        let mut out = self.params[self.b2_index(bucket)];
        for (side, acc) in accs.iter_mut().enumerate() {
            self.accumulate(&s.features[side][..s.count], acc);
            let w = &w2[side * self.hidden..(side + 1) * self.hidden];
            out += acc
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let c = a.clamp(0.0, 1.0);
                    c * c * w
                })
                .sum::<f32>();
        }
        out
    }

    /// The evaluation in centipawns for the side to move (float, unquantised).
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let mut accs = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        self.forward(s, &mut accs) * SCALE as f32
    }

    /// Squared error of one sample against `lambda * result + (1 - lambda) *
    /// sigmoid(score)`; with `grad`, its gradient is added there.
    pub fn loss(
        &self,
        s: &Sample,
        lambda: f32,
        scratch: &mut Scratch,
        grad: Option<&mut [f32]>,
    ) -> f32 {
        let out = self.forward(s, &mut scratch.accs);
        let k = SCALE as f32 / WDL_SCALE;
        let pred = sigmoid(out * k);
        let target = lambda * s.result + (1.0 - lambda) * sigmoid(s.score / WDL_SCALE);
        let err = pred - target;
        if let Some(grad) = grad {
            let g = 2.0 * err * pred * (1.0 - pred) * k;
            self.backward(s, g, scratch, grad);
        }
        err * err
    }

    /// Adds the gradient for d(loss)/d(out) = `g`.
    fn backward(&self, s: &Sample, g: f32, scratch: &mut Scratch, grad: &mut [f32]) {
        let h = self.hidden;
        let bucket = self.bucket(s);
        let (w2r, b1r, b2) = (
            self.w2_bucket(bucket),
            self.b1_range(),
            self.b2_index(bucket),
        );
        grad[b2] += g;
        for side in 0..2 {
            let acc = &scratch.accs[side];
            let dacc = &mut scratch.dacc;
            let w2 = &self.params[w2r.start + side * h..w2r.start + (side + 1) * h];
            let gw2 = &mut grad[w2r.start + side * h..w2r.start + (side + 1) * h];
            for j in 0..h {
                let a = acc[j];
                let c = a.clamp(0.0, 1.0);
                gw2[j] += g * c * c;
                dacc[j] = if a > 0.0 && a < 1.0 {
                    g * w2[j] * 2.0 * a
                } else {
                    0.0
                };
            }
            grad[b1r.clone()]
                .iter_mut()
                .zip(dacc.iter())
                .for_each(|(b, d)| *b += d);
            for &f in &s.features[side][..s.count] {
                let row = &mut grad[f as usize * h..(f as usize + 1) * h];
                row.iter_mut().zip(dacc.iter()).for_each(|(r, d)| *r += d);
            }
        }
    }
}

/// Per-thread buffers of the forward and backward passes.
pub struct Scratch {
    accs: [Vec<f32>; 2],
    dacc: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Self {
        Self {
            accs: [vec![0.0; hidden], vec![0.0; hidden]],
            dacc: vec![0.0; hidden],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::{Rng, decode};
    use super::*;
    use crate::datagen::format::encode;
    use cutoff_engine::board::Board;

    fn samples() -> Vec<Sample> {
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ]
        .iter()
        .zip([35i16, -120, 400])
        .map(|(fen, score)| {
            let board: Board = fen.parse().expect("test FEN");
            decode(&encode(&board, score, 2)).expect("decodes")
        })
        .collect()
    }

    /// The analytic gradient matches finite differences of the loss, with
    /// one output bucket and with three (the samples have 32, 32 and 10
    /// pieces: buckets 2, 2 and 0; bucket 1 gets no gradient).
    #[test]
    fn gradient_matches_finite_differences() {
        gradient_check(1, &[0]);
        gradient_check(3, &[0, 2]);
    }

    /// A one-bucket network split into eight evaluates every sample as
    /// before (the samples fall into different buckets).
    #[test]
    fn split_output_keeps_every_evaluation() {
        let mut one = Model::random(8, 1, &mut Rng(3));
        let b2 = one.b2_range();
        one.params[b2].iter_mut().for_each(|b| *b = 0.25);
        let eight = one.split_output(8);
        assert_eq!(eight.params.len(), Model::len(8, 8));
        let buckets: Vec<usize> = samples().iter().map(|s| eight.bucket(s)).collect();
        assert_ne!(buckets[0], buckets[2]);
        for s in samples() {
            assert_eq!(one.evaluate(&s), eight.evaluate(&s));
        }
    }

    /// A network widened from 8 to 12 neurons evaluates every sample as
    /// before.
    #[test]
    fn widen_keeps_every_evaluation() {
        let narrow = Model::random(8, 3, &mut Rng(4));
        let wide = narrow.widen(12, &mut Rng(5));
        assert_eq!(wide.params.len(), Model::len(12, 3));
        for s in samples() {
            let (a, b) = (narrow.evaluate(&s), wide.evaluate(&s));
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        assert_ne!(wide.params[wide.w1_range()][8..12], [0.0; 4]);
    }

    fn gradient_check(buckets: usize, used: &[usize]) {
        let hidden = 4;
        let mut model = Model::random(hidden, buckets, &mut Rng(7));
        // Biases away from zero so some neurons sit inside (0, 1).
        let b1 = model.b1_range();
        model.params[b1]
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = 0.2 + 0.15 * i as f32);
        let data = samples();
        let mut scratch = Scratch::new(hidden);
        let total = |m: &Model, scratch: &mut Scratch| -> f64 {
            data.iter()
                .map(|s| m.loss(s, 0.5, scratch, None) as f64)
                .sum()
        };
        let mut grad = vec![0.0; model.params.len()];
        for s in &data {
            model.loss(s, 0.5, &mut scratch, Some(&mut grad));
        }
        let w1_of_a2_pawn = 8 * hidden; // input 8: own pawn on a2
        let mut checked = vec![w1_of_a2_pawn, w1_of_a2_pawn + 1, model.b1_range().start + 2];
        for &b in used {
            let w2 = model.w2_bucket(b).start;
            checked.extend([w2 + 1, w2 + hidden + 3, model.b2_index(b)]);
        }
        let eps = 1e-3f32;
        for &i in &checked {
            let mut plus = model.clone();
            plus.params[i] += eps;
            let mut minus = model.clone();
            minus.params[i] -= eps;
            let numeric =
                (total(&plus, &mut scratch) - total(&minus, &mut scratch)) / (2.0 * eps as f64);
            let analytic = grad[i] as f64;
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.02 * analytic.abs(),
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
            assert!(analytic.abs() > 1e-6, "parameter {i} has a gradient");
        }
        for b in (0..buckets).filter(|b| !used.contains(b)) {
            let w2 = model.w2_bucket(b);
            assert!(grad[w2].iter().all(|&g| g == 0.0), "bucket {b} untouched");
            assert_eq!(grad[model.b2_index(b)], 0.0);
        }
    }
}
