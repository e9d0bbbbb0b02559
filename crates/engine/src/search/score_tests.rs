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

#[test]
fn only_centipawns_are_normalised() {
    use crate::eval::wdl;
    for raw in [-1500, -37, 0, 12, 250, TB_WIN_BOUND - 1] {
        let want = wdl::normalise(raw).clamp(-(TB_WIN_BOUND - 1), TB_WIN_BOUND - 1);
        assert_eq!(UciScore::Cp(raw).normalised(), UciScore::Cp(want), "{raw}");
    }
    // Mates and tablebase results keep their values.
    for s in [MATE - 3, -(MATE - 8), tb_win_in(5), -tb_win_in(20)] {
        assert_eq!(UciScore::from(s).normalised(), UciScore::from(s), "{s}");
    }
}
