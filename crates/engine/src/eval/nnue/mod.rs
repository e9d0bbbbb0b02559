//! The network evaluation (NNUE): a perspective network
//! `(768 -> H) x 2 -> 1` with SCReLU, in integers, with optional output
//! buckets (several output layers, one chosen by the number of pieces) and
//! an input feature set ([`features::FeatureSet`]: plain, mirrored on the
//! king's half of the board, or mirrored with king buckets of 768 inputs
//! each).
//!
//! Each side has an accumulator: the first layer's output for the position
//! seen from that side (its own pieces first, its own back rank at the
//! bottom). A move changes at most four of the 32 active inputs, so the
//! accumulators are updated by adding and subtracting weight rows rather than
//! recomputed ([`accumulator`]). The output layer squares the clipped
//! accumulators (SCReLU) and takes a dot product with the output weights,
//! side to move's half first ([`simd`]).
//!
//! The shape (hidden size, output buckets, feature set) is read from the
//! network file, so any network the trainer writes loads at run time. The
//! hot loops are compiled once per hidden size of [`SUPPORTED_HIDDEN`]
//! (const generics), and the size is chosen once, when the accumulator
//! stack is made for a network.
//!
//! Quantisation: first-layer weights and biases are scaled by `QA`, output
//! weights by `QB`; the output is `SCALE` centipawns per unit.

pub mod accumulator;
mod cache;
pub mod features;
pub mod file;
pub mod simd;

use std::sync::{Arc, OnceLock};

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::FeatureSet;

/// Inputs per perspective and king bucket: colour (own, other) x piece x
/// square.
pub const INPUTS: usize = 768;
/// The trainer's default hidden size (a recipe names its own: the embedded
/// network has 384).
pub const DEFAULT_HIDDEN: usize = 256;
/// Hidden sizes the engine evaluates: the hot loops are compiled for each
/// ([`with_hidden`]), so the list holds the sizes of the recipes in `nets/`
/// and of the tests, no more. A file of another size is read by the trainer
/// ([`file::parse_sized`]) but refused by the engine.
pub const SUPPORTED_HIDDEN: &[usize] = &[32, 64, 128, 256, 384, 512];
/// Quantisation of the first layer (weights, biases, accumulator).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// Most output buckets: one per piece count (2..=32 pieces).
pub const MAX_OUTPUT_BUCKETS: usize = 31;

/// True if the engine evaluates networks of `hidden` neurons.
pub fn is_supported_hidden(hidden: usize) -> bool {
    SUPPORTED_HIDDEN.contains(&hidden)
}

/// Runs `$body` with `$h` a `const usize` equal to `$hidden`, one of
/// [`SUPPORTED_HIDDEN`] (any other size panics): the one place a run-time
/// hidden size becomes a compile-time one.
macro_rules! with_hidden {
    ($hidden:expr, $h:ident => $body:expr) => {
        match $hidden {
            32 => {
                const $h: usize = 32;
                $body
            }
            64 => {
                const $h: usize = 64;
                $body
            }
            128 => {
                const $h: usize = 128;
                $body
            }
            256 => {
                const $h: usize = 256;
                $body
            }
            384 => {
                const $h: usize = 384;
                $body
            }
            512 => {
                const $h: usize = 512;
                $body
            }
            other => panic!("no kernels for {other} hidden neurons"),
        }
    };
}
pub(crate) use with_hidden;

/// The output bucket of a position with `pieces` pieces (kings included) in
/// a network of `buckets` buckets: the 31 piece counts split into equal
/// ranges, so 8 buckets give 2-5 pieces -> 0, ..., 30-32 -> 7, and one
/// bucket is always 0. The engine and the trainer both use this.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.clamp(2, 32) as usize - 2) * buckets / 31
}

/// The quantised weights and the inputs they read. The hidden size is the
/// length of `feature_bias`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// How pieces map to inputs.
    pub features: FeatureSet,
    /// `features.inputs()` rows of `hidden` weights: row `i` is added when
    /// input `i` is on.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// Per output bucket: side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One per output bucket.
    pub output_bias: Vec<i16>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.shape())
    }
}

impl Network {
    /// The weight row of input `feature`, for a network of `H` neurons.
    #[inline(always)]
    pub fn row<const H: usize>(&self, feature: usize) -> &[i16; H] {
        let row = &self.feature_weights[feature * H..(feature + 1) * H];
        row.try_into().expect("a row of H weights")
    }

    /// Every weight row, for a network of `H` neurons: indexing it checks
    /// one bound, where [`Network::row`] checks a range.
    #[inline(always)]
    pub fn rows<const H: usize>(&self) -> &[[i16; H]] {
        self.feature_weights.as_chunks::<H>().0
    }

    /// The first layer's biases, for a network of `H` neurons.
    #[inline(always)]
    pub fn bias<const H: usize>(&self) -> &[i16; H] {
        self.feature_bias[..].try_into().expect("H biases")
    }

    /// Number of hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.feature_bias.len()
    }

    /// Number of output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The shape in words: `768 -> 256 x 2 -> 1, plain inputs, 1 output bucket`.
    pub fn shape(&self) -> String {
        let buckets = self.buckets();
        format!(
            "{} -> {} x 2 -> 1, {} inputs, {buckets} output bucket{}",
            self.features.inputs(),
            self.hidden(),
            self.features,
            if buckets == 1 { "" } else { "s" }
        )
    }

    /// The score in centipawns for the side to move, given both accumulators
    /// and the number of pieces on the board (which picks the output bucket).
    #[inline(always)]
    pub fn output<const H: usize>(&self, us: &[i16; H], them: &[i16; H], pieces: u32) -> i32 {
        // One bucket (the embedded network) needs no piece count.
        let bucket = match self.buckets() {
            1 => 0,
            n => output_bucket(pieces, n),
        };
        let weights = self.output_weights.as_chunks::<H>().0;
        let (w_us, w_them) = (&weights[2 * bucket], &weights[2 * bucket + 1]);
        let sum = simd::screlu_dot2::<H>(us, w_us, them, w_them);
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
        Arc::new(file::parse(DEFAULT_BYTES).unwrap_or_else(|e| {
            panic!("the embedded network (default.nnue, tested, or make's EVALFILE): {e}")
        }))
    })
    .clone()
}

/// Evaluates a board from scratch (no incremental update): for the `eval`
/// command and tests.
pub fn evaluate_board(net: &Network, board: &crate::board::Board) -> i32 {
    Accumulator::refresh(net, board).evaluate(net, board)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every supported size has kernels, and no other.
    #[test]
    fn every_supported_size_has_kernels() {
        for &h in SUPPORTED_HIDDEN {
            assert_eq!(with_hidden!(h, H => H), h);
            assert!(
                h.is_multiple_of(simd::CHUNK),
                "the loops take 32 values at a time"
            );
        }
        assert!(std::panic::catch_unwind(|| with_hidden!(96, H => H)).is_err());
    }

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
