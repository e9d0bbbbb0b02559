//! The search: iterative deepening with aspiration windows (`driver`) over a
//! principal variation alpha-beta search (`alphabeta`, `quiescence`), with a
//! shared transposition table (`crate::tt`), a staged move picker (`movepick`),
//! history heuristics (`history`, `correction`), pruning and reductions
//! (`pruning`, `lmr`), extensions (`extensions`), time management (`time`)
//! and Lazy SMP threads (`driver`, `thread`) on a persistent thread pool
//! (`pool`). The driver reports through `report`, which shows what
//! `outcome` knows for certain about the root (a draw by rule, tablebase
//! results). Helpers share the named per-node state of `node`; every
//! search number is in `params` (declared through `tunable`, so that a
//! `spsa` build can set them as UCI options). Every technique can be switched off through
//! `config::SearchConfig`.
//!
//! What a search is asked and answers is in `job`, what its threads share
//! in `shared`. This file only names the modules: no file of the search
//! imports from it.

pub mod config;
pub(crate) mod correction;
pub(crate) mod driver;
#[doc(hidden)]
pub mod history;
pub mod info;
pub mod job;
pub mod limits;
pub(crate) mod lmr;
#[doc(hidden)]
pub mod movepick;
pub(crate) mod node;
pub(crate) mod outcome;
pub mod params;
pub(crate) mod piece_to;
pub mod pool;
pub(crate) mod pv;
pub(crate) mod report;
pub mod score;
pub mod shared;
pub mod strength;
pub(crate) mod thread;
pub(crate) mod time;
pub mod tunable;

pub use job::{SearchJob, SearchResult, Settings};
pub use pool::{Team, ThreadPool};
pub use report::pv_to_uci;
pub use shared::{DEFAULT_HASH_MB, Shared};
pub use thread::ThreadData;
pub use time::Budget;
