//! Time management: how long to think about one move.
//!
//! The Move Overhead and a stall reserve come off the clock first. The
//! *soft* limit is the rest over the moves to go plus a share of the
//! increment (a plan by the increment's size, `params`), at most 60% of
//! the clock; the *hard* limit is four soft limits within the same cap,
//! and with an increment at most the clock above the reserve plus half the
//! increment, so a low clock refills (`plan`). The search checks the hard
//! limit inside the tree and the soft one between iterations, scaled by
//! how settled the search looks (`trend`). Every plan is shortened by the
//! clock lag learned over the game (`lag`); `nodestime` plays the clock in
//! nodes (`nodestime`). `limits` is what `go` asks for.

pub mod lag;
pub mod limits;
pub mod nodestime;
pub mod params;
pub mod plan;
pub mod trend;

pub use lag::ClockLag;
pub use limits::Limits;
pub use nodestime::NodeClock;
pub use plan::Budget;
pub use trend::{Iteration, Trend};
