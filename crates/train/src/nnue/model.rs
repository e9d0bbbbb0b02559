//! The float network the trainer fits: the same `(inputs -> hidden) x 2 ->
//! 1` SCReLU architecture as the engine's, output buckets and input feature
//! sets included, with forward and backward passes.
//!
//! Parameters live in one flat vector, `[w1 | b1 | w2 | b2 | factor]` (`w2`
//! and `b2` bucket by bucket), so the optimiser and the checkpoint treat them
//! alike. With one bucket the layout is the one of the trainer before
//! buckets; without king buckets the factor block is empty.
//!
//! The factoriser: a feature set with king buckets has a row per bucket for
//! every one of the 768 (colour, piece, square) inputs, and each bucket sees
//! only the positions with its own king there. The factor block holds one
//! more row per (colour, piece, square), shared by every bucket: the network
//! reads bucket row + factor row, so what all buckets have in common is
//! learnt from every position. The export writes the sums.

use std::borrow::Cow;

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

/// True if a model of `from` inputs can become one of `to` inputs
/// ([`Model::with_features`]): every position is then evaluated as the old
/// model evaluated it or its mirror image.
pub fn converts(from: FeatureSet, to: FeatureSet) -> bool {
    use FeatureSet::*;
    match (from, to) {
        _ if from == to => true,
        (Plain, _) | (Mirrored, KingBuckets4) => true,
        (Mirrored | KingBuckets4, _) => false,
    }
}

impl Model {
    /// Small random weights (uniform, scaled by fan-in), zero biases, plain
    /// inputs ([`Model::with_features`] sets others).
    pub fn random(hidden: usize, buckets: usize, rng: &mut super::data::Rng) -> Self {
        let mut m = Self {
            hidden,
            buckets,
            features: FeatureSet::Plain,
            params: vec![0.0; Self::len(hidden, buckets, FeatureSet::Plain)],
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

    /// The same weights read as inputs of `features` ([`converts`]). From
    /// plain inputs to mirrored, every position whose king is on files a-d
    /// is evaluated as before, and the others as their mirror image was
    /// (which training with mirroring taught to be alike): a starting point
    /// for fine-tuning. To king buckets, the 768 rows become the factor block
    /// and every bucket row starts at zero, so all buckets evaluate as the
    /// mirrored model did (a random plain model so starts a king-bucketed
    /// run).
    pub fn with_features(mut self, features: FeatureSet) -> Self {
        assert!(
            converts(self.features, features),
            "{} inputs cannot become {features}",
            self.features
        );
        if features != self.features && features.king_buckets() > 1 {
            let rows = self.params[self.w1_range()].to_vec();
            let mut params = vec![0.0; features.inputs() * self.hidden];
            params.extend_from_slice(&self.params[self.w1_range().end..]);
            params.extend(rows);
            self.params = params;
        }
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
        m.params
            .extend_from_slice(&self.params[self.factor_range()]);
        m
    }

    /// The same network with `hidden` neurons (at least as many as now):
    /// the new ones get small random input weights (as [`Model::random`]
    /// gives; with a factor block, in the factor rows), zero bias and zero
    /// output weights, so every evaluation is unchanged and training brings
    /// them in.
    pub fn widen(&self, hidden: usize, rng: &mut super::data::Rng) -> Self {
        assert!(hidden >= self.hidden, "a network is only widened");
        let (old, extra) = (self.hidden, hidden - self.hidden);
        let s1 = 1.0 / (INPUTS as f32).sqrt();
        let factored = self.has_factor();
        let mut params = Vec::with_capacity(Self::len(hidden, self.buckets, self.features));
        for row in self.params[self.w1_range()].chunks_exact(old) {
            params.extend_from_slice(row);
            params.extend((0..extra).map(|_| if factored { 0.0 } else { s1 * rng.symmetric() }));
        }
        params.extend_from_slice(&self.params[self.b1_range()]);
        params.extend(std::iter::repeat_n(0.0, extra));
        for side in self.params[self.w2_range()].chunks_exact(old) {
            params.extend_from_slice(side);
            params.extend(std::iter::repeat_n(0.0, extra));
        }
        params.extend_from_slice(&self.params[self.b2_range()]);
        for row in self.params[self.factor_range()].chunks_exact(old) {
            params.extend_from_slice(row);
            params.extend((0..extra).map(|_| s1 * rng.symmetric()));
        }
        Self {
            hidden,
            buckets: self.buckets,
            features: self.features,
            params,
        }
    }

    /// Number of parameters.
    pub fn len(hidden: usize, buckets: usize, features: FeatureSet) -> usize {
        let factor = if features.king_buckets() > 1 {
            INPUTS * hidden
        } else {
            0
        };
        features.inputs() * hidden + hidden + buckets * (2 * hidden + 1) + factor
    }

    /// True if the model has a factor block (its feature set has king buckets).
    pub fn has_factor(&self) -> bool {
        self.features.king_buckets() > 1
    }

    /// Input weights: `features.inputs()` rows of `hidden`.
    pub fn w1_range(&self) -> std::ops::Range<usize> {
        0..self.features.inputs() * self.hidden
    }
    pub fn b1_range(&self) -> std::ops::Range<usize> {
        let s = self.w1_range().end;
        s..s + self.hidden
    }
    /// Output weights of every bucket.
    pub fn w2_range(&self) -> std::ops::Range<usize> {
        let s = self.b1_range().end;
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
    /// The factor block: 768 rows of `hidden`, row `i` shared by input `i`
    /// of every king bucket (empty without king buckets).
    pub fn factor_range(&self) -> std::ops::Range<usize> {
        let s = self.b2_range().end;
        s..s + if self.has_factor() {
            INPUTS * self.hidden
        } else {
            0
        }
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

    /// The input rows the network reads, `features.inputs()` of `hidden`:
    /// `w1` itself, or with a factor block each bucket row plus its factor
    /// row, clipped to `CLIP` as the export writes them.
    pub fn rows(&self) -> Cow<'_, [f32]> {
        let w1 = &self.params[self.w1_range()];
        if !self.has_factor() {
            return Cow::Borrowed(w1);
        }
        let factor = &self.params[self.factor_range()];
        let merged = w1.chunks_exact(factor.len()).flat_map(|bucket| {
            bucket
                .iter()
                .zip(factor)
                .map(|(w, f)| (w + f).clamp(-CLIP, CLIP))
        });
        Cow::Owned(merged.collect())
    }

    /// The model ready to evaluate, its input rows summed once ([`Model::rows`]).
    pub fn prepare(&self) -> Prepared<'_> {
        Prepared {
            model: self,
            rows: self.rows(),
        }
    }

    /// The evaluation in centipawns for the side to move (float, unquantised).
    pub fn evaluate(&self, s: &Sample) -> f32 {
        self.prepare().evaluate(s)
    }

    /// Completes a gradient summed by [`Prepared::loss`]: each factor row's
    /// gradient is the sum of its bucket rows' (the clip of the sum passes
    /// gradients through, as the clip after each step does). Nothing to do
    /// without a factor block.
    pub fn gather_factor(&self, grad: &mut [f32]) {
        let factor = self.factor_range();
        if factor.is_empty() {
            return;
        }
        let (head, tail) = grad.split_at_mut(factor.start);
        let tail = &mut tail[..factor.len()];
        for bucket in head[self.w1_range()].chunks_exact(factor.len()) {
            tail.iter_mut().zip(bucket).for_each(|(f, g)| *f += g);
        }
    }
}

/// Neurons `Prepared::accumulate` sums at once (four AVX2 registers; 32
/// measured faster than 64 and 128).
const BLOCK: usize = 32;

/// A model and the input rows it reads ([`Model::rows`]), for a batch:
/// with a factor block the sums are made once, not for every sample.
pub struct Prepared<'a> {
    model: &'a Model,
    rows: Cow<'a, [f32]>,
}

impl Prepared<'_> {
    /// First layer of one perspective, `BLOCK` neurons at a time: a block
    /// stays in registers while every feature's row is added to it. Each
    /// neuron is summed in feature order whatever the blocking, so a
    /// recipe's network keeps its bytes.
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.model.hidden;
        let bias = &self.model.params[self.model.b1_range()];
        let mut start = 0;
        while start + BLOCK <= h {
            let mut block: [f32; BLOCK] = bias[start..start + BLOCK].try_into().unwrap();
            for &f in features {
                let row = &self.rows[f as usize * h + start..][..BLOCK];
                block.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            acc[start..start + BLOCK].copy_from_slice(&block);
            start += BLOCK;
        }
        acc[start..].copy_from_slice(&bias[start..]);
        for &f in features {
            let row = &self.rows[f as usize * h + start..(f as usize + 1) * h];
            acc[start..].iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// Network output (before `SCALE`) and both accumulators. Each side's
    /// products are summed in neuron order from -0.0 (as `sum` does), the
    /// two sums side by side in one loop so that neither waits on the other.
    fn forward(&self, s: &Sample, accs: &mut [Vec<f32>; 2]) -> f32 {
        let m = self.model;
        let bucket = m.bucket(s);
        for (side, acc) in accs.iter_mut().enumerate() {
            self.accumulate(&s.features[side][..s.count], acc);
        }
        let (ours, theirs) = m.params[m.w2_bucket(bucket)].split_at(m.hidden);
        let (mut us, mut them) = (-0.0f32, -0.0f32);
        let neurons = accs[0].iter().zip(&accs[1]).zip(ours).zip(theirs);
        for (((&a, &b), &wa), &wb) in neurons {
            let (ca, cb) = (a.clamp(0.0, 1.0), b.clamp(0.0, 1.0));
            us += ca * ca * wa;
            them += cb * cb * wb;
        }
        m.params[m.b2_index(bucket)] + us + them
    }

    /// The evaluation in centipawns for the side to move (float, unquantised).
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let h = self.model.hidden;
        let mut accs = [vec![0.0; h], vec![0.0; h]];
        self.forward(s, &mut accs) * SCALE as f32
    }

    /// Squared error of one sample against `lambda * result + (1 - lambda) *
    /// sigmoid(score)`; with `grad`, its gradient is added there (with a
    /// factor block, into the bucket rows only: [`Model::gather_factor`]
    /// completes the summed gradient).
    pub fn loss(
        &self,
        s: &Sample,
        lambda: f32,
        scratch: &mut Scratch,
        grad: Option<&mut [f32]>,
    ) -> f32 {
        self.weighted_loss(s, lambda, 1.0, scratch, grad)
    }

    /// [`Prepared::loss`] times `weight`, the sample's weight in the batch.
    pub fn weighted_loss(
        &self,
        s: &Sample,
        lambda: f32,
        weight: f32,
        scratch: &mut Scratch,
        grad: Option<&mut [f32]>,
    ) -> f32 {
        let out = self.forward(s, &mut scratch.accs);
        let k = SCALE as f32 / WDL_SCALE;
        let pred = sigmoid(out * k);
        let target = lambda * s.result + (1.0 - lambda) * sigmoid(s.score / WDL_SCALE);
        let err = pred - target;
        if let Some(grad) = grad {
            let g = 2.0 * err * pred * (1.0 - pred) * k * weight;
            self.backward(s, g, scratch, grad);
        }
        err * err * weight
    }

    /// Adds the gradient for d(loss)/d(out) = `g`.
    fn backward(&self, s: &Sample, g: f32, scratch: &mut Scratch, grad: &mut [f32]) {
        let m = self.model;
        let h = m.hidden;
        let bucket = m.bucket(s);
        let (w2r, b1r, b2) = (m.w2_bucket(bucket), m.b1_range(), m.b2_index(bucket));
        grad[b2] += g;
        for side in 0..2 {
            let acc = &scratch.accs[side];
            let dacc = &mut scratch.dacc;
            let w2 = &m.params[w2r.start + side * h..w2r.start + (side + 1) * h];
            let gw2 = &mut grad[w2r.start + side * h..w2r.start + (side + 1) * h];
            let lanes = acc.iter().zip(w2).zip(gw2.iter_mut()).zip(dacc.iter_mut());
            for (((&a, &w), gw), d) in lanes {
                let c = a.clamp(0.0, 1.0);
                *gw += g * c * c;
                *d = if a > 0.0 && a < 1.0 {
                    g * w * 2.0 * a
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
#[path = "model_tests.rs"]
mod tests;
