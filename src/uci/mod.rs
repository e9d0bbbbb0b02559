//! The UCI protocol: reads commands, calls the engine, prints its answers.
//!
//! The main thread reads stdin line by line; searches run on their own thread
//! (see `engine`), so `stop`, `isready` and `quit` are answered at once while
//! the engine thinks. Bad input is answered with one `info string` line
//! (what the engine does with each kind is in the README).

pub mod command;
pub mod options;

use std::io::{self, BufRead, Write};

use crate::board::{Move, Position, STARTPOS};
use crate::engine::Engine;
use crate::search::info::{Bound, Info, Reporter};
use crate::search::limits::Limits;
use crate::search::score::UciScore;
use command::{Command, GoArgs};

pub const ENGINE_NAME: &str = concat!("Cutoff ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Cutoff developers";

/// Prints search output in UCI format on stdout.
pub struct UciReporter;

impl Reporter for UciReporter {
    fn info(&mut self, i: &Info) {
        let score = match i.score {
            UciScore::Cp(cp) => format!("cp {cp}"),
            UciScore::Mate(m) => format!("mate {m}"),
        };
        if i.pv.is_empty() {
            // A finished game: only its score.
            return say(&format!("info depth {} score {score}", i.depth));
        }
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        say(&format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.multipv,
            i.nodes,
            i.nps,
            i.hashfull,
            i.time_ms,
            i.pv.join(" ")
        ));
    }

    fn currmove(&mut self, depth: u32, mv: &str, number: usize) {
        say(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }

    fn string(&mut self, text: &str) {
        say(&format!("info string {text}"));
    }

    fn bestmove(&mut self, best: Option<&str>, ponder: Option<&str>) {
        match (best, ponder) {
            (Some(b), Some(p)) => say(&format!("bestmove {b} ponder {p}")),
            (Some(b), None) => say(&format!("bestmove {b}")),
            _ => say("bestmove 0000"),
        }
    }
}

/// Writes one line to stdout and flushes it (GUIs read line by line). If
/// stdout is closed the GUI is gone: end quietly.
pub fn say(line: &str) {
    let mut out = io::stdout().lock();
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// The longest error line: the parts that echo input are clipped, and this
/// catches any message that echoes a long FEN or option name whole.
const MAX_ERROR_CHARS: usize = 2 * command::ECHO_CHARS;

fn error(text: &str) {
    let text = match text.char_indices().nth(MAX_ERROR_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    };
    say(&format!("info string error: {text}"));
}

/// Runs the UCI loop on stdin until `quit` or end of input.
pub fn run() {
    // As Stockfish does: a newcomer sees the engine is waiting; GUIs skip
    // lines before `uciok` that they do not know.
    say(&format!("{ENGINE_NAME} by {ENGINE_AUTHOR}"));
    let mut session = Session::default();
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    // Bytes, not `lines()`: a line that is not UTF-8 is bad input to answer,
    // not the end of the session.
    while matches!(input.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
        let line = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        match command::parse(&line) {
            Ok(Command::Quit) => break,
            Ok(cmd) => session.handle(cmd),
            Err(e) => error(&e),
        }
    }
    session.engine.stop();
}

/// The engine and the options that wait for the running search to end.
#[derive(Default)]
pub struct Session {
    pub engine: Engine,
    pending: Vec<options::Setting>,
}

impl Session {
    /// Carries out one command.
    pub fn handle(&mut self, cmd: Command) {
        if matches!(cmd, Command::Go(_)) {
            self.engine.stop();
        }
        self.apply_pending();
        let engine = &mut self.engine;
        match cmd {
            Command::Uci => identify(),
            Command::IsReady => say("readyok"),
            Command::UciNewGame => engine.new_game(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => set_position(engine, fen.as_deref(), &moves),
            Command::BadPosition(e) => {
                error(&format!("{e}; no position until the next good one"));
                engine.no_position = Some(e);
            }
            Command::Go(args) => go(engine, &args),
            Command::Stop => engine.stop(),
            Command::PonderHit => engine.ponderhit(),
            Command::Debug(_) => {}
            Command::Register => say("info string registration is not needed"),
            Command::Bench(depth) => {
                if engine.is_searching() {
                    return error("cannot run bench during a search");
                }
                crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH));
            }
            Command::Perft(_) | Command::Display | Command::Eval => show(engine, &cmd),
            Command::Quit | Command::Empty => {}
        }
    }

    /// During a search, a good setting waits for its end (the search uses
    /// the options it started with).
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match options::parse(name, value) {
            Ok(setting) => {
                self.pending.push(setting);
                self.apply_pending();
            }
            Err(e) => error(&e),
        }
    }

    fn apply_pending(&mut self) {
        if self.pending.is_empty() || self.engine.is_searching() {
            return;
        }
        for setting in std::mem::take(&mut self.pending) {
            if let Err(e) = options::apply(&mut self.engine, setting) {
                error(&e);
            }
        }
    }
}

fn identify() {
    say(&format!("id name {ENGINE_NAME}"));
    say(&format!("id author {ENGINE_AUTHOR}"));
    for line in options::declarations() {
        say(&line);
    }
    say("uciok");
}

/// The commands that look at the current position: `go perft`, `d`, `eval`.
fn show(engine: &Engine, cmd: &Command) {
    if let Some(why) = &engine.no_position {
        return error(&format!("no position ({why})"));
    }
    let pos = &engine.position;
    match cmd {
        Command::Perft(depth) => perft(pos, *depth),
        Command::Display => display(pos),
        _ => say(&engine.eval_report()),
    }
}

/// Sets up a `position`. A bad FEN leaves no position; an illegal move
/// leaves the position before it (as Stockfish does).
fn set_position(engine: &mut Engine, fen: Option<&str>, moves: &[String]) {
    let chess960 = engine.options.chess960;
    let mut pos = match Position::from_fen(fen.unwrap_or(STARTPOS), chess960) {
        Ok(pos) => pos,
        Err(e) => {
            error(&format!("{e}; no position until the next good one"));
            engine.no_position = Some(format!("bad FEN: {e}"));
            return;
        }
    };
    for (i, mv) in moves.iter().enumerate() {
        if let Err(e) = pos.play_uci(mv) {
            error(&format!(
                "move {} of position: {e}; kept the position before it",
                i + 1
            ));
            break;
        }
    }
    pos.forget_undo();
    engine.position = pos;
    engine.no_position = None;
}

/// Starts a search. Every `go` gets a `bestmove`: bad parameters are
/// skipped with one warning line.
fn go(engine: &mut Engine, args: &GoArgs) {
    let (limits, mut warnings) = limits_from(&engine.position, args);
    warnings.splice(0..0, args.warnings.iter().cloned());
    if !warnings.is_empty() {
        say(&format!(
            "info string warning: go: ignored {}",
            warnings.join("; ")
        ));
    }
    engine.go(limits, Box::new(UciReporter));
}

/// The search limits of `go`, and the `searchmoves` it ignored.
fn limits_from(pos: &Position, g: &GoArgs) -> (Limits, Vec<String>) {
    let mut searchmoves: Vec<Move> = Vec::new();
    let mut warnings = Vec::new();
    for text in &g.searchmoves {
        match crate::board::moves::parse_uci(pos.board(), text, pos.chess960()) {
            Ok(mv) => searchmoves.push(mv),
            Err(e) => warnings.push(format!("searchmoves: {}", command::clip(&e))),
        }
    }
    let ms = |v: Option<i64>| v.map(|t| t.max(0) as u64);
    let limits = Limits {
        depth: g.depth,
        nodes: g.nodes,
        movetime: g.movetime,
        wtime: ms(g.wtime),
        btime: ms(g.btime),
        winc: ms(g.winc),
        binc: ms(g.binc),
        movestogo: g.movestogo.filter(|&m| m > 0),
        mate: g.mate,
        infinite: g.infinite,
        ponder: g.ponder,
        searchmoves,
    };
    (limits, warnings)
}

fn perft(pos: &Position, depth: u32) {
    let started = std::time::Instant::now();
    let divide = crate::board::perft::divide(pos.board(), depth.max(1));
    let mut total = 0;
    for (mv, n) in divide {
        say(&format!("{}: {n}", pos.uci(mv)));
        total += n;
    }
    let ms = started.elapsed().as_millis();
    say("");
    say(&format!("Nodes searched: {total}"));
    say(&format!("Time: {ms} ms"));
}

/// The `d` command: the board as text, its FEN and key.
fn display(pos: &Position) {
    let b = pos.board();
    let mut out = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = crate::board::Square::new(
                crate::board::File::index(file),
                crate::board::Rank::index(rank),
            );
            let c = match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(col)) => {
                    let ch: char = p.into();
                    if col == crate::board::Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    }
                }
                _ => ' ',
            };
            out.push_str(&format!(" | {c}"));
        }
        out.push_str(&format!(
            " | {}\n +---+---+---+---+---+---+---+---+\n",
            rank + 1
        ));
    }
    out.push_str("   a   b   c   d   e   f   g   h\n\n");
    out.push_str(&format!("Fen: {}\n", pos.fen()));
    out.push_str(&format!("Key: {:016X}\n", pos.key()));
    let checkers: Vec<String> = b.checkers().iter().map(|s| s.to_string()).collect();
    out.push_str(&format!("Checkers: {}", checkers.join(" ")));
    say(&out);
}
