//! The time plan: the budget within the clock and its reserves, the plan
//! by increment and by `movestogo`.

use super::*;

const WHITE: Color = Color::White;

fn clock(wtime: u64, winc: u64, mtg: Option<u32>) -> Limits {
    Limits {
        wtime: Some(wtime),
        winc: Some(winc),
        btime: Some(1),
        movestogo: mtg,
        ..Limits::default()
    }
}

#[test]
fn movetime_is_exact_minus_overhead() {
    let l = Limits {
        movetime: Some(1000),
        ..Limits::default()
    };
    let b = Budget::new(&l, WHITE, 10, 0).unwrap();
    assert_eq!(
        b,
        Budget {
            soft: 990,
            hard: 990,
            fixed: true
        }
    );
    assert_eq!(b.scaled_soft(0.5), 990);
}

#[test]
fn clock_budget_stays_within_the_clock() {
    for (t, inc, mtg) in [
        (10, 0, None),
        (100, 1000, None),
        (60_000, 0, Some(1)),
        (5000, 50, None),
    ] {
        let b = Budget::new(&clock(t, inc, mtg), WHITE, 10, 0).unwrap();
        assert!(b.soft <= b.hard);
        assert!(b.hard < t.max(2), "{t} {inc}: {b:?}");
    }
}

#[test]
fn a_low_clock_keeps_its_reserve() {
    for t in [15, 30, 60, 100, 200] {
        let b = Budget::new(&clock(t, 10, None), WHITE, 10, 0).unwrap();
        let reserve = 10 * RESERVE_OVERHEADS;
        assert!(
            b.hard <= (t - 10).saturating_sub(reserve).max(1),
            "{t}: {b:?}"
        );
    }
    // With time to spare, only the stall reserve is held back.
    let inc = 100;
    let b = Budget::new(&clock(60_000, inc, None), WHITE, 10, 0).unwrap();
    assert_eq!(
        b.soft,
        (60_000 - 10 - STALL_RESERVE_MS) / default_moves_to_go() + inc * increment_pct() / 100
    );
}

#[test]
fn the_plan_follows_the_increment_from_the_short_plan_to_the_long_one() {
    let soft = |inc| {
        Budget::new(&clock(60_000, inc, None), WHITE, 10, 0)
            .unwrap()
            .soft
    };
    let usable = 60_000 - 10 - STALL_RESERVE_MS;
    for inc in [0, 50, SHORT_INCREMENT_MS] {
        let expect = usable / default_moves_to_go() + inc * increment_pct() / 100;
        assert_eq!(soft(inc), expect, "{inc}");
    }
    for inc in [LONG_INCREMENT_MS, 1000] {
        let expect = usable / long_moves_to_go() + inc * long_increment_pct() / 100;
        assert_eq!(soft(inc), expect, "{inc}");
    }
    // Halfway, each setting is halfway (rounded).
    let mid = (SHORT_INCREMENT_MS + LONG_INCREMENT_MS) / 2;
    let mtg = (default_moves_to_go() + long_moves_to_go()).div_ceil(2);
    let pct = (increment_pct() + long_increment_pct()).div_ceil(2);
    assert_eq!(soft(mid), usable / mtg + mid * pct / 100);
}

#[test]
fn a_guis_moves_to_go_is_capped_and_not_the_sudden_death_default() {
    let soft = |mtg| {
        Budget::new(&clock(60_000, 0, mtg), WHITE, 10, 0)
            .unwrap()
            .soft
    };
    assert_eq!(soft(Some(40)), soft(Some(MOVES_TO_GO_CAP as u32)));
    assert_eq!(soft(Some(1000)), soft(Some(MOVES_TO_GO_CAP as u32)));
    assert_eq!(soft(Some(30)), (60_000 - 10 - STALL_RESERVE_MS) / 30);
    assert!(soft(Some(10)) > 2 * soft(Some(30)));
}

/// Plays `moves` moves that each spend the soft limit and gain `inc`,
/// returning the clocks before each move.
fn clocks(time: u64, inc: u64, moves: usize) -> Vec<u64> {
    let mut t = time;
    let mut seen = Vec::new();
    for _ in 0..moves {
        seen.push(t);
        let b = Budget::new(&clock(t, inc, None), WHITE, 10, 0).unwrap();
        t = t.saturating_sub(b.soft) + inc;
    }
    seen
}

#[test]
fn spending_every_hard_limit_keeps_the_stall_reserve() {
    // The worst case of the soft limit's scaling, from above and from
    // under the reserve: with an increment the clock settles on it
    // (plus the overhead) or above.
    for (start, inc) in [(5000, 50), (10_000, 100), (150, 50), (2000, 10)] {
        let mut t: u64 = start;
        for i in 0..400 {
            let b = Budget::new(&clock(t, inc, None), WHITE, 10, 0).unwrap();
            assert!(b.hard <= t, "{start}+{inc}: {t} {b:?}");
            if i >= 100 {
                assert!(t >= STALL_RESERVE_MS + 10, "{start}+{inc}: {t} {b:?}");
            }
            t = t - b.hard + inc;
        }
    }
}

#[test]
fn the_clock_settles_above_a_stall() {
    // 5+0.05: after the opening the clock stays above the stall
    // reserve (planning the whole increment, it settles just above
    // it), and no plan (hard limit) spends more than half an
    // increment into it, so the increment refills it.
    let settled = clocks(5000, 50, 200)[100..].to_vec();
    for &t in &settled {
        assert!(t > STALL_RESERVE_MS + 10, "{t}");
        let b = Budget::new(&clock(t, 50, None), WHITE, 10, 0).unwrap();
        let refill_inc = 50 * LOW_CLOCK_INCREMENT_PCT / 100;
        assert!(
            b.hard + STALL_RESERVE_MS <= t - 10 + refill_inc,
            "{t}: {b:?}"
        );
    }
    // Sudden death still spends into the reserve, a share at a time.
    let sd = clocks(1000, 0, 300);
    assert!(
        sd[299] < STALL_RESERVE_MS / 2 && sd[299] > 50,
        "{:?}",
        &sd[290..]
    );
}

#[test]
fn no_clock_means_no_budget() {
    assert!(Budget::new(&Limits::depth(5), WHITE, 10, 0).is_none());
    assert!(Budget::new(&clock(1000, 0, None), Color::Black, 10, 0).is_some());
}

/// (time, inc, movestogo, overhead, lag) and the expected (soft, hard).
type Case = (u64, u64, Option<u32>, u64, u64, u64, u64);

/// Limits computed when the plan's factors were tunables and a flat plan
/// by game phase was in it: the constants that replaced them plan the same.
#[test]
fn the_plan_keeps_its_limits() {
    let cases: &[Case] = &[
        (60_000, 0, None, 10, 0, 2979, 11916),
        (60_000, 100, None, 10, 0, 3079, 12316),
        (10_000, 100, None, 10, 0, 579, 2316),
        (40_000, 400, None, 10, 0, 1619, 6476),
        (20_000, 250, None, 50, 0, 1002, 4008),
        (5_000, 50, None, 10, 0, 279, 1116),
        (5_000, 50, None, 10, 30, 249, 996),
        (600, 50, None, 10, 0, 59, 190),
        (300, 10, None, 10, 0, 5, 5),
        (45, 0, None, 10, 0, 1, 1),
        (1_000, 1_000, None, 10, 0, 590, 590),
        (120_000, 0, Some(40), 10, 0, 3986, 15944),
        (60_000, 0, Some(1), 10, 0, 53991, 53991),
        (10_000, 0, Some(5), 100, 0, 1900, 5940),
        (3_000, 2_000, Some(10), 30, 0, 1757, 1782),
    ];
    for &(time, inc, mtg, overhead, lag, soft, hard) in cases {
        let b = Budget::new(&clock(time, inc, mtg), WHITE, overhead, lag).unwrap();
        let case = (time, inc, mtg, overhead, lag);
        assert_eq!((b.soft, b.hard, b.fixed), (soft, hard, false), "{case:?}");
    }
}
