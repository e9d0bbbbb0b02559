//! Tests of `tunable`.

use super::*;

#[test]
fn a_line_has_openbench_fields() {
    let t = Tunable {
        name: "x",
        default: 3,
        min: 1,
        max: 6,
        step: 0.5,
    };
    assert_eq!(t.spsa_line(), "x, int, 3, 1, 6, 0.5, 0.002");
    let whole = Tunable { step: 8.0, ..t };
    assert_eq!(whole.spsa_line(), "x, int, 3, 1, 6, 8, 0.002");
}
