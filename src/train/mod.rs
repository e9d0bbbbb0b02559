//! Training: self-play data generation (`datagen`), the Texel tuner of the
//! hand-crafted weights (`tune`) and the network trainer (`nnue`). This
//! folder uses the search and the evaluation; nothing but `main.rs` uses it.

pub mod cli;
pub mod datagen;
pub mod games;
pub mod nnue;
pub mod tune;
pub mod wdl;
