//! The testers' options: `nodestime`, a time control played in nodes. Each
//! test waits for the engine's own output.

use crate::common;

use common::{Session, field};
use cutoff_engine::board::Color;
use cutoff_engine::search::Budget;
use cutoff_engine::search::limits::Limits;

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
    let limits = Limits {
        wtime: Some(clock),
        btime: Some(clock),
        winc: Some(inc),
        binc: Some(inc),
        ..Limits::default()
    };
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
