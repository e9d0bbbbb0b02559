//! Tests of `lmr`.

use super::*;

/// The table the engine had before its parameters became tunables.
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
