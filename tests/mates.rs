//! The short mate problems of `data/mates.epd` (mate in 1 to 3, verified with
//! Stockfish) are solved with the exact distance within a node budget.

use crate::common;
use cutoff_engine::epd::parse_line;
use cutoff_engine::search::Settings;
use cutoff_engine::search::info::Silent;
use cutoff_engine::time::Limits;

const MATES: &str = include_str!("../data/mates.epd");
const NODE_BUDGET: u64 = 3_000_000;

#[test]
fn short_mates_are_found_with_exact_distance() {
    let mut checked = 0;
    for line in MATES.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_line(line).unwrap();
        let n = case.mate.expect("every line has dm");
        if n > 3 {
            continue;
        }
        let limits = Limits {
            mate: Some(n as u32),
            nodes: Some(NODE_BUDGET),
            ..Limits::default()
        };
        let settings = Settings::default();
        let (r, _) = common::search_on_new_pool(
            &case.position,
            &limits,
            &settings,
            16,
            &mut Silent::default(),
        );
        let best = r.best.expect("a move");
        assert!(
            case.solved_by(best, r.score),
            "{}: score {} after {} nodes",
            case.id,
            r.score,
            r.nodes
        );
        checked += 1;
    }
    assert!(
        checked >= 40,
        "only {checked} short mates in data/mates.epd"
    );
}
