//! The UCI protocol: reads commands, calls the engine, prints its answers.
//!
//! The main thread reads stdin line by line; searches run on their own thread
//! (see `engine`), so `stop`, `isready` and `quit` are answered at once while
//! the engine thinks. Bad input is answered with one `info string error: ...`
//! line and leaves the engine's state as it was.

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

/// Writes one line to stdout and flushes it (GUIs read line by line).
pub fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(text: &str) {
    say(&format!("info string error: {text}"));
}

/// Runs the UCI loop on stdin until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::new();
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    // Bytes, not `lines()`: a line that is not UTF-8 is bad input to answer,
    // not the end of the session.
    while matches!(input.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
        let line = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        match command::parse(&line) {
            Ok(Command::Quit) => break,
            Ok(cmd) => handle(&mut engine, cmd),
            Err(e) => error(&e),
        }
    }
    engine.stop();
}

/// Carries out one command.
pub fn handle(engine: &mut Engine, cmd: Command) {
    match cmd {
        Command::Uci => {
            say(&format!("id name {ENGINE_NAME}"));
            say(&format!("id author {ENGINE_AUTHOR}"));
            for line in options::declarations() {
                say(&line);
            }
            say("uciok");
        }
        Command::IsReady => say("readyok"),
        Command::UciNewGame => engine.new_game(),
        Command::SetOption { name, value } => {
            if engine.is_searching() {
                return error(&format!("cannot set option '{name}' during a search"));
            }
            if let Err(e) = options::set(engine, &name, value.as_deref()) {
                error(&e);
            }
        }
        Command::Position { fen, moves } => match set_position(engine, fen.as_deref(), &moves) {
            Ok(pos) => engine.position = pos,
            Err(e) => error(&e),
        },
        Command::Go(args) => match limits_from(&engine.position, &args) {
            Ok(limits) => go(engine, limits),
            Err(e) => error(&e),
        },
        Command::Perft(depth) => perft(&engine.position, depth),
        Command::Stop => engine.stop(),
        Command::PonderHit => engine.ponderhit(),
        Command::Display => display(&engine.position),
        Command::Eval => say(&engine.eval_report()),
        Command::Bench(depth) => {
            if engine.is_searching() {
                return error("cannot run bench during a search");
            }
            crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH));
        }
        Command::Quit | Command::Empty => {}
    }
}

/// Builds the position of a `position` command, or explains why it is bad.
fn set_position(engine: &Engine, fen: Option<&str>, moves: &[String]) -> Result<Position, String> {
    let chess960 = engine.options.chess960;
    let mut pos = Position::from_fen(fen.unwrap_or(STARTPOS), chess960)?;
    for (i, mv) in moves.iter().enumerate() {
        pos.play_uci(mv)
            .map_err(|e| format!("move {} of position: {e}", i + 1))?;
    }
    pos.forget_undo();
    Ok(pos)
}

fn limits_from(pos: &Position, g: &GoArgs) -> Result<Limits, String> {
    let mut searchmoves: Vec<Move> = Vec::new();
    for text in &g.searchmoves {
        let mv = crate::board::moves::parse_uci(pos.board(), text, pos.chess960())
            .map_err(|e| format!("searchmoves: {e}"))?;
        searchmoves.push(mv);
    }
    let ms = |v: Option<i64>| v.map(|t| t.max(0) as u64);
    Ok(Limits {
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
    })
}

fn go(engine: &mut Engine, limits: Limits) {
    if !engine.position.has_legal_move() {
        engine.stop();
        return say("bestmove 0000");
    }
    engine.go(limits, Box::new(UciReporter));
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
