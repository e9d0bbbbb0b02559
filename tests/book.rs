//! Opening books: `cutoff book probe` and `book build` as a user
//! runs them, and `OwnBook` in a UCI session.
//!
//! The expected keys and entries were computed once with python-chess 1.11.2:
//! `chess.polyglot.zobrist_hash(board)` and `reader.find_all(board,
//! minimum_weight=0)` sorted by weight, highest first (see
//! tools/book_check.py, which does the same over random book lines).

use crate::common;

use std::process::{Command, Output};

use common::Session;

/// The smallest of the shared test books: the Lasker trap, black's moves.
const LASKER: &str = "tests/data/lasker-trap.bin";

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff")
}

fn probe(fen: &str, book: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["book", "probe", "--fen", fen, "--book", book, "--key"];
    args.extend(extra);
    let out = cutoff(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn probe_agrees_with_python_chess_along_the_lasker_trap() {
    let expected = [
        (
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
            "830eb9b20758d1de",
            "d7d5 2",
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
            "8a470482d88334ff",
            "e7e5 2",
        ),
        (
            "rnbqkbnr/ppp2ppp/8/3pP3/2P5/8/PP2PPPP/RNBQKBNR b KQkq - 0 3",
            "9ca2f38a43537bb9",
            "d5d4 2",
        ),
        (
            "rnbqkbnr/ppp2ppp/8/4P3/2Pp4/4P3/PP3PPP/RNBQKBNR b KQkq - 0 4",
            "d3e2db56ab33d9fa",
            "f8b4 2",
        ),
        (
            "rnbqk1nr/ppp2ppp/8/4P3/1bPp4/4P3/PP1B1PPP/RN1QKBNR b KQkq - 2 5",
            "332ee8e572a57adc",
            "d4e3 2",
        ),
        (
            "rnbqk1nr/ppp2ppp/8/4P3/1BP5/4p3/PP3PPP/RN1QKBNR b KQkq - 0 6",
            "b0a23032f72b13fe",
            "e3f2 2",
        ),
        (
            "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7",
            "5028f645a2af84bc",
            "f2g1n 2",
        ),
    ];
    for (fen, key, entry) in expected {
        assert_eq!(
            probe(fen, LASKER, &[]),
            [format!("key {key}"), entry.to_string()],
            "{fen}"
        );
    }
    // White's moves are not in this book.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(probe(start, LASKER, &[]), ["key 463b96181691fc9c"]);
}

#[test]
fn bad_books_and_fens_are_clear_errors() {
    let dir = scratch_dir();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 20]).unwrap();
    for (fen, book) in [
        ("8/8/8/8/8/8/8/8 w - - 0 1", LASKER),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "no/such.bin",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            odd.to_str().unwrap(),
        ),
    ] {
        let out = cutoff(&["book", "probe", "--fen", fen, "--book", book]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.starts_with("error: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

fn scratch_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Three games through the Italian's 4.O-O: won, lost, drawn by White.
const GAMES: &str = r#"[Event "a"]
[Result "1-0"]
1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 {won} 1-0

[Event "b"]
1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 (3... Nf6) 4. O-O d6 0-1

[Event "c"]
1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O $1 Nf6 5. d3 1/2-1/2
"#;

#[test]
fn build_scores_games_and_probe_writes_castling_both_ways() {
    let dir = scratch_dir();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let book = dir.join("italian.bin");
    let build = |min_games: &str| {
        let (pgn, book) = (pgn.to_str().unwrap(), book.to_str().unwrap());
        let out = cutoff(&[
            "book",
            "build",
            "--pgn",
            pgn,
            "--out",
            book,
            "--min-games",
            min_games,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let book_path = book.to_str().unwrap();
    assert!(build("1").starts_with("book: 3 games (0 with an unreadable move"));
    // Keys from python-chess (see the top of this file).
    let before_castling = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let after_castling = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    // O-O scores 2 + 0 + 1; ...d6 won once (2), ...Nf6 lost once and drew once (1).
    assert_eq!(
        probe(before_castling, book_path, &[]),
        ["key b663577df5f241bb", "e1g1 3"]
    );
    assert_eq!(
        probe(before_castling, book_path, &["--chess960"])[1],
        "e1h1 3"
    );
    assert_eq!(
        probe(after_castling, book_path, &[]),
        ["key c8162c4989019aab", "d7d6 2", "g8f6 1"]
    );
    build("2");
    assert_eq!(
        probe(after_castling, book_path, &[]),
        ["key c8162c4989019aab", "g8f6 1"]
    );
    build("4");
    assert_eq!(
        probe(before_castling, book_path, &[]),
        ["key b663577df5f241bb"]
    );
}

#[test]
fn own_book_answers_at_once_within_book_depth() {
    let mut s = Session::start();
    let after_d4 = "position startpos moves d2d4";
    // Off by default: a search.
    s.send(&format!("setoption name BookFile value {LASKER}"));
    s.send(after_d4);
    s.send("go depth 1");
    let (lines, _) = s.wait_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    s.send("setoption name OwnBook value true");
    s.send(after_d4);
    s.send("go wtime 1000 btime 1000");
    let (lines, best) = s.wait_bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string book move d7d5")),
        "{lines:?}"
    );
    assert_eq!(best, "d7d5");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // Ply 1 is not below BookDepth 1.
    s.send("setoption name BookDepth value 1");
    s.send(after_d4);
    s.send("go depth 1");
    let (lines, _) = s.wait_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    // Infinite searches are left to the search, which waits for `stop`.
    s.send("setoption name BookDepth value 255");
    s.send(after_d4);
    s.send("go infinite");
    let early = s.lines_within(std::time::Duration::from_millis(300));
    assert!(
        !early
            .iter()
            .any(|l| l.starts_with("bestmove") || l.contains("book"))
    );
    s.send("stop");
    s.wait_bestmove();
    // A bad book: one error line, and no book any more.
    s.expect_one_error("setoption name BookFile value no/such/book.bin");
    s.send(after_d4);
    s.send("go depth 1");
    let (lines, _) = s.wait_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
}

/// In analysis a GUI wants a search and its scores: no book move then.
#[test]
fn analyse_mode_searches_book_positions() {
    let mut s = Session::start();
    s.send(&format!("setoption name BookFile value {LASKER}"));
    s.send("setoption name OwnBook value true");
    s.send("setoption name UCI_AnalyseMode value true");
    s.send("position startpos moves d2d4");
    s.send("go depth 3");
    let (lines, _) = s.wait_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    s.send("setoption name UCI_AnalyseMode value false");
    s.send("position startpos moves d2d4");
    s.send("go depth 3");
    let (lines, best) = s.wait_bestmove();
    assert!(lines.iter().any(|l| l.starts_with("info string book move")));
    assert_eq!(best, "d7d5");
}
