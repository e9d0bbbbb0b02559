//! Cutoff's training tools: self-play data generation and rescoring
//! (`datagen`), the network trainer (`nnue`), the Texel tuner of the
//! hand-crafted weights (`tune`), the win/draw/loss fit (`wdl`), and
//! opening books built from PGN games (`book`). They use the engine crate's
//! search and evaluation; the engine never uses them.
//!
//! Layers, each using only those below it: `games` (the record formats:
//! game files, 32-byte records, training positions, PGN, other trainers'
//! formats) and `progress` at the bottom; `book` and `datagen` on them;
//! `nnue`, `tune` and `wdl` above; `cli` (the commands that span modules)
//! on top. `tests/layers.rs` checks it.

pub mod book;
pub mod cli;
pub mod datagen;
pub mod games;
pub mod nnue;
mod progress;
pub mod tune;
pub mod wdl;
