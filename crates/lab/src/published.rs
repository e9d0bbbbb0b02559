//! The published comparison's numbers, as printed (the paper on
//! [`PUBLISHED_FEN`](crate::PUBLISHED_FEN): H. F. Shenelo, "Application of
//! Game Trees and Alpha-Beta Pruning in Optimizing Chess Engines", ITB,
//! 2024), for the web pages that set them beside ours. docs/lab.md says how
//! each one is reproduced.

use crate::chess::MATE_BOUND;
use crate::game::Value;

/// Total nodes visited by depth 1..=5, its Tables 4 and 5: (minimax,
/// alpha-beta). Depth 3's two entries are swapped in print: minimax's tree
/// alone has 2,096 positions, and alpha-beta never visits more.
pub const NODES: [(u32, u64, u64); 5] = [
    (1, 17, 17),
    (2, 144, 130),
    (3, 988, 2_096),
    (4, 23_152, 2_883),
    (5, 353_292, 30_903),
];

/// Running time in seconds by depth 1..=5, its Tables 2 and 3: (minimax,
/// alpha-beta), one run each in Python.
pub const SECONDS: [(u32, f64, f64); 5] = [
    (1, 0.027, 0.017),
    (2, 0.189, 0.189),
    (3, 2.4, 1.2),
    (4, 33.0, 15.4),
    (5, 557.9, 162.5),
];

/// The depth of its Table 1 (each root move searched this deep below it).
pub const SCORES_DEPTH: u32 = 3;

/// Its Table 1: every root move's score; `None` is its `Inf` (a mate).
pub const SCORES: [(&str, Option<Value>); 16] = [
    ("a1a7", Some(-100)),
    ("a1f1", Some(0)),
    ("a1c1", Some(0)),
    ("a1d1", Some(0)),
    ("a1e1", Some(0)),
    ("a1h1", Some(0)),
    ("a1g1", Some(0)),
    ("a1b1", Some(100)),
    ("a1a5", Some(100)),
    ("a1a2", Some(100)),
    ("a1a4", Some(100)),
    ("a1a3", Some(100)),
    ("c8d8", Some(100)),
    ("c8d7", Some(100)),
    ("b6a7", Some(100)),
    ("a1a6", None),
];

/// A compare row's published node count: the number printed for
/// `algorithm` at `depth`, and whether it is printed in the other
/// algorithm's row (the swap) rather than its own.
pub fn nodes(algorithm: &str, depth: u32, ours: u64) -> Option<(u64, bool)> {
    let &(_, minimax, alphabeta) = NODES.iter().find(|r| r.0 == depth)?;
    let (own, other) = match algorithm {
        "minimax" => (minimax, alphabeta),
        "alphabeta" => (alphabeta, minimax),
        _ => return None,
    };
    Some((own, own != ours && other == ours))
}

/// A root move's published score as printed, and whether `ours` agrees
/// with it (the paper's `Inf` is any mate for the side to move).
pub fn score(mv: &str, ours: Value) -> Option<(String, bool)> {
    let &(_, published) = SCORES.iter().find(|s| s.0 == mv)?;
    Some(match published {
        Some(v) => (v.to_string(), v == ours),
        None => ("inf".to_string(), ours >= MATE_BOUND),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_swap_is_recognised_only_at_depth_three() {
        assert_eq!(nodes("minimax", 3, 2_096), Some((988, true)));
        assert_eq!(nodes("alphabeta", 3, 988), Some((2_096, true)));
        assert_eq!(nodes("alphabeta", 3, 341), Some((2_096, false)));
        assert_eq!(nodes("minimax", 4, 23_152), Some((23_152, false)));
        assert_eq!(nodes("engine", 4, 1), None);
        assert_eq!(nodes("minimax", 6, 1), None);
    }

    #[test]
    fn infinity_is_any_mate() {
        assert_eq!(score("a1a6", 1_000_000), Some(("inf".into(), true)));
        assert_eq!(score("a1a6", 999_997), Some(("inf".into(), true)));
        assert_eq!(score("a1a7", -100), Some(("-100".into(), true)));
        assert_eq!(score("a1b1", 0), Some(("100".into(), false)));
        assert_eq!(score("e2e4", 0), None);
    }
}
