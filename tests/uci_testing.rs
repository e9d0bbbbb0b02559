//! The testers' options: `nodestime` (a time control played in nodes) and
//! `Debug Log File` (every line in and out, with times), and `bench` with
//! arguments over UCI. Each waits for the engine's own output.

use crate::common;

use std::path::PathBuf;

use common::{Session, field};
use cutoff_engine::board::Color;
use cutoff_engine::engine::Engine;
use cutoff_engine::time::{Budget, Limits};
use cutoff_engine::uci::options;

/// Nodes a search may count past its hard limit: the main thread looks at
/// the limit every 256 nodes, and a stopped search unwinds.
const SLACK: u64 = 256 + 8;

/// The nodes of the last `info` line with a count.
fn last_nodes(lines: &[String]) -> u64 {
    let line = lines.iter().rev().find(|l| l.contains(" nodes "));
    line.and_then(|l| field(l, "nodes")?.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {lines:?}"))
}

/// The hard limit, in nodes, of White's move with `clock` and `inc`
/// milliseconds at `per_ms` nodes a millisecond (Move Overhead 10, as the
/// engine's default).
fn hard_nodes(clock: u64, inc: u64, per_ms: u64) -> u64 {
    let limits = Limits::clocks(clock, clock, inc);
    Budget::new(&limits, Color::White, 10, 0).unwrap().hard * per_ms
}

/// Two moves of White under `nodestime 20` from a new engine: (nodes,
/// best move) of each. The second `go` claims a minute on the GUI's clock.
fn two_moves_in_nodes() -> [(u64, String); 2] {
    let mut s = Session::start();
    s.send("setoption name nodestime value 20");
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go wtime 20000 btime 20000 winc 100 binc 100");
    let (lines, first) = s.wait_bestmove();
    let first = (last_nodes(&lines), first);
    s.send(&format!("position startpos moves {} e7e5", first.1));
    s.send("go wtime 60000 btime 60000 winc 100 binc 100");
    let (lines, second) = s.wait_bestmove();
    [first, (last_nodes(&lines), second)]
}

#[test]
fn nodestime_plays_the_clock_in_nodes_and_keeps_it_itself() {
    let a = two_moves_in_nodes();
    // Stopped on nodes, not time: the same searches, however busy the
    // machine is.
    assert_eq!(a, two_moves_in_nodes());
    let [(first, _), (second, _)] = a;
    // The first clock, 20 s, is a node clock of 400,000 nodes.
    assert!(first <= hard_nodes(20_000, 100, 20) + SLACK, "{first}");
    // The second move is planned on that clock less the first move's nodes
    // plus the increment, not on the GUI's minute.
    let left = (20_000 * 20 - first + 100 * 20) / 20;
    let hard = hard_nodes(left, 100, 20);
    assert!(second <= hard + SLACK, "{second} nodes, hard limit {hard}");
    assert!(hard < hard_nodes(60_000, 100, 20) / 2);
}

#[test]
fn nodestime_is_a_spin_option_as_in_stockfish() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.read_until(|l| l == "uciok");
    let want = "option name nodestime type spin default 0 min 0 max 10000";
    assert!(lines.iter().any(|l| l == want), "{lines:?}");
    s.expect_one_error("setoption name nodestime value 10001");
    s.expect_one_error("setoption name nodestime value -1");
}

/// A file name in the temporary folder, unique to this test process.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-{name}-{}", std::process::id()))
}

/// (time, marker, text) of a log line `<time> <marker> <text>`.
fn parse_log_line(line: &str) -> (&str, &str, &str) {
    let (time, rest) = line.split_once(' ').expect("a time");
    let (marker, text) = rest.split_once(' ').unwrap_or((rest, ""));
    (time, marker, text)
}

#[test]
fn debug_log_file_logs_every_line_in_and_out_until_emptied() {
    let path = scratch("debug-log.txt");
    std::fs::write(&path, "an older session\n").unwrap();
    let mut s = Session::start();
    s.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    s.send("position startpos");
    s.send("go depth 3");
    let (out, _) = s.wait_bestmove();
    assert!(s.sync().is_empty());
    s.send("setoption name Debug Log File value <empty>");
    // Not logged: logging has stopped.
    s.sync();
    s.send("go depth 1");
    s.wait_bestmove();
    let log = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    // Appended to what was there.
    let mut lines = log.lines();
    assert_eq!(lines.next(), Some("an older session"));
    let mut want: Vec<(&str, &str)> = vec![(">>", "position startpos"), (">>", "go depth 3")];
    want.extend(out.iter().map(|l| ("<<", l.as_str())));
    want.extend([
        (">>", "isready"),
        ("<<", "readyok"),
        (">>", "setoption name Debug Log File value <empty>"),
    ]);
    let got: Vec<(&str, &str)> = lines
        .map(|l| {
            let (time, marker, text) = parse_log_line(l);
            // 2026-11-27T23:45:01.123Z
            let b = time.as_bytes();
            assert!(
                time.len() == 24 && b[4] == b'-' && b[10] == b'T' && time.ends_with('Z'),
                "time '{time}'"
            );
            (marker, text)
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_debug_log_file_that_cannot_be_opened_gives_one_error_and_no_log() {
    let bad = scratch("no-such-folder").join("log.txt");
    let mut s = Session::start();
    let error = s.expect_one_error(&format!(
        "setoption name Debug Log File value {}",
        bad.display()
    ));
    assert!(error.contains("debug log"), "{error}");
    assert!(!bad.exists());
    // In-process: the option reads `<empty>` and nothing is logged; a good
    // file turns the log on, an empty value off.
    let mut e = Engine::new();
    let name = bad.to_string_lossy().into_owned();
    assert!(options::set(&mut e, "debug log file", Some(&name)).is_err());
    assert!(!e.debug_log().is_on());
    assert!(format!("{:?}", e.options()).contains("debug_log_file: \"<empty>\""));
    let good = scratch("debug-log-on.txt");
    let good_name = good.to_string_lossy().into_owned();
    options::set(&mut e, "Debug Log File", Some(&good_name)).unwrap();
    assert!(e.debug_log().is_on());
    options::set(&mut e, "Debug Log File", Some("")).unwrap();
    assert!(!e.debug_log().is_on());
    let _ = std::fs::remove_file(&good);
}

#[test]
fn bench_takes_stockfish_arguments_over_uci() {
    let mut s = Session::start();
    s.send("bench 16 1 2 default depth");
    let lines = s.read_until(|l| l.starts_with("Bench: "));
    s.send("bench 2");
    let again = s.read_until(|l| l.starts_with("Bench: "));
    let nodes = |lines: &[String]| field(lines.last().unwrap(), "Bench:").map(str::to_string);
    assert_eq!(nodes(&lines), nodes(&again), "{lines:?} {again:?}");
    assert!(lines[0].contains("positions, depth 2"), "{lines:?}");
    s.expect_one_error("bench 16 1 2 default depth nodes");
    s.expect_one_error("bench 0 1 2");
}

/// `bench` searches with the network in use, as Stockfish's does: after
/// `EvalFile` the count is that network's, the same as `cutoff bench
/// --evalfile`, and `<embedded>` brings the embedded count back.
#[test]
fn bench_uses_the_network_loaded_by_evalfile() {
    let net = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("nets/net6.nnue");
    let net = net.to_string_lossy().into_owned();
    let bench = |s: &mut Session| {
        s.send("bench 3");
        let lines = s.read_until(|l| l.starts_with("Bench: "));
        field(lines.last().unwrap(), "Bench:").unwrap().to_string()
    };
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(args)
            .output()
            .expect("run cutoff")
    };
    let cli = |args: &[&str]| {
        let o = run(args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        field(text.lines().last().unwrap(), "Bench:")
            .unwrap()
            .to_string()
    };
    let mut s = Session::start();
    let embedded = bench(&mut s);
    s.send(&format!("setoption name EvalFile value {net}"));
    let loaded = bench(&mut s);
    assert_ne!(loaded, embedded, "bench ignored EvalFile");
    assert_eq!(loaded, cli(&["bench", "3", "--evalfile", &net]));
    assert_eq!(embedded, cli(&["bench", "3"]));
    s.send("setoption name EvalFile value <embedded>");
    assert_eq!(bench(&mut s), embedded);
    let o = run(&["bench", "3", "--evalfile", "/no/such/net.nnue"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
}
