//! A `--features spsa` build: every tunable (the search's and the time
//! manager's) is a UCI spin option, and setting one changes the search.
//! Each search runs in its own engine process, since the tunables are
//! process-wide.

use cutoff_engine::search::params;
use cutoff_engine::tunable::Tunable;

use crate::common::{Session, field};

/// A middlegame where pruning and reductions have work to do.
const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
const DEPTH: u32 = 9;

/// Nodes of `go depth DEPTH` after `setup`, in `s`.
fn nodes_after(s: &mut Session, setup: &[String]) -> u64 {
    nodes_at(s, setup, DEPTH)
}

/// Nodes of `go depth depth` after `setup`, in `s`.
fn nodes_at(s: &mut Session, setup: &[String], depth: u32) -> u64 {
    nodes_in(s, FEN, setup, depth)
}

/// Nodes of `go depth depth` from `fen` after `setup`, in `s`.
fn nodes_in(s: &mut Session, fen: &str, setup: &[String], depth: u32) -> u64 {
    for line in setup {
        let out = s.ask(line);
        assert!(out.is_empty(), "'{line}': {out:?}");
    }
    s.ask("ucinewgame");
    s.send(&format!("position fen {fen}"));
    s.send(&format!("go depth {depth}"));
    let (lines, _) = s.wait_bestmove();
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .expect("an info line with nodes");
    field(last, "nodes").unwrap().parse().unwrap()
}

fn fresh_nodes(setup: &[String]) -> u64 {
    fresh_nodes_in(FEN, setup, DEPTH)
}

fn fresh_nodes_in(fen: &str, setup: &[String], depth: u32) -> u64 {
    let mut s = Session::start();
    let n = nodes_in(&mut s, fen, setup, depth);
    s.quit();
    n
}

fn set(name: &str, value: i32) -> String {
    format!("setoption name {name} value {value}")
}

/// Every tunable, the search's and the time manager's.
fn tunables() -> Vec<&'static Tunable> {
    params::all().collect()
}

fn all_defaults() -> Vec<String> {
    tunables().iter().map(|t| set(t.name, t.default)).collect()
}

#[test]
fn spsa_uci_lists_every_tunable_as_a_spin_option() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.read_until(|l| l == "uciok");
    for t in tunables() {
        let want = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        );
        assert!(lines.contains(&want), "missing '{want}'");
    }
    let spins = lines.iter().filter(|l| l.contains(" type spin ")).count();
    assert!(spins > tunables().len(), "{spins} spin options");
}

#[test]
fn spsa_out_of_range_values_are_refused() {
    let mut s = Session::start();
    let t = tunables()[0];
    let error = s.expect_one_error(&set(t.name, t.max + 1));
    assert!(error.contains("out of range"), "{error}");
}

#[test]
fn spsa_setting_a_tunable_changes_the_search_and_defaults_restore_it() {
    let base = fresh_nodes(&[]);
    for (name, value) in [("lmr_base_pct", 110), ("rfp_margin", 60)] {
        let changed = fresh_nodes(&[set(name, value)]);
        assert_ne!(changed, base, "{name} = {value} left {base} nodes");
    }
    // Moved away, then every tunable back to its default, in one engine:
    // the LMR table is rebuilt and the search is the default one again.
    let mut s = Session::start();
    let moved = nodes_after(
        &mut s,
        &[set("lmr_divisor_pct", 300), set("history_max", 9000)],
    );
    assert_ne!(moved, base);
    assert_eq!(nodes_after(&mut s, &all_defaults()), base);
    s.quit();
}

/// Middlegames for the switches whose effect depends on what the network
/// and the histories make of a position: a switch must act in at least one.
const MIDDLEGAMES: [&str; 4] = [
    FEN,
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 9",
    "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 0 7",
];

/// Each technique that is off by default (a tunable whose default is 0)
/// changes the search when switched on, so no switch is dead code (at a
/// depth where the histories have learned enough for a weight on them to
/// change an ordering, in one of the middlegames at least).
#[test]
fn spsa_every_technique_off_by_default_changes_the_search_when_on() {
    const DEEP: u32 = 16;
    let base: Vec<u64> = MIDDLEGAMES
        .iter()
        .map(|fen| fresh_nodes_in(fen, &[], DEEP))
        .collect();
    let off: Vec<_> = tunables().into_iter().filter(|t| t.default == 0).collect();
    let names: Vec<&str> = off.iter().map(|t| t.name).collect();
    assert!(
        names.contains(&"pawn_history_pct") && names.contains(&"correction_nonpawn_pct"),
        "off by default: {names:?}"
    );
    for t in off {
        // Its largest value, and its smallest step above off: a margin or a
        // divisor acts most when small, a weight or a count when large.
        let small = (t.step.ceil() as i32).max(1);
        let acts = [t.max, small].iter().any(|&value| {
            let on = [set(t.name, value)];
            MIDDLEGAMES
                .iter()
                .zip(&base)
                .any(|(fen, &nodes)| fresh_nodes_in(fen, &on, DEEP) != nodes)
        });
        assert!(
            acts,
            "{} at {} and at {} left every middlegame's nodes as they were: {base:?}",
            t.name, t.max, small
        );
    }
}
