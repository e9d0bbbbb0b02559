//! The commands that span the crate's modules: `cutoff games` (game files,
//! their formats and rescoring) and `cutoff train` (the network and the
//! win/draw/loss fit). Each tool's own command lives with the tool
//! (`datagen::cli`, `tune::cli`, `book`).

pub mod games;
pub mod train;
