//! Tests of `params`.

use super::*;

#[test]
fn names_are_unique_and_found_case_insensitively() {
    let all: Vec<_> = all().collect();
    for (i, t) in all.iter().enumerate() {
        assert!(
            all[..i]
                .iter()
                .all(|u| !u.name.eq_ignore_ascii_case(t.name)),
            "{} twice",
            t.name
        );
        assert_eq!(
            find(&t.name.to_ascii_uppercase()).map(|f| f.name),
            Some(t.name)
        );
    }
    assert_eq!(TUNABLES[Id::lmr_base_pct as usize].name, "lmr_base_pct");
}

#[test]
fn accessors_give_the_declared_defaults() {
    assert_eq!(rfp_margin(), TUNABLES[Id::rfp_margin as usize].default);
}
