//! `setoption` on the engine itself, where every option's value can be seen:
//! names are case-insensitive, values in range are applied, and a rejected
//! value leaves the old one in place.

use cutoff::engine::Engine;
use cutoff::uci::options::{self, Kind, OPTIONS};

fn snapshot(e: &Engine) -> String {
    format!("{:?}", e.options)
}

#[test]
fn every_spin_option_accepts_its_range_and_rejects_outside_it() {
    for opt in OPTIONS {
        let Kind::Spin { default, min, max } = opt.kind else {
            continue;
        };
        let mut e = Engine::new();
        // Hash at its maximum would really allocate that much memory.
        let top = if opt.name == "Hash" { min + 1 } else { max };
        for v in [min, default, top] {
            let name = opt.name.to_ascii_uppercase();
            options::set(&mut e, &name, Some(&v.to_string()))
                .unwrap_or_else(|err| panic!("{} = {v}: {err}", opt.name));
        }
        let before = snapshot(&e);
        for bad in [
            (min - 1).to_string(),
            max.saturating_add(1).to_string(),
            "ten".to_string(),
            String::new(),
        ] {
            let err = options::set(&mut e, opt.name, Some(&bad));
            assert!(err.is_err(), "{} accepted '{bad}'", opt.name);
            assert_eq!(snapshot(&e), before, "{} changed by '{bad}'", opt.name);
        }
        assert!(options::set(&mut e, opt.name, None).is_err());
    }
}

#[test]
fn values_reach_the_engine_options() {
    let mut e = Engine::new();
    for (name, value) in [
        ("hash", "64"),
        ("threads", "2"),
        ("MULTIPV", "3"),
        ("ponder", "true"),
        ("move overhead", "50"),
        ("Uci_Chess960", "true"),
    ] {
        options::set(&mut e, name, Some(value)).unwrap_or_else(|err| panic!("{name}: {err}"));
    }
    let o = &e.options;
    assert_eq!(
        (o.hash_mb, o.threads, o.multipv, o.move_overhead),
        (64, 2, 3, 50)
    );
    assert!(o.ponder && o.chess960 && e.position.chess960());
    assert!(options::set(&mut e, "clear hash", None).is_ok());
}

#[test]
fn check_options_need_true_or_false() {
    let mut e = Engine::new();
    let before = snapshot(&e);
    for bad in ["yes", "1", "", "truee"] {
        assert!(options::set(&mut e, "Ponder", Some(bad)).is_err(), "{bad}");
        assert!(options::set(&mut e, "UCI_Chess960", Some(bad)).is_err());
    }
    assert_eq!(snapshot(&e), before);
    assert!(options::set(&mut e, "No Such Option", Some("1")).is_err());
}
