//! UCI sessions with the real binary: handshake, options, positions, every
//! `go` limit, stop/ponder/isready during a search, and the conveniences
//! (`d`, `go perft`, `eval`). Bad input is in `uci_errors.rs`.

use crate::common;

use common::{Session, field, is_legal};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Checks a search's output: `info` lines carry the UCI fields, and the best
/// move is legal in `fen`. Returns the best move.
fn check_search(lines: &[String], best: &str, fen: &str) -> String {
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!infos.is_empty(), "no info line with a pv: {lines:#?}");
    for info in &infos {
        for key in ["depth", "score", "nodes", "nps", "time", "pv"] {
            assert!(field(info, key).is_some(), "no '{key}' in '{info}'");
        }
        let kind = field(info, "score").unwrap_or_default();
        assert!(kind == "cp" || kind == "mate", "score kind in '{info}'");
    }
    assert!(
        is_legal(fen, best, false),
        "illegal bestmove {best} in {fen}"
    );
    best.to_string()
}

fn search(s: &mut Session, position: &str, fen: &str, go: &str) -> String {
    s.send(position);
    s.send(go);
    let (lines, best) = s.wait_bestmove();
    check_search(&lines, &best, fen)
}

/// `Session::start` reads the banner (`common::BANNER`) before any command;
/// nothing else comes unasked, and `uci` still answers `id name` first.
#[test]
fn the_banner_is_one_line_before_any_command() {
    let mut s = Session::start();
    assert!(
        s.lines_within(std::time::Duration::from_millis(300))
            .is_empty()
    );
    s.send("uci");
    assert!(s.next_line().starts_with("id name Cutoff"));
    assert!(s.quit().success());
}

/// The lab's `Search_*` switches crowd a GUI's dialog: listed only with
/// `--lab-options`, and accepted by `setoption` either way.
#[test]
fn lab_switches_are_listed_only_with_lab_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.read_until(|l| l == "uciok");
    assert!(!lines.iter().any(|l| l.contains("Search_")), "{lines:?}");
    assert!(
        s.ask("setoption name Search_NullMove value false")
            .is_empty()
    );
    s.send("go depth 3");
    s.wait_bestmove();
    let mut s = Session::start_with(&["--lab-options"]);
    s.send("uci");
    let lines = s.read_until(|l| l == "uciok");
    let switch = "option name Search_NullMove type check default true";
    assert!(lines.iter().any(|l| l == switch), "{lines:?}");
}

#[test]
fn handshake_declares_every_option() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Cutoff"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "UCI_Chess960",
        "Clear Hash",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            options.iter().any(|o| o.starts_with(&prefix)),
            "{name} not declared"
        );
    }
    for opt in options {
        match field(opt, "type") {
            Some("spin") => {
                let num = |k| field(opt, k).and_then(|v| v.parse::<i64>().ok());
                let (d, lo, hi) = (num("default"), num("min"), num("max"));
                assert!(
                    matches!((d, lo, hi), (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi),
                    "bad spin declaration '{opt}'"
                );
            }
            Some("check") => assert!(
                matches!(field(opt, "default"), Some("true" | "false")),
                "'{opt}'"
            ),
            Some("button") => {}
            Some("combo") => assert!(opt.contains(" var "), "'{opt}'"),
            Some("string") => assert!(opt.contains(" default"), "'{opt}'"),
            other => panic!("unknown option type {other:?} in '{opt}'"),
        }
    }
    assert!(s.sync().is_empty());
    s.send("ucinewgame");
    assert!(s.sync().is_empty());
    assert!(s.quit().success());
}

#[test]
fn setoption_names_are_case_insensitive() {
    let mut s = Session::start();
    for cmd in [
        "setoption name hash value 8",
        "setoption name THREADS value 1",
        "setoption name multipv value 2",
        "setoption name ponder value true",
        "setoption name move overhead value 25",
        "setoption name clear hash",
        "setoption name uci_chess960 value TRUE",
    ] {
        assert!(s.ask(cmd).is_empty(), "'{cmd}' was not accepted");
    }
    // Chess960 is on (set in lower case): castling is written king-takes-rook.
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("go depth 1 searchmoves e1h1");
    assert_eq!(s.wait_bestmove().1, "e1h1");
}

#[test]
fn position_startpos_and_fen_with_moves() {
    let mut s = Session::start();
    assert_eq!(s.fen(), STARTPOS);
    let start_key = s.key();
    s.send("position startpos moves e2e4 e7e5 g1f3");
    assert_eq!(
        s.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // The key depends on the position, not on the way to it or the clocks.
    s.send("position startpos moves g1f3 g8f6 f3g1 f6g8");
    assert_eq!(s.key(), start_key);
    assert!(s.fen().ends_with(" 4 3"));
    s.send(&format!("position fen {KIWIPETE} moves e1c1 h3g2"));
    assert_eq!(
        s.fen(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPpP/2KR3R w kq - 0 2"
    );
    // An EPD-style FEN without the clocks is accepted too.
    s.send("position fen 4k3/8/8/8/8/8/8/4K2R w K -");
    assert_eq!(s.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn castling_in_standard_and_chess960_notation() {
    let mut s = Session::start();
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    s.send(&format!("position fen {fen} moves e1g1 e8c8"));
    assert_eq!(s.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    s.send(&format!("position fen {fen}"));
    s.send("go depth 2 searchmoves e1g1");
    assert_eq!(s.wait_bestmove().1, "e1g1");

    s.send("setoption name UCI_Chess960 value true");
    s.send(&format!("position fen {fen} moves e1h1 e8a8"));
    assert_eq!(s.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Chess960 (Shredder-FEN): king f1 castles with the rook next to it on g1.
    let c960 = "bnnbrkr1/ppp2p1p/5q2/3pp1p1/4P3/1N4P1/PPPPRP1P/BN1B1KRQ w Gge - 0 9";
    s.send(&format!("position fen {c960} moves f1g1"));
    assert_eq!(
        s.fen(),
        "bnnbrkr1/ppp2p1p/5q2/3pp1p1/4P3/1N4P1/PPPPRP1P/BN1B1RKQ b kq - 1 9"
    );
    s.send(&format!("position fen {c960}"));
    s.send("go depth 2 searchmoves f1g1");
    assert_eq!(s.wait_bestmove().1, "f1g1");
}

#[test]
fn go_depth_nodes_and_movetime() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    s.send("go depth 3");
    let (lines, best) = s.wait_bestmove();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    check_search(&lines, &best, fen);
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.contains(" pv "))
        .filter_map(|l| field(l, "depth")?.parse().ok())
        .collect();
    assert_eq!(depths.last(), Some(&3), "{lines:?}");

    search(&mut s, "position startpos", STARTPOS, "go nodes 2000");
    let kiwi = format!("position fen {KIWIPETE}");
    search(&mut s, &kiwi, KIWIPETE, "go movetime 100");
}

#[test]
fn go_with_a_clock() {
    let mut s = Session::start();
    search(
        &mut s,
        "position startpos",
        STARTPOS,
        "go wtime 3000 btime 3000 winc 100 binc 100 movestogo 20",
    );
    let black = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
    search(
        &mut s,
        "position startpos moves d2d4",
        black,
        "go wtime 2000 btime 800 winc 0 binc 50",
    );
    // Almost no time left, and a negative clock: still a legal move.
    search(
        &mut s,
        "position startpos",
        STARTPOS,
        "go wtime 5 btime 5 movestogo 1",
    );
    search(
        &mut s,
        "position startpos",
        STARTPOS,
        "go wtime -20 btime 100",
    );
}

#[test]
fn go_mate_finds_the_mate() {
    let mut s = Session::start();
    // Scholar's mate: Qxf7# is the only mate in one.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    s.send(&format!("position fen {fen}"));
    s.send("go mate 1");
    let (lines, best) = s.wait_bestmove();
    assert_eq!(best, "h5f7");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    // King and rook against king: mate in two.
    let fen = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go mate 2");
    let (lines, best) = s.wait_bestmove();
    assert!(is_legal(fen, &best, false));
    assert!(
        lines.iter().any(|l| l.contains("score mate 2 ")),
        "{lines:?}"
    );
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut s = Session::start();
    for _ in 0..2 {
        let best = search(
            &mut s,
            "position startpos",
            STARTPOS,
            "go depth 3 searchmoves a2a3 h2h3 b1a3",
        );
        assert!(["a2a3", "h2h3", "b1a3"].contains(&best.as_str()), "{best}");
    }
    let best = search(
        &mut s,
        "position startpos",
        STARTPOS,
        "go nodes 500 searchmoves g2g4",
    );
    assert_eq!(best, "g2g4");
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.read_until(|l| l.starts_with("info depth"));
    // Answered during the search, and no bestmove before `stop`.
    for _ in 0..3 {
        let before = s.sync();
        assert_no_bestmove(&before);
    }
    s.send("stop");
    let (_, best) = s.wait_bestmove();
    assert!(is_legal(STARTPOS, &best, false), "{best}");
    // A search that ends quickly by itself (a bare-kings draw) still waits.
    s.send("position fen 8/8/3k4/8/8/4K3/8/8 w - - 0 1");
    s.send("go infinite");
    let before = s.sync();
    assert_no_bestmove(&before);
    s.send("stop");
    s.wait_bestmove();
    assert!(s.quit().success());
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut s = Session::start();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 1000 btime 1000");
    let before = s.sync();
    assert_no_bestmove(&before);
    s.send("ponderhit");
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let (lines, best) = s.wait_bestmove();
    check_search(&lines, &best, fen);

    s.send("go ponder depth 2");
    let before = s.sync();
    assert_no_bestmove(&before);
    s.send("stop");
    let (_, best) = s.wait_bestmove();
    assert!(is_legal(fen, &best, false));
}

#[test]
fn bestmove_carries_a_legal_ponder_move() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go depth 3");
    let (lines, best) = s.wait_bestmove();
    let last = lines.last().cloned().unwrap_or_default();
    if let Some(ponder) = field(&last, "ponder") {
        s.send(&format!("position startpos moves {best}"));
        let fen = s.fen();
        assert!(is_legal(&fen, ponder, false), "{last}");
    }
}

#[test]
fn go_perft_divides_and_totals() {
    let mut s = Session::start();
    s.send(&format!("position fen {KIWIPETE}"));
    let out = s.ask("go perft 2");
    let split: Vec<u64> = out
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(mv, _)| mv.len() <= 5)
        .filter_map(|(_, n)| n.parse().ok())
        .collect();
    assert_eq!(split.len(), 48, "{out:?}");
    assert_eq!(split.iter().sum::<u64>(), 2039);
    assert!(out.contains(&"Nodes searched: 2039".to_string()), "{out:?}");
}

#[test]
fn eval_reports_from_whites_side() {
    let mut s = Session::start();
    let final_cp = |s: &mut Session| -> i32 {
        let out = s.ask("eval");
        let last = out.last().cloned().unwrap_or_default();
        let cp = last
            .strip_prefix("Final evaluation: ")
            .and_then(|r| r.strip_suffix(" cp (white side)"))
            .unwrap_or_else(|| panic!("last line of eval: '{last}'"));
        cp.trim().parse().expect("centipawns")
    };
    // White is a queen up, whoever is to move.
    s.send("position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(final_cp(&mut s) > 300);
    s.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
    assert!(final_cp(&mut s) < -300);
}

#[test]
fn display_shows_board_fen_and_key() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    let out = s.ask("d");
    let text = out.join("\n");
    assert!(
        text.contains("| r | n | b | q | k | b | n | r | 8"),
        "{text}"
    );
    assert!(
        text.contains("|   |   |   |   | P |   |   |   | 4"),
        "{text}"
    );
    let key = out.iter().find_map(|l| l.strip_prefix("Key: "));
    assert!(key.is_some_and(|k| k.len() == 16 && u64::from_str_radix(k, 16).is_ok()));
}

#[test]
fn commands_right_after_bestmove_are_accepted() {
    // A GUI may send `setoption` as soon as it reads `bestmove`, while the
    // search thread is still ending: that must not count as "during a search".
    let mut s = Session::start();
    s.send("position startpos");
    for i in 0..40 {
        s.send("go depth 1");
        s.wait_bestmove();
        let out = s.ask(&format!(
            "setoption name Move Overhead value {}",
            10 + i % 2
        ));
        assert!(out.is_empty(), "round {i}: {out:?}");
    }
}

#[test]
fn options_change_the_search() {
    let mut s = Session::start();
    // MultiPV 3: three distinct first moves are reported at the last depth.
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 3");
    let (lines, best) = s.wait_bestmove();
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| field(l, "depth") == Some("3") && l.contains(" pv "))
        .collect();
    let mut firsts: Vec<&str> = last_depth.iter().filter_map(|l| field(l, "pv")).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert!(firsts.len() >= 3, "{lines:#?}");
    for k in ["1", "2", "3"] {
        assert!(last_depth.iter().any(|l| field(l, "multipv") == Some(k)));
    }
    assert!(is_legal(STARTPOS, &best, false));
    // Two threads and a small table still play legal moves.
    s.send("setoption name MultiPV value 1");
    s.send("setoption name Threads value 2");
    s.send("setoption name Hash value 1");
    search(
        &mut s,
        &format!("position fen {KIWIPETE}"),
        KIWIPETE,
        "go depth 5",
    );
    search(&mut s, "position startpos", STARTPOS, "go movetime 50");
}

/// The engine must not have answered `bestmove` yet (infinite or ponder search).
fn assert_no_bestmove(lines: &[String]) {
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
}
