//! The weights the engine evaluates with. `cutoff tune` overwrites this file
//! with tuned values; until then it holds the hand-set weights.

use super::params::{NUM_PARAMS, S};

pub static WEIGHTS: [S; NUM_PARAMS] = super::hand::hand_weights();
