//! Property test of the UCI layer: random command lines
//! (mutated FENs, thousands of moves, absurd option values, token soups for
//! `go` and `setoption`, commands sent while a search runs) are fed to an
//! in-process `Session`. Properties: no panic, no hang, and afterwards the
//! engine answers `isready` with `readyok` and `go depth 1` with one legal
//! `bestmove` (`0000` when it has no position or no legal move).
//!
//! Deterministic: the seed is fixed unless `UCI_FUZZ_SEED` is set. The case
//! count is `PROPTEST_CASES` (default 200). With `--nocapture` it prints how
//! many cases and lines it ran.
//!
//! Left out on purpose: `bench`, and `go perft` deeper than 3: both are
//! debugging commands that run on the input thread for as long as asked.
//! Valid Hash values are drawn from 1 to 40 MB and 257 MB only, valid
//! Threads from 1 to 40 and 257, so a case stays fast; out-of-range values
//! are fuzzed.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cozy_chess::{Board, GameStatus};
use cutoff_engine::uci::command::{GO_FLAGS, GO_LIMITS};
use cutoff_engine::uci::{Output, Session};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A case that takes this long is a hang (generous: the machine is shared).
const HANG: Duration = Duration::from_secs(60);

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/3k4/8/8/4K3/8/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
];

/// Replacement values for one FEN field: each is wrong somewhere.
const BAD_FIELDS: &[&str] = &[
    "",
    "-",
    "x",
    "99999999999999999999999",
    "-1",
    "18446744073709551616",
    "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/KkQQQQQQ",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR",
    "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK",
    "8/8/8/8/8/8/8/8",
    "pppppppp/8/8/8/8/8/8/PPPPPPPP",
    "KQkqKQkq",
    "HAha",
    "A",
    "Kk",
    "e9",
    "z3",
    "e4",
    "e3e6",
    "b",
    "W",
    "0",
];

/// What a `go` soup is made of besides the real keywords: numbers of every
/// size, junk and moves.
const GO_VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "-1",
    "-99999999999999999999",
    "99999999999999999999",
    "4294967296",
    "9223372036854775807",
    "+3",
    "1.5",
    "e2e4",
    "e7e5",
    "a1a1",
    "e1g1",
    "e7e8q",
    "0000",
    "foo",
    "",
];

const OPTION_NAMES: &[&str] = &[
    "Hash",
    "hash",
    "HASH",
    "Threads",
    "threads",
    "MultiPV",
    "Ponder",
    "Move Overhead",
    "move overhead",
    "UCI_Chess960",
    "UCI_ShowWDL",
    "uci_analysemode",
    "Clear Hash",
    "Search_NullMove",
    "search_lmr",
    "Search_",
    "Search_Nope",
    "Nope",
    "value",
    "name",
];

const OPTION_VALUES: &[&str] = &[
    "true",
    "false",
    "TRUE",
    "yes",
    "",
    "0",
    "-1",
    "1e9",
    "nan",
    "32769",
    "257",
    "99999999999999999999999",
    "-9223372036854775808",
    "18446744073709551615",
    "1 2",
    "value",
];

fn pick(words: &[&'static str]) -> impl Strategy<Value = String> + use<> {
    prop::sample::select(words.to_vec()).prop_map(str::to_string)
}

/// The parser's own `go` keywords, then `GO_VALUES`.
fn go_words() -> Vec<&'static str> {
    [GO_LIMITS, GO_FLAGS, GO_VALUES].concat()
}

/// Any text: printable junk, or any bytes read the way `run` reads them.
fn junk() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,40}",
        prop::collection::vec(any::<u8>(), 0..60)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        (0usize..200_000).prop_map(|n| "x".repeat(n)),
    ]
}

/// A FEN, maybe mutated: a field replaced or dropped, fields swapped or
/// added, a character replaced.
fn fen() -> impl Strategy<Value = String> {
    let base = prop::sample::select(FENS);
    let mutation = prop_oneof![
        2 => Just(Mutation::None),
        2 => (0usize..8, pick(BAD_FIELDS)).prop_map(|(i, f)| Mutation::Field(i, f)),
        1 => (0usize..8, junk()).prop_map(|(i, f)| Mutation::Field(i, f)),
        1 => (0usize..6, 0usize..6).prop_map(|(a, b)| Mutation::Swap(a, b)),
        1 => (0usize..6).prop_map(Mutation::Drop),
        1 => (0usize..100, any::<char>()).prop_map(|(i, c)| Mutation::Char(i, c)),
    ];
    (base, mutation).prop_map(|(fen, m)| m.apply(fen))
}

#[derive(Clone, Debug)]
enum Mutation {
    None,
    /// Field `i` (past the end: appended) becomes the text.
    Field(usize, String),
    Swap(usize, usize),
    Drop(usize),
    Char(usize, char),
}

impl Mutation {
    fn apply(self, fen: &str) -> String {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        match self {
            Mutation::None => {}
            Mutation::Field(i, text) if i < fields.len() => fields[i] = text,
            Mutation::Field(_, text) => fields.push(text),
            Mutation::Swap(a, b) => fields.swap(a, b),
            Mutation::Drop(i) => {
                fields.remove(i);
            }
            Mutation::Char(i, c) => {
                let mut chars: Vec<char> = fen.chars().collect();
                let i = i % chars.len();
                chars[i] = c;
                return chars.into_iter().collect();
            }
        }
        fields.join(" ")
    }
}

/// The moves after `position ... moves`, made when the case runs (they
/// depend on the position): a random game, a shuffle repeated, junk, with
/// maybe one bad move put in.
#[derive(Clone, Debug)]
enum Moves {
    None,
    /// Random legal moves from the position, up to this many.
    Game {
        seed: u64,
        plies: usize,
    },
    /// Knights out and back, `n` times: thousands of legal moves.
    Shuffle(usize),
    Words(Vec<String>),
}

fn moves() -> impl Strategy<Value = (Moves, Option<(usize, String)>)> {
    let moves = prop_oneof![
        Just(Moves::None),
        (any::<u64>(), 0usize..3000).prop_map(|(seed, plies)| Moves::Game { seed, plies }),
        (0usize..1500).prop_map(Moves::Shuffle),
        prop::collection::vec(prop_oneof![pick(&go_words()), junk()], 0..8).prop_map(Moves::Words),
    ];
    let bad = prop::option::weighted(0.3, (0usize..3000, prop_oneof![pick(&go_words()), junk()]));
    (moves, bad)
}

fn position_line(fen: Option<&str>, moves: &Moves, bad: &Option<(usize, String)>) -> String {
    let mut words: Vec<String> = Vec::new();
    match moves {
        Moves::None => {}
        Moves::Game { seed, plies } => {
            if let Ok(mut board) = fen.map_or(Ok(Board::default()), |f| f.parse::<Board>()) {
                let mut rng = *seed | 1;
                for _ in 0..*plies {
                    if board.status() != GameStatus::Ongoing {
                        break;
                    }
                    let mut legal = Vec::new();
                    board.generate_moves(|ms| {
                        legal.extend(ms);
                        false
                    });
                    // xorshift: cheap and deterministic.
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let mv = legal[(rng % legal.len() as u64) as usize];
                    words.push(cutoff_engine::board::moves::format_uci(&board, mv, false));
                    board.play_unchecked(mv);
                }
            }
        }
        Moves::Shuffle(n) => {
            for _ in 0..*n {
                words.extend(["g1f3", "g8f6", "f3g1", "f6g8"].map(str::to_string));
            }
        }
        Moves::Words(w) => words.extend(w.iter().cloned()),
    }
    if let Some((at, mv)) = bad {
        words.insert(at % (words.len() + 1), mv.clone());
    }
    let setup = match fen {
        None => "startpos".to_string(),
        Some(f) => format!("fen {f}"),
    };
    if words.is_empty() && bad.is_none() {
        format!("position {setup}")
    } else {
        format!("position {setup} moves {}", words.join(" "))
    }
}

/// One input line (or a position, whose moves are made when it runs).
#[derive(Clone, Debug)]
enum Line {
    Text(String),
    Position {
        fen: Option<String>,
        moves: Moves,
        bad: Option<(usize, String)>,
    },
}

fn line() -> impl Strategy<Value = Line> {
    let text = |s: BoxedStrategy<String>| s.prop_map(Line::Text);
    let go =
        prop::collection::vec(pick(&go_words()), 0..8).prop_map(|w| format!("go {}", w.join(" ")));
    let setoption = (
        prop::collection::vec(prop_oneof![3 => pick(OPTION_NAMES), 1 => junk()], 0..3),
        prop::option::of(prop_oneof![
            3 => pick(OPTION_VALUES),
            2 => (-3i64..41).prop_map(|v| v.to_string()),
            1 => any::<i64>().prop_map(|v| v.to_string()),
            1 => junk(),
        ]),
        any::<bool>(),
    )
        .prop_map(|(name, value, keyword)| {
            let mut l = String::from("setoption");
            if keyword {
                l.push_str(" name");
            }
            for w in name {
                l.push(' ');
                l.push_str(&w);
            }
            if let Some(v) = value {
                l.push_str(" value ");
                l.push_str(&v);
            }
            l
        });
    let known = pick(&[
        "uci",
        "isready",
        "ucinewgame",
        "stop",
        "ponderhit",
        "quit",
        "d",
        "eval",
        "debug on",
        "debug off",
        "debug",
        "register",
        "go infinite",
        "go ponder",
        "go depth 3",
        "go nodes 5000",
        "go wtime 10 btime 10",
        "go perft 2",
        "go perft 0",
        "go perft -1",
        "go perft x",
        "go perft",
        "position",
        "position fen",
        "position startpos junk",
        "position moves e2e4",
        "setoption",
        "setoption name",
        "",
    ]);
    let position = (prop::option::weighted(0.8, fen()), moves())
        .prop_map(|(fen, (moves, bad))| Line::Position { fen, moves, bad });
    prop_oneof![
        3 => text(known.boxed()),
        3 => text(go.boxed()),
        3 => text(setoption.boxed()),
        3 => position,
        1 => text(junk().boxed()),
    ]
}

/// A writer the test can read back while the session still holds it.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// The lines written since the last call; emptying the buffer keeps a
    /// long case from holding megabytes of output.
    fn take(&self) -> Vec<String> {
        let mut b = self.0.lock().unwrap();
        let text = String::from_utf8_lossy(&b).into_owned();
        b.clear();
        text.lines().map(str::to_string).collect()
    }
}

static LINES: AtomicU64 = AtomicU64::new(0);

/// Runs one case; an `Err` says which property failed.
fn run_case(lines: Vec<Line>) -> Result<(), String> {
    let buffer = Buffer::default();
    let mut session = Session::new(Output::to(buffer.clone()));
    for l in &lines {
        let text = match l {
            Line::Text(t) => t.clone(),
            Line::Position { fen, moves, bad } => position_line(fen.as_deref(), moves, bad),
        };
        LINES.fetch_add(1, Ordering::Relaxed);
        if !session.line(&text) {
            break; // `quit`: the rest is never read
        }
        buffer.take();
    }
    session.line("stop");
    buffer.take();
    session.line("isready");
    let out = buffer.take();
    if out.last().map(String::as_str) != Some("readyok") {
        return Err(format!("isready answered {out:?}"));
    }
    session.line("go depth 1");
    session.engine.wait();
    let out = buffer.take();
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    let [best] = best[..] else {
        return Err(format!("go depth 1 answered {out:?}"));
    };
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    let pos = session.engine.position();
    let mut legal = Vec::new();
    pos.board().generate_moves(|ms| {
        legal.extend(ms.into_iter().map(|m| pos.uci(m)));
        false
    });
    let ok = if session.engine.no_position().is_some() || legal.is_empty() {
        mv == "0000"
    } else {
        legal.iter().any(|l| l == mv)
    };
    if !ok {
        return Err(format!(
            "bestmove {mv} for {} (no position: {:?})",
            pos.fen(),
            session.engine.no_position()
        ));
    }
    Ok(())
}

/// `run_case` on its own thread, so a hang fails the test instead of
/// blocking it (the hung thread is left behind).
fn run_with_watchdog(lines: Vec<Line>) -> Result<(), String> {
    let (tx, rx) = channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(run_case(lines));
    });
    match rx.recv_timeout(HANG) {
        Ok(result) => {
            let _ = worker.join();
            result
        }
        Err(_) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => Err(format!("hang: no answer within {HANG:?}")),
        },
    }
}

#[test]
fn uci_input_never_breaks_the_engine() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let seed: u64 = std::env::var("UCI_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let started = std::time::Instant::now();
    let result = runner.run(&prop::collection::vec(line(), 1..12), |lines| {
        run_with_watchdog(lines).map_err(TestCaseError::fail)
    });
    eprintln!(
        "uci_fuzz: seed {seed}, {cases} cases, {} lines, {:.1} s",
        LINES.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
