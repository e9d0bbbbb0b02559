//! The network evaluation (NNUE): a perspective network
//! `(768 -> HIDDEN) x 2 -> 1` with SCReLU, in integers.
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

/// The quantised weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN` weights: row `i` is added when input `i` is on.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// Side to move's `HIDDEN` weights, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: i16,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1)")
    }
}

impl Network {
    /// The weight row of input `feature`.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
    }

    /// The score in centipawns for the side to move, given both accumulators.
    pub fn output(&self, us: &[i16], them: &[i16], kernel: Kernel) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(HIDDEN);
        let sum = kernel
            .screlu_dot(us, w_us)
            .wrapping_add(kernel.screlu_dot(them, w_them));
        // sum is in QA * QA * QB units; one QA goes before the bias is added.
        (sum / QA + i32::from(self.output_bias)) * SCALE / (QA * QB)
    }
}

/// The `EvalFile` name of the network built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// The network built into the binary.
static DEFAULT_BYTES: &[u8] = include_bytes!("default.nnue");

/// The embedded network (parsed once).
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(file::parse(DEFAULT_BYTES).expect("the embedded network is valid (tested)"))
    })
    .clone()
}

/// Evaluates a board from scratch (no incremental update): for the `eval`
/// command and tests.
pub fn evaluate_board(net: &Network, board: &crate::board::Board) -> i32 {
    let acc = Accumulator::refresh(net, board, Kernel::best());
    acc.evaluate(net, board.side_to_move(), Kernel::best())
}
