//! The network evaluation (NNUE): a perspective network
//! `(768 -> HIDDEN) x 2 -> 1` with SCReLU, in integers, with optional output
//! buckets: several output layers, one chosen by the number of pieces.
//!
//! Each side has an accumulator: the first layer's output for the position
//! seen from that side (its own pieces first, its own back rank at the
//! bottom). A move changes at most four of the 32 active inputs, so the
//! accumulators are updated by adding and subtracting weight rows rather than
//! recomputed ([`accumulator`]). The output layer squares the clipped
//! accumulators (SCReLU) and takes a dot product with the output weights,
//! side to move's half first ([`simd`]).
//!
//! Quantisation: first-layer weights and biases are scaled by `QA`, output
//! weights by `QB`; the output is `SCALE` centipawns per unit.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod simd;

use std::sync::{Arc, OnceLock};

pub use accumulator::{Accumulator, AccumulatorStack};
pub use simd::Kernel;

/// Inputs per perspective: colour (own, other) x piece x square.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// Quantisation of the first layer (weights, biases, accumulator).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// Most output buckets: one per piece count (2..=32 pieces).
pub const MAX_OUTPUT_BUCKETS: usize = 31;

/// The output bucket of a position with `pieces` pieces (kings included) in
/// a network of `buckets` buckets: the 31 piece counts split into equal
/// ranges, so 8 buckets give 2-5 pieces -> 0, ..., 30-32 -> 7, and one
/// bucket is always 0. The engine and the trainer both use this.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.clamp(2, 32) as usize - 2) * buckets / 31
}

/// The quantised weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN` weights: row `i` is added when input `i` is on.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// Per output bucket: side to move's `HIDDEN` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One per output bucket.
    pub output_bias: Vec<i16>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}->{HIDDEN}x2->1, {} output buckets)",
            self.buckets()
        )
    }
}

impl Network {
    /// The weight row of input `feature`.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
    }

    /// Number of hidden neurons per perspective (`HIDDEN` for a network the
    /// engine evaluates).
    pub fn hidden(&self) -> usize {
        self.feature_bias.len()
    }

    /// Number of output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The score in centipawns for the side to move, given both accumulators
    /// and the number of pieces on the board (which picks the output bucket).
    pub fn output(&self, us: &[i16], them: &[i16], pieces: u32, kernel: Kernel) -> i32 {
        let bucket = output_bucket(pieces, self.buckets());
        let weights = &self.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let (w_us, w_them) = weights.split_at(HIDDEN);
        let sum = kernel
            .screlu_dot(us, w_us)
            .wrapping_add(kernel.screlu_dot(them, w_them));
        // sum is in QA * QA * QB units; one QA goes before the bias is added.
        (sum / QA + i32::from(self.output_bias[bucket])) * SCALE / (QA * QB)
    }
}

/// The `EvalFile` name of the network built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// The network built into the binary: `default.nnue`, or the file of
/// `make EVALFILE=...` (see build.rs).
static DEFAULT_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/net.nnue"));

/// The embedded network (parsed once).
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(
            file::parse(DEFAULT_BYTES)
                .expect("the embedded network (default.nnue, tested, or make's EVALFILE) is valid"),
        )
    })
    .clone()
}

/// Evaluates a board from scratch (no incremental update): for the `eval`
/// command and tests.
pub fn evaluate_board(net: &Network, board: &crate::board::Board) -> i32 {
    let acc = Accumulator::refresh(net, board, Kernel::best());
    acc.evaluate(net, board, Kernel::best())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        for pieces in 0..=40 {
            assert_eq!(output_bucket(pieces, 1), 0, "one bucket: always 0");
        }
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let seen: Vec<usize> = (2..=32).map(|p| output_bucket(p, buckets)).collect();
            assert!(seen.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
            assert_eq!((seen[0], seen[30]), (0, buckets - 1), "{buckets} all used");
            let sizes: Vec<usize> = (0..buckets)
                .map(|b| seen.iter().filter(|&&s| s == b).count())
                .collect();
            let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
            assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{sizes:?}");
        }
    }
}
