//! Cutoff's engine: a UCI chess engine built on alpha-beta search.
//!
//! Data flows one way: `uci` -> `engine` -> `search` -> (`board`, `eval`,
//! `tt`, the transposition table); `book` and `tablebase` are probed by the
//! engine and the search. `rng` is the seeded generator of strength
//! limiting and the book; `memory` and `scheduling` hold the engine's
//! requests to the system. `bench` and `epd` run the search on fixed
//! positions.
//!
//! This crate has no tool dependencies. The training crate
//! (`cutoff-train`) and the laboratory (`cutoff-lab`) use it through its
//! public modules; items public only for them are hidden from the docs.

pub mod bench;
pub mod board;
pub mod book;
pub mod engine;
pub mod epd;
pub mod eval;
mod memory;
pub mod rng;
mod scheduling;
pub mod search;
pub mod tablebase;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod uci;

/// Threads a tool uses by default: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
