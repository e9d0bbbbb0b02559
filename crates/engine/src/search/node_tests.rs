//! Tests of `node`.

use super::*;
use crate::search::score::TB_WIN_BOUND;
use crate::search::thread::LmrTable;

#[test]
fn wins_score_between_the_tb_bound_and_mates() {
    let (s, b) = tb_score(Wdl::Win, true, 10);
    assert!(s > TB_WIN_BOUND && s < MATE_BOUND);
    assert_eq!(b, TtBound::Lower);
    assert_eq!(tb_score(Wdl::CursedWin, true, 3), (1, TtBound::Exact));
    assert_eq!(tb_score(Wdl::CursedWin, false, 3).0, tb_win_in(3));
    assert_eq!(
        tb_score(Wdl::Loss, true, 4),
        (-tb_win_in(4), TtBound::Upper)
    );
}

#[test]
fn late_move_pruning_waits_longer_when_improving() {
    assert_eq!(lmp_threshold(4, true), 19);
    assert_eq!(lmp_threshold(4, false), 9);
}

/// The LMR table the engine had before its parameters became tunables.
#[test]
fn the_defaults_give_the_decimal_formula() {
    let t = LmrTable::default();
    for d in 1..64 {
        for m in 1..64 {
            let want = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            assert_eq!(t.get(d, m as usize), want, "depth {d} move {m}");
        }
    }
    assert_eq!((t.get(0, 10), t.get(10, 0)), (0, 0));
}
