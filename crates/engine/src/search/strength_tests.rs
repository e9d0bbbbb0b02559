//! Tests of `strength`.

use super::*;

#[test]
fn elo_is_clamped_and_budget_and_spread_are_monotonic() {
    assert_eq!(Strength::new(0).elo(), MIN_ELO);
    assert_eq!(Strength::new(9999).elo(), MAX_ELO);
    let mut last = (0.0, Score::MAX);
    for elo in (MIN_ELO..=MAX_ELO).step_by(10) {
        let s = Strength::new(elo);
        // In one-line nodes: several lines cost more for the same depth.
        let cost = if s.multipv(1) > 1 {
            LINES_NODE_COST
        } else {
            1.0
        };
        let nodes = s.node_budget() as f64 / cost;
        assert!(nodes >= last.0, "nodes fall at {elo}");
        assert!(s.spread() <= last.1, "spread grows at {elo}");
        last = (nodes, s.spread());
    }
    for (elo, nodes) in NODES {
        assert!(Strength::new(elo).node_budget() >= nodes as u64);
    }
    assert_eq!(Strength::new(MAX_ELO - 1).multipv(2), 2);
}

#[test]
fn pick_stays_within_the_spread_and_sometimes_is_not_the_best() {
    let s = Strength::new(MIN_ELO);
    let scores = [50, 30, 20, 50 - s.spread() - 1];
    let picks: Vec<usize> = (0..1000).map(|seed| s.pick(&scores, seed)).collect();
    assert!(picks.iter().all(|&i| i < 3), "a move beyond the spread");
    for i in 0..3 {
        assert!(picks.contains(&i), "line {i} never picked");
    }
    let best = picks.iter().filter(|&&i| i == 0).count();
    assert!(best > 400, "the best only {best} times in 1000");
    assert_eq!(s.pick(&scores, 7), s.pick(&scores, 7));
}

#[test]
fn skill_levels_span_the_elo_range() {
    assert_eq!(skill_elo(0), Some(MIN_ELO));
    assert_eq!(skill_elo(10), Some(2125));
    assert_eq!(skill_elo(MAX_SKILL - 1), Some(MAX_ELO));
    assert_eq!(skill_elo(MAX_SKILL), None);
    let elos: Vec<i32> = (0..MAX_SKILL).filter_map(skill_elo).collect();
    assert!(
        elos.windows(2)
            .all(|w| w[1] - w[0] == 80 || w[1] - w[0] == 81)
    );
}

#[test]
fn strong_levels_play_the_best_line() {
    let s = Strength::new(NOISE_TOP_ELO);
    assert!((0..100).all(|seed| s.pick(&[10, 9, 8], seed) == 0));
}

#[test]
fn a_mate_is_not_given_up_for_noise() {
    let s = Strength::new(MIN_ELO);
    let scores = [super::super::score::MATE - 5, 300, 250];
    assert!((0..200).all(|seed| s.pick(&scores, seed) == 0));
}
