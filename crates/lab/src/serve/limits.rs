//! What the server accepts. Every request beyond these is refused with a 400
//! and a message; `GET /api/limits` returns them for the page.

use std::time::Duration;

use serde::Serialize;

/// The limits as the API reports them.
#[derive(Clone, Debug, Serialize)]
pub struct Limits {
    /// `compare`: depths 1..=this.
    pub compare_depth: u32,
    /// `compare`: runs of each textbook search for its timing, 1..=this.
    pub compare_runs: usize,
    /// `scores`: plies below each root move, 1..=this.
    pub scores_depth: u32,
    /// `ordering`: depths 1..=this, and at most this many bench positions.
    pub ordering_depth: u32,
    pub ordering_positions: usize,
    /// `ablate`: depths 1..=this, and at most this many bench positions.
    pub ablate_depth: u32,
    pub ablate_positions: usize,
    /// Moves one chess game may play in a job (compare: in all; ordering:
    /// per position) before the job stops with an error.
    pub node_budget: u64,
    /// Trees: nodes recorded (pruned stubs included), depths, text size.
    pub tree_nodes: usize,
    pub chess_tree_depth: u32,
    pub tictactoe_tree_depth: u32,
    pub tree_text_bytes: usize,
    /// Moves played in one position request.
    pub position_moves: usize,
    /// Jobs running at once (more: 503, try again later).
    pub running_jobs: usize,
    /// A job not polled for this long is cancelled.
    pub poll_timeout_s: u64,
    /// Largest request body.
    pub body_bytes: usize,
}

pub const LIMITS: Limits = Limits {
    compare_depth: 6,
    compare_runs: 9,
    scores_depth: 5,
    ordering_depth: 5,
    ordering_positions: 12,
    ablate_depth: 10,
    ablate_positions: 12,
    node_budget: 1_000_000_000,
    tree_nodes: 20_000,
    chess_tree_depth: 4,
    tictactoe_tree_depth: 9,
    tree_text_bytes: 20_000,
    position_moves: 600,
    running_jobs: 4,
    poll_timeout_s: 10,
    body_bytes: 65_536,
};

/// How long a finished job's results stay after the last poll.
pub const KEEP_FINISHED: Duration = Duration::from_secs(120);

/// `value` when it is in 1..=max (negative values too get this message,
/// never a parser's), or a message naming the field and the limit.
pub fn check_range(name: &str, value: i64, max: u64) -> Result<u64, String> {
    match u64::try_from(value) {
        Ok(v) if (1..=max).contains(&v) => Ok(v),
        _ => Err(format!("{name} must be 1 to {max} (got {value})")),
    }
}
