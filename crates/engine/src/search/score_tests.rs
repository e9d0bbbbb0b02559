//! Tests of `score`.

use super::*;

#[test]
fn mate_scores_are_stored_relative_to_the_node() {
    let s = MATE - 5;
    assert_eq!(score_from_tt(score_to_tt(s, 3), 3), s);
    assert_eq!(score_to_tt(s, 3), s + 3);
    assert_eq!(score_to_tt(-s, 3), -s - 3);
    assert_eq!(score_to_tt(120, 3), 120);
}

#[test]
fn mate_distances_convert_to_moves() {
    assert_eq!(mate_moves(MATE - 1), 1);
    assert_eq!(mate_moves(MATE - 3), 2);
    assert_eq!(mate_moves(-MATE + 2), -1);
    assert_eq!(mate_moves(-MATE), 0);
    assert_eq!(UciScore::from(35), UciScore::Cp(35));
}

#[test]
fn tablebase_wins_rank_below_mates() {
    assert!(tb_win_in(0) < MATE - MAX_PLY as Score);
    assert!(!is_mate(tb_win_in(0)));
    assert!(tb_win_in(MAX_PLY - 1) > TB_WIN_BOUND);
}
