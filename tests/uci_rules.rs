//! The UCI rules that GUIs rely on: every `go` gets exactly one
//! `bestmove`, infinite and ponder searches wait for `stop`/`ponderhit`,
//! bad input never leaves an older position, a finished game has a score,
//! the last PV starts with the best move, castling is written in the mode's
//! notation in PVs, options set during a search are kept, echoed junk is
//! clipped.

use crate::common;

use std::time::Duration;

use common::{Session, field, is_legal};
use cutoff_engine::board::{Position, moves};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
const BARE_KINGS: &str = "8/8/3k4/8/8/4K3/8/8 w - - 0 1";

/// How long a finished infinite search must stay silent.
const QUIET: Duration = Duration::from_millis(300);

fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

#[test]
fn infinite_and_ponder_searches_never_end_by_themselves() {
    let mut s = Session::start();
    // Each search is over once its last line is out: a depth limit, a mate
    // found, bare kings, no legal move.
    let cases = [
        ("startpos", "go infinite depth 2", "info depth 2 "),
        (MATE_IN_ONE, "go infinite mate 1", " score mate 1 "),
        (BARE_KINGS, "go infinite", "info depth 1 "),
        (MATED, "go infinite", "info depth 0 score mate 0"),
        (STALEMATE, "go ponder", "info depth 0 score cp 0"),
        ("startpos", "go ponder depth 2", "info depth 2 "),
    ];
    for (fen, go, last_info) in cases {
        match fen {
            "startpos" => s.send("position startpos"),
            fen => s.send(&format!("position fen {fen}")),
        }
        s.send(go);
        let lines = s.read_until(|l| l.starts_with("bestmove") || l.contains(last_info));
        let mut after = s.lines_within(QUIET);
        after.extend(s.sync());
        if bestmoves(&lines) + bestmoves(&after) > 0 {
            s.fail(&format!("'{go}' answered bestmove by itself"));
        }
        // `ponderhit` on a finished ponder search answers at once.
        s.send(if go.contains("ponder") {
            "ponderhit"
        } else {
            "stop"
        });
        s.wait_bestmove();
        assert_eq!(bestmoves(&s.sync()), 0, "a second bestmove after '{go}'");
    }
}

#[test]
fn every_go_gets_one_bestmove_despite_bad_parameters() {
    let mut s = Session::start();
    s.send("position startpos");
    // (command, number of warning lines)
    let cases = [
        ("go depth 2 foo", 1),
        ("go depth 2 foo bar", 1),
        ("go movetime -5", 0),
        ("go wtime -100 btime -100", 0),
        ("go depth 2 nodes 99999999999999999999999999", 0),
        ("go depth 2 searchmoves e2e5", 1),
        ("go depth 2 searchmoves e2e5 d2d4", 1),
        ("go movetime 20 depth", 1),
        ("go depth x movetime 20", 1),
    ];
    for (go, warnings) in cases {
        s.send(go);
        let lines = s.read_until(|l| l.starts_with("bestmove") || l.contains("error"));
        let (_, best) = (lines.last(), field(lines.last().unwrap(), "bestmove"));
        let Some(best) = best else {
            s.fail(&format!("'{go}' got no bestmove"));
        };
        assert!(is_legal(STARTPOS, best, false), "{go}: {best}");
        let warned = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count();
        assert_eq!(warned, warnings, "{go}: {lines:?}");
        assert_eq!(bestmoves(&s.sync()), 0, "a second bestmove after '{go}'");
    }
    s.send("go depth 2 searchmoves e2e5 d2d4");
    assert_eq!(s.wait_bestmove().1, "d2d4");
}

#[test]
fn an_illegal_move_keeps_the_moves_before_it() {
    let mut s = Session::start();
    for cmd in [
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 e7e5 zz g1f3",
    ] {
        let err = s.expect_one_error(cmd);
        assert!(err.contains("move 3"), "{err}");
        assert_eq!(s.fen(), AFTER_E4_E5, "after '{cmd}'");
    }
}

#[test]
fn a_bad_fen_leaves_no_position_to_search() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4 e7e5");
    s.expect_one_error("position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1");
    assert!(s.expect_one_error("d").contains("no position"));
    s.send("go depth 3");
    let (lines, best) = s.wait_bestmove();
    assert_eq!(best, "0000", "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: no position"),
        "{lines:?}"
    );
    // Still an infinite search: the answer waits for `stop`.
    s.send("go infinite");
    s.read_until(|l| l.contains("error"));
    assert_eq!(bestmoves(&s.lines_within(QUIET)), 0);
    s.send("stop");
    assert_eq!(s.wait_bestmove().1, "0000");
    s.expect_one_error("position middlegame");
    assert!(s.expect_one_error("d").contains("no position"));
    s.send("position startpos");
    assert_eq!(s.fen(), STARTPOS);
}

#[test]
fn a_finished_game_reports_its_score() {
    let mut s = Session::start();
    for (fen, score) in [(MATED, "mate 0"), (STALEMATE, "cp 0")] {
        s.send(&format!("position fen {fen}"));
        s.send("go depth 5");
        let (lines, best) = s.wait_bestmove();
        assert_eq!(best, "0000");
        assert_eq!(
            lines,
            [
                format!("info depth 0 score {score}"),
                "bestmove 0000".into()
            ]
        );
    }
}

/// The first move of the last `info ... pv` line before `bestmove`.
fn last_pv_move(lines: &[String]) -> Option<&str> {
    let last = lines.iter().rev().find(|l| l.contains(" pv "))?;
    field(last, "pv")
}

#[test]
fn the_last_pv_starts_with_the_bestmove() {
    let mut s = Session::start();
    for threads in [1, 2, 8] {
        s.send(&format!("setoption name Threads value {threads}"));
        for (i, fen) in [STARTPOS, MATE_IN_ONE, AFTER_E4_E5]
            .iter()
            .cycle()
            .take(12)
            .enumerate()
        {
            s.send(&format!("position fen {fen}"));
            s.send(&format!("go movetime {}", 1 + i % 6));
            let (lines, best) = s.wait_bestmove();
            if let Some(pv) = last_pv_move(&lines) {
                assert_eq!(pv, best, "threads {threads}: {lines:?}");
            }
        }
    }
}

/// Replays moves from `fen`: each legal in turn and written as the mode
/// writes it (castling e1g1 in standard chess, king takes rook in Chess960).
fn replay(fen: &str, moves_text: &[&str], chess960: bool) {
    let mut pos = Position::from_fen(fen, chess960).expect("a valid FEN");
    for text in moves_text {
        let mv = moves::parse_uci(pos.board(), text, chess960)
            .unwrap_or_else(|e| panic!("{e}: {moves_text:?} from {fen}"));
        assert_eq!(pos.uci(mv), *text, "{moves_text:?} from {fen}");
        pos.play(mv);
    }
}

#[test]
fn castling_is_written_in_the_mode_in_pv_and_bestmove() {
    const WHITE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const BLACK: &str = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    // Chess960: king f1 castles with the rook next to it on g1.
    const F1G1: &str = "bnnbrkr1/ppp2p1p/5q2/3pp1p1/4P3/1N4P1/PPPPRP1P/BN1B1KRQ w Gge - 0 9";
    let cases = [
        (false, WHITE, "e1g1"),
        (false, WHITE, "e1c1"),
        (false, BLACK, "e8c8"),
        (true, WHITE, "e1h1"),
        (true, WHITE, "e1a1"),
        (true, BLACK, "e8h8"),
        (true, F1G1, "f1g1"),
    ];
    let mut s = Session::start();
    for (chess960, fen, castle) in cases {
        s.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        s.send(&format!("position fen {fen}"));
        s.send(&format!("go depth 5 searchmoves {castle}"));
        let (lines, best) = s.wait_bestmove();
        // Every PV starts with the castling move, and all of it replays.
        let pvs: Vec<Vec<&str>> = lines
            .iter()
            .filter_map(|l| Some(l.split_once(" pv ")?.1.split_whitespace().collect()))
            .collect();
        assert!(!pvs.is_empty(), "no pv: {lines:?}");
        for pv in pvs {
            assert_eq!(pv[0], castle, "{lines:?}");
            replay(fen, &pv, chess960);
        }
        let last: Vec<&str> = lines[lines.len() - 1].split_whitespace().collect();
        assert_eq!(best, castle);
        // `bestmove M ponder P`: the ponder move is checked the same way.
        let answer: Vec<&str> = last.iter().skip(1).step_by(2).copied().collect();
        replay(fen, &answer, chess960);
    }
}

#[test]
fn options_set_during_a_search_apply_to_the_next() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.read_until(|l| l.starts_with("info depth"));
    // Answered (isready too) without disturbing the search.
    let out = s.ask("setoption name MultiPV value 3");
    assert!(out.iter().all(|l| !l.contains("error")), "{out:?}");
    let out = s.ask("setoption name MultiPV value 0");
    let errors = out.iter().filter(|l| l.contains("error")).count();
    assert_eq!(errors, 1, "{out:?}");
    s.send("stop");
    let (lines, _) = s.wait_bestmove();
    assert!(lines.iter().all(|l| !l.contains("multipv 3")), "{lines:?}");
    s.send("go depth 3");
    let (lines, _) = s.wait_bestmove();
    assert!(lines.iter().any(|l| l.contains("multipv 3")), "{lines:?}");
}

#[test]
fn junk_is_echoed_clipped() {
    let mut s = Session::start();
    let junk = "x".repeat(1 << 20);
    for cmd in [
        junk.clone(),
        format!("position fen {junk}"),
        format!("position startpos moves {junk}"),
        format!("setoption name {junk} value 1"),
        format!("setoption name Hash value {junk}"),
        format!("go perft {junk}"),
    ] {
        let err = s.expect_one_error(&cmd);
        assert!(err.len() < 250, "{} chars echoed", err.len());
    }
    s.send("position startpos");
    s.send(&format!("go depth 1 {junk}"));
    let (lines, _) = s.wait_bestmove();
    assert!(lines.iter().all(|l| l.len() < 250), "junk echoed by go");
}

#[test]
fn debug_and_register_are_understood() {
    let mut s = Session::start();
    assert!(s.ask("debug on").is_empty());
    assert!(s.ask("debug off").is_empty());
    let out = s.ask("register later");
    assert_eq!(out, ["info string registration is not needed"]);
    assert!(s.quit().success());
}

#[test]
fn a_closed_stdout_ends_the_session_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    // stdin stays open: the engine must notice the GUI is gone by itself.
    std::io::Write::write_all(&mut stdin, b"uci\n").expect("write");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > common::TIMEOUT {
            let _ = child.kill();
            panic!("the engine kept running with its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(stdin);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(status.success() && stderr.is_empty(), "{status}: {stderr}");
}

/// A `go` that asks for a limit but gives none the side to move can use
/// (a malformed number, only the opponent's clock, `nodes 0`) would run
/// until `stop`, which its GUI never sends: it searches depth 1 instead,
/// and says so. A bare `go` (or `go infinite`) is analysis and runs on.
#[test]
fn a_go_without_a_usable_limit_searches_depth_one() {
    let mut s = Session::start();
    s.send("position startpos");
    for go in [
        "go depth abc",
        "go depth",
        "go btime 1000",
        "go winc 100",
        "go nodes 0",
    ] {
        s.send(go);
        let lines = s.read_until(|l| l.starts_with("bestmove"));
        let best = field(lines.last().unwrap(), "bestmove").unwrap_or_default();
        assert!(is_legal(STARTPOS, best, false), "{go}: {best}");
        let said = lines
            .iter()
            .filter(|l| l.contains("searching depth 1 instead"));
        assert_eq!(said.count(), 1, "{go}: {lines:?}");
        let depths: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| field(l, "depth"))
            .collect();
        assert!(
            !depths.is_empty() && depths.iter().all(|&d| d == "1"),
            "{go}: {lines:?}"
        );
    }
    s.send("go");
    let lines = s.read_until(|l| l.starts_with("info depth 3") || l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("info depth 3"),
        "{lines:?}"
    );
    s.send("stop");
    s.wait_bestmove();
    assert_eq!(bestmoves(&s.sync()), 0);
}

/// A `go` during a running search stops it first: its `bestmove` comes,
/// then one warning, then the new search's `bestmove`.
#[test]
fn a_go_during_a_search_answers_the_first_then_warns() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.read_until(|l| l.starts_with("info depth 2"));
    s.send("go depth 1");
    let first = s.read_until(|l| l.starts_with("bestmove"));
    assert!(first.iter().all(|l| !l.contains("warning")), "{first:?}");
    let second = s.read_until(|l| l.starts_with("bestmove"));
    let warned = second.iter().filter(|l| l.contains("go during a search"));
    assert_eq!(warned.count(), 1, "{second:?}");
    assert_eq!(bestmoves(&s.sync()), 0);
}
