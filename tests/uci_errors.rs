//! Bad input over UCI: each bad command gets exactly one `info string error:`
//! line and leaves the engine's state as it was; positions without legal moves
//! get `bestmove 0000` at once; garbage never panics or hangs; `quit` and end
//! of input end a search promptly.

use crate::common;

use common::{Session, is_legal};
use cutoff_engine::uci::command::{GO_FLAGS, GO_LIMITS};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// FEN standard: the en passant square follows any double push.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

/// A bad FEN or a malformed `position` leaves no position at all (never an
/// older one, which the GUI no longer has); `d` then says so.
#[test]
fn bad_positions_leave_no_position() {
    let mut s = Session::start();
    let bad = [
        // wrong field count
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq 0 1",
        "position fen 8/8/8/8/8/8/8/K6k",
        // bad piece letter, bad rank
        "position fen rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        // no king, two kings
        "position fen 8/8/8/8/8/8/8/7k w - - 0 1",
        "position fen k6k/8/8/8/8/8/8/K7 w - - 0 1",
        // castling rights without the rook or with the king moved
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1",
        "position fen 4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
        // the side not to move is in check
        "position fen 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        // en passant: not a square, wrong rank, no pawn that just moved
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        // side to move, clocks
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        // pawn on the back rank
        "position fen Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w Kkq - 0 1",
        // malformed command
        "position",
        "position fen",
        "position startpos e2e4",
        "position middlegame",
    ];
    for cmd in bad {
        s.send("position startpos moves e2e4");
        assert_eq!(s.fen(), AFTER_E4);
        let err = s.expect_one_error(cmd);
        assert!(err.len() > "info string error: ".len() + 5, "{cmd}: {err}");
        let d = s.expect_one_error("d");
        assert!(d.contains("no position"), "after '{cmd}': {d}");
    }
}

/// An illegal move keeps the position before it, as Stockfish does.
#[test]
fn illegal_moves_keep_the_moves_before_them() {
    let mut s = Session::start();
    let after_e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    let bad = [
        ("position startpos moves e2e4 e7e9", AFTER_E4),
        ("position startpos moves e2e4 zz", AFTER_E4),
        ("position startpos moves e2e4 e7e5 e1e3", after_e4_e5),
        ("position startpos moves e2e5", STARTPOS),
        ("position startpos moves e1g1", STARTPOS),
    ];
    for (cmd, fen) in bad {
        s.send("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        s.expect_one_error(cmd);
        assert_eq!(s.fen(), fen, "after '{cmd}'");
    }
}

#[test]
fn bad_commands_and_options_are_reported() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    for cmd in [
        "foo",
        "gooo depth 3",
        // Bad `go` parameters are warnings, not errors: see uci_rules.rs.
        "go perft",
        "setoption",
        "setoption name",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value lots",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name MultiPV value 1000",
        "setoption name Move Overhead value -1",
        "setoption name Ponder value maybe",
        "setoption name UCI_Chess960 value 1",
        "bench x",
    ] {
        s.expect_one_error(cmd);
        assert_eq!(s.fen(), AFTER_E4, "state changed by '{cmd}'");
    }
    // The old value of a rejected option is kept: still standard castling.
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("go depth 1 searchmoves e1g1");
    assert_eq!(s.wait_bestmove().1, "e1g1");
    assert!(s.quit().success());
}

#[test]
fn no_legal_move_answers_bestmove_0000_with_a_score() {
    let mut s = Session::start();
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for (fen, score) in [(mate, "mate 0"), (stalemate, "cp 0")] {
        s.send(&format!("position fen {fen}"));
        let info = format!("info depth 0 score {score}");
        s.send("go depth 5");
        assert_eq!(s.wait_bestmove().0, [info.clone(), "bestmove 0000".into()]);
        // Infinite and ponder searches still wait for `stop` / `ponderhit`.
        for (go, end) in [
            ("go infinite", "stop"),
            ("go ponder wtime 100 btime 100", "ponderhit"),
        ] {
            s.send(go);
            s.read_until(|l| l == info);
            s.send(end);
            assert_eq!(s.wait_bestmove().0, ["bestmove 0000"], "{go}");
        }
    }
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut s = Session::start();
    s.send("go infinite");
    s.read_until(|l| l.starts_with("info depth"));
    let status = s.quit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn end_of_input_during_a_search_exits() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.read_until(|l| l.starts_with("info depth"));
    s.close_input();
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
}

/// A small deterministic generator, so a failure can be replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// One line of garbage: UCI words in random order, random bytes, or both.
fn garbage_line(rng: &mut XorShift) -> Vec<u8> {
    const BEFORE_GO: &[&str] = &[
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
    ];
    // The `go` keywords come from the parser's own lists.
    const AFTER_GO: &[&str] = &[
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "UCI_Chess960",
        "Clear",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "0000",
        "d",
        "eval",
        "1",
        "2",
        "-1",
        "0",
        "3",
        "99999999999999999999",
        "w",
        "b",
        "KQkq",
        "-",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "k7/8/8/8/8/8/8/K7",
        "true",
        "false",
        "\t",
        "é",
        "",
    ];
    let words = [BEFORE_GO, GO_LIMITS, GO_FLAGS, AFTER_GO].concat();
    let mut line = Vec::new();
    match rng.next() % 4 {
        0 => {
            // Random bytes, including invalid UTF-8 and control characters.
            for _ in 0..rng.next() % 40 {
                let b = (rng.next() % 256) as u8;
                if b != b'\n' {
                    line.push(b);
                }
            }
        }
        _ => {
            for _ in 0..1 + rng.next() % 8 {
                line.extend_from_slice(rng.pick(&words).as_bytes());
                line.push(b' ');
            }
        }
    }
    line.push(b'\n');
    line
}

#[test]
fn garbage_never_panics_or_hangs() {
    let mut s = Session::start();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..400 {
        let line = garbage_line(&mut rng);
        s.send_bytes(&line);
    }
    s.send("stop");
    s.sync();
    // Still a working engine afterwards.
    s.send("setoption name UCI_Chess960 value false");
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 2");
    let (_, best) = s.wait_bestmove();
    assert!(is_legal(STARTPOS, &best, false), "{best}");
    assert!(s.quit().success());
}
