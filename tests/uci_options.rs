//! `setoption` on the engine itself, where every option's value can be seen:
//! names are case-insensitive, values in range are applied, and a rejected
//! value leaves the old one in place.

use cutoff_engine::engine::Engine;
use cutoff_engine::engine::options::{Kind, OPTIONS, Value};
use cutoff_engine::search::Settings;
use cutoff_engine::uci::options;

fn snapshot(e: &Engine) -> String {
    format!("{:?}", e.options())
}

fn default_int(name: &str) -> i64 {
    match OPTIONS
        .iter()
        .find(|o| o.name == name)
        .map(|o| o.default_value())
    {
        Some(Value::Int(v)) => v,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn every_spin_option_accepts_its_range_and_rejects_outside_it() {
    for opt in OPTIONS {
        let Kind::Spin { min, max } = opt.kind else {
            continue;
        };
        let default = default_int(opt.name);
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
    let s = e.options().settings();
    assert_eq!(
        (e.options().hash_mb(), s.threads, s.multipv, s.move_overhead),
        (64, 2, 3, 50)
    );
    assert!(e.options().chess960() && e.position().chess960());
    // Hash resizes the pool's table in place; Threads restarts its threads.
    assert_eq!(
        (e.pool().shared().tt.size_mb(), e.pool().threads()),
        (64, 2)
    );
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

/// The value of `default` in a `uci` line such as
/// `option name Hash type spin default 16 min 1 max 32768`.
fn advertised(lines: &[String], name: &str) -> String {
    let head = format!("option name {name} type ");
    let line = lines
        .iter()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("{name} not declared"));
    let rest = line.split(" default ").nth(1).expect("a default");
    rest.split(" min ").next().unwrap_or(rest).to_string()
}

#[test]
fn advertised_defaults_are_the_engines_own() {
    let lines = options::declarations(true);
    let e = Engine::new();
    let (o, s) = (e.options(), e.options().settings());
    let lib = Settings::default();
    for (name, actual) in [
        ("Hash", o.hash_mb().to_string()),
        ("Threads", s.threads.to_string()),
        ("MultiPV", s.multipv.to_string()),
        ("Move Overhead", s.move_overhead.to_string()),
        ("UCI_Chess960", e.position().chess960().to_string()),
        ("UseNNUE", s.network.is_some().to_string()),
        ("Ponder", "false".to_string()),
        ("EvalFile", "<embedded>".to_string()),
        ("UCI_ShowWDL", o.show_wdl().to_string()),
        ("UCI_AnalyseMode", o.analyse_mode().to_string()),
    ] {
        assert_eq!(advertised(&lines, name), actual, "{name}");
    }
    // The engine's search starts as a library search does (bench, tests).
    assert_eq!(
        (s.threads, s.multipv, s.move_overhead, s.config),
        (lib.threads, lib.multipv, lib.move_overhead, lib.config)
    );
    for &(name, field) in cutoff_engine::search::config::SearchConfig::SWITCHES {
        let mut config = s.config;
        let on = field(&mut config).to_string();
        assert_eq!(advertised(&lines, &format!("Search_{name}")), on, "{name}");
    }
}

#[test]
fn lab_switches_are_listed_only_on_request_but_always_accepted() {
    let player = options::declarations(false);
    let lab = options::declarations(true);
    assert_eq!(player.len(), cutoff_engine::engine::options::all().count());
    assert!(!player.iter().any(|l| l.contains("Search_")), "{player:?}");
    assert_eq!(&lab[..player.len()], &player[..]);
    let switches = cutoff_engine::search::config::SearchConfig::SWITCHES;
    assert_eq!(lab.len(), player.len() + switches.len());
    let mut e = Engine::new();
    for &(name, _) in switches {
        let option = format!("search_{name}");
        options::set(&mut e, &option, Some("false")).unwrap_or_else(|err| panic!("{err}"));
    }
    assert!(e.options().switches() != Settings::default().config);
    assert!(options::set(&mut e, "Search_NoSuchSwitch", Some("false")).is_err());
}

#[test]
fn display_options_start_off_and_can_be_set() {
    let mut e = Engine::new();
    assert!(!e.options().show_wdl() && !e.options().analyse_mode());
    options::set(&mut e, "uci_showwdl", Some("true")).expect("UCI_ShowWDL");
    options::set(&mut e, "UCI_AnalyseMode", Some("true")).expect("UCI_AnalyseMode");
    assert!(e.options().show_wdl() && e.options().analyse_mode());
    assert!(options::set(&mut e, "UCI_ShowWDL", Some("on")).is_err());
    assert!(e.options().show_wdl());
}
