//! Cutoff: a UCI chess engine built on alpha-beta search, and a laboratory for
//! measuring what each search technique buys.
//!
//! Data flows one way: `uci` -> `engine` -> `search` -> (`board`, `eval`);
//! `train` (datagen, tuner, network trainer) uses search and eval and is used
//! only by the command line. `progress` (the progress bar of the long
//! commands) is a leaf that `book` and `train` share; so is `rng`, the
//! seeded generator of strength limiting, the book and the trainer.
//! `memory` and `scheduling` hold the engine's requests to the system.
//!
//! The `tools` feature (on by default) adds `train`, `lab`, `progress` and
//! `cutoff book build`, and the crates only they use (plotters, indicatif,
//! liblzma, serde, sha2); without it the crate is the engine alone.

pub mod bench;
pub mod board;
pub mod book;
pub mod engine;
pub mod epd;
pub mod eval;
#[cfg(feature = "tools")]
pub mod lab;
mod memory;
#[cfg(feature = "tools")]
mod progress;
pub mod rng;
mod scheduling;
pub mod search;
pub mod tablebase;
#[cfg(feature = "tools")]
pub mod train;
pub mod uci;

/// Threads a tool uses by default: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
