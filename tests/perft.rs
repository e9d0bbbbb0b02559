//! Move generation checked by perft against the suites in `tests/data/perft`.
//!
//! Each listed depth is checked whose expected count is at most a node cap, so
//! the whole file runs in a few seconds in release mode; the full-depth run is
//! `tools/perft_acceptance.sh`.

use cutoff_engine::board::Position;
use cutoff_engine::board::perft_suite::{Outcome, PerftCase, check, parse_suite};

/// Largest expected leaf count checked per (position, depth).
const NODE_CAP: u64 = 2_000_000;

fn load(file: &str) -> Vec<PerftCase> {
    let path = format!("{}/tests/data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The deepest listed depth within the cap, else the shallowest listed one if
/// it is not far over the cap (some lines list only D6 or more), else `None`.
fn depth_within_cap(case: &PerftCase, cap: u64) -> Option<u32> {
    let within = case.depths.iter().filter(|&&(_, n)| n <= cap).map(|d| d.0);
    within.max().or_else(|| {
        let &(depth, nodes) = case.depths.iter().min()?;
        (nodes <= 10 * cap).then_some(depth)
    })
}

struct Run {
    positions: usize,
    /// Lines whose every listed count is far over the cap.
    skipped: usize,
    checks: usize,
    refused: Vec<String>,
}

/// Checks every case of a file and fails with the list of every mismatch.
fn run(file: &str, chess960: bool, cap: u64) -> Run {
    let mut out = Run {
        positions: 0,
        skipped: 0,
        checks: 0,
        refused: Vec::new(),
    };
    let mut failures = Vec::new();
    for case in load(file) {
        out.positions += 1;
        let Some(depth) = depth_within_cap(&case, cap) else {
            out.skipped += 1;
            continue;
        };
        match check(&case, Some(depth), chess960) {
            Outcome::Pass { checked, .. } => out.checks += checked,
            Outcome::Mismatch {
                depth,
                expected,
                got,
            } => failures.push(format!(
                "{file} {}: D{depth} expected {expected} got {got}",
                case.name()
            )),
            Outcome::Refused(e) => out.refused.push(format!("{}: {e}", case.name())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    out
}

#[test]
fn six_standard_positions() {
    let r = run("standard6.epd", false, 5_000_000);
    assert_eq!(r.positions, 7);
    assert!(r.refused.is_empty(), "{:?}", r.refused);
    // Every position is checked at depth 4 at least (the cap allows it).
    assert!(r.checks >= 7 * 4, "only {} depth checks", r.checks);
}

#[test]
fn standard_chess_suites() {
    let mut positions = 0;
    for file in [
        "standard.epd",
        "special_cases.epd",
        "random_sample.epd",
        "ferdy_sample.epd",
    ] {
        let r = run(file, false, NODE_CAP);
        assert!(r.refused.is_empty(), "{file}: {:?}", r.refused);
        assert!(r.skipped <= 3, "{file}: {} lines skipped", r.skipped);
        positions += r.positions - r.skipped;
    }
    assert!(positions >= 300, "{positions} positions");
}

#[test]
fn chess960_suites_in_both_castling_notations() {
    for file in [
        "chess960_shredder.epd",
        "chess960_xfen.epd",
        "chess960_tricky.epd",
    ] {
        let r = run(file, true, NODE_CAP);
        assert!(r.refused.is_empty(), "{file}: {:?}", r.refused);
        assert!(r.positions >= 6 && r.checks >= 3 * r.positions, "{file}");
    }
}

#[test]
fn shredder_and_xfen_give_the_same_positions() {
    let shredder = load("chess960_shredder.epd");
    let xfen = load("chess960_xfen.epd");
    assert_eq!(shredder.len(), xfen.len());
    for (s, x) in shredder.iter().zip(&xfen) {
        let a = Position::from_fen(&s.fen, true).expect("shredder FEN");
        let b = Position::from_fen(&x.fen, true).expect("X-FEN");
        assert_eq!(a.board(), b.board(), "{} vs {}", s.fen, x.fen);
    }
}

#[test]
fn impossible_positions_are_refused_not_miscounted() {
    let r = run("tricky.epd", false, NODE_CAP);
    assert_eq!(r.positions, 13);
    // The three lines with an en passant square that no legal last move can
    // have produced (see tests/data/perft/README.md); every other line counts.
    assert_eq!(r.refused.len(), 3, "{:#?}", r.refused);
    for (id, refusal) in ["align-ep", "align-ep-pinned", "ep-unrelated-check"]
        .iter()
        .zip(&r.refused)
    {
        assert!(refusal.contains(&format!("({id})")), "{refusal}");
        assert!(refusal.contains("en passant"), "unclear error: {refusal}");
    }
}
