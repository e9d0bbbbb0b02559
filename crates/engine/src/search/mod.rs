//! The search. Its nouns:
//!
//! - `SearchJob` (the root, the `go` limits, the engine's `Settings`) is
//!   what a search is asked; `SearchResult` what it answers (`job`).
//! - `ThreadPool` runs every search on threads started once (`pool`);
//!   `Shared` is what they share: the table (`crate::tt`), the signals,
//!   the counters (`shared`).
//! - `Task` is a job prepared at the root, given to every thread
//!   (`driver`); `ThreadData` is all one thread owns (`thread`): the
//!   position, the stack of `Frame`s, the `RootMove`s, the histories.
//! - `driver` is iterative deepening with aspiration windows and the
//!   reports; `node` is one node of the search, negamax and quiescence,
//!   step by step.
//!
//! Beside them: the move picker (`movepick`), the histories (`history`,
//! `correction`), the stop rule (`clock`, over `crate::time`'s plan), what
//! is certain at the root (`outcome`), every number (`params`, declared
//! through `crate::tunable` so that a `spsa` build can set them) and the
//! switches (`config`). This file only names the modules: no file of the
//! search imports from it.

pub(crate) mod clock;
pub mod config;
pub(crate) mod correction;
pub(crate) mod driver;
#[doc(hidden)]
pub mod history;
pub mod info;
pub mod job;
#[doc(hidden)]
pub mod movepick;
pub(crate) mod node;
pub(crate) mod outcome;
pub mod params;
pub mod pool;
pub mod score;
pub mod shared;
pub mod strength;
pub(crate) mod thread;

pub use driver::pv_to_uci;
pub use job::{SearchJob, SearchResult, Settings};
pub use pool::{Team, ThreadPool};
pub use shared::{DEFAULT_HASH_MB, Shared};
pub use thread::ThreadData;
