//! Cutoff's training tools: self-play data generation (`datagen`) and its
//! game records (`games`), the network trainer (`nnue`), the Texel tuner of
//! the hand-crafted weights (`tune`), the win/draw/loss fit (`wdl`), and
//! opening books built from PGN games (`book`). They use the engine crate's
//! search and evaluation; the engine never uses them.

pub mod book;
pub mod cli;
pub mod datagen;
pub mod games;
pub mod nnue;
mod progress;
pub mod tune;
pub mod wdl;
