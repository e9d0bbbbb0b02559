//! Tests of `outcome`.

use super::*;
use crate::search::score::{MATE, TB_WIN_BOUND};
use cozy_chess::Square;

use crate::tablebase::root::entry;

fn outcome(entries: &[RootEntry], rule50: bool) -> RootOutcome {
    let tb = entries.iter().map(|e| tb_move(e, rule50)).collect();
    RootOutcome { drawn: false, tb }
}

#[test]
fn tablebase_scores_replace_the_search_s() {
    let e = [
        entry(Square::A2, Wdl::Win, 7),
        entry(Square::A3, Wdl::CursedWin, 150),
        entry(Square::A4, Wdl::Loss, -300),
    ];
    let o = outcome(&e, true);
    assert_eq!(
        o.shown(Some(e[0].mv), 250),
        (tb_win_in(7), Some(Outcome::Win))
    );
    assert_eq!(o.shown(Some(e[1].mv), 900), (DRAW, Some(Outcome::Draw)));
    let (loss, certain) = o.shown(Some(e[2].mv), 0);
    assert!(loss < -TB_WIN_BOUND && !is_mate(loss), "{loss}");
    assert_eq!(certain, Some(Outcome::Loss));
    // A cursed win is a win without the rule.
    let o = outcome(&e, false);
    assert!(o.shown(Some(e[1].mv), 0).0 > TB_WIN_BOUND);
}

#[test]
fn a_proven_mate_stands_unless_it_contradicts_the_tables() {
    let e = [
        entry(Square::A2, Wdl::Win, 7),
        entry(Square::A3, Wdl::Draw, 0),
    ];
    let o = outcome(&e, true);
    assert_eq!(o.shown(Some(e[0].mv), MATE - 5).0, MATE - 5);
    assert_eq!(o.shown(Some(e[0].mv), -MATE + 4).0, tb_win_in(7));
    assert_eq!(o.shown(Some(e[1].mv), MATE - 5).0, DRAW);
    // Not in the tables: the search's score.
    assert_eq!(RootOutcome::default().shown(Some(e[0].mv), 35), (35, None));
}

#[test]
fn a_root_drawn_by_rule_shows_a_draw() {
    let o = RootOutcome {
        drawn: true,
        tb: Vec::new(),
    };
    assert_eq!(o.shown(None, MATE - 3), (DRAW, Some(Outcome::Draw)));
}
