//! The UCI protocol: reads commands, calls the engine, prints its answers.
//!
//! The main thread reads stdin line by line; searches run on their own thread
//! (see `engine`), so `stop`, `isready` and `quit` are answered at once while
//! the engine thinks. Bad input is answered with one `info string` line
//! (what the engine does with each kind is in the README).

pub mod command;
pub mod options;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::board::{Move, Position, STARTPOS};
use crate::engine::Engine;
use crate::engine::debug_log::DebugLog;
use crate::eval::wdl::{self, Wdl};
use crate::search::info::{Bound, Info, Outcome, Reporter};
use crate::search::score::UciScore;
use crate::time::Limits;
use command::{Command, GoArgs};

pub const ENGINE_NAME: &str = concat!("Cutoff ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Cutoff developers";

/// Where UCI output goes: stdout in the engine, any writer in tests (the
/// fuzz test drives a `Session` in-process and reads what it wrote). Shared
/// with the search thread, so whole lines never interleave. Each line also
/// goes to the `Debug Log File`, if one is open.
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<dyn Write + Send>>,
    log: DebugLog,
}

impl Output {
    pub fn stdout() -> Self {
        Self::to(io::stdout())
    }

    pub fn to(writer: impl Write + Send + 'static) -> Self {
        Self {
            writer: Arc::new(Mutex::new(writer)),
            log: DebugLog::default(),
        }
    }

    /// Writes one line and flushes it (GUIs read line by line). It is
    /// logged first, holding the output: the log keeps the output's order,
    /// and whatever the GUI sends in answer is logged after it. If the
    /// output is closed the GUI is gone: end quietly.
    pub fn say(&self, line: &str) {
        let mut out = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        self.log.output(line);
        if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    }

    fn error(&self, text: &str) {
        let text = match text.char_indices().nth(MAX_ERROR_CHARS) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text.to_string(),
        };
        self.say(&format!("info string error: {text}"));
    }
}

/// Prints search output in UCI format, centipawns normalised
/// (`UciScore::normalised`).
pub struct UciReporter {
    out: Output,
    /// Material of the root (`eval::wdl::material`) when `UCI_ShowWDL` is
    /// on: scores then carry win/draw/loss chances.
    wdl_material: Option<i32>,
}

impl UciReporter {
    pub fn new(out: Output, wdl_material: Option<i32>) -> Self {
        Self { out, wdl_material }
    }

    /// ` wdl W D L` when asked for, else nothing. A result the search
    /// knows for certain (a finished game, a root drawn by rule, the
    /// tablebases) and a mate are certain; other scores go through the model.
    fn wdl(&self, score: UciScore, certain: Option<Outcome>) -> String {
        let Some(material) = self.wdl_material else {
            return String::new();
        };
        let Wdl { win, draw, loss } = match (certain, score) {
            (Some(Outcome::Win), _) => Wdl::WIN,
            (Some(Outcome::Draw), _) => Wdl::DRAW,
            (Some(Outcome::Loss), _) => Wdl::LOSS,
            (None, UciScore::Mate(m)) => wdl::of_mate(m),
            (None, UciScore::Cp(cp)) => wdl::of_cp(cp, material),
        };
        format!(" wdl {win} {draw} {loss}")
    }
}

impl Reporter for UciReporter {
    fn info(&mut self, i: &Info) {
        // Users read normalised centipawns; the model reads the raw score.
        let score = match i.score.normalised() {
            UciScore::Cp(cp) => format!("cp {cp}"),
            UciScore::Mate(m) => format!("mate {m}"),
        };
        let score = score + &self.wdl(i.score, i.certain);
        if i.pv.is_empty() {
            // A finished game: only its score.
            return self
                .out
                .say(&format!("info depth {} score {score}", i.depth));
        }
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let tbhits = i.tbhits.map_or(String::new(), |n| format!(" tbhits {n}"));
        self.out.say(&format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {}{tbhits} time {} pv {}",
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
        self.out.say(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }

    fn string(&mut self, text: &str) {
        self.out.say(&format!("info string {text}"));
    }

    fn bestmove(&mut self, best: Option<&str>, ponder: Option<&str>) {
        match (best, ponder) {
            (Some(b), Some(p)) => self.out.say(&format!("bestmove {b} ponder {p}")),
            (Some(b), None) => self.out.say(&format!("bestmove {b}")),
            _ => self.out.say("bestmove 0000"),
        }
    }
}

/// The longest error line: the parts that echo input are clipped, and this
/// catches any message that echoes a long FEN or option name whole.
const MAX_ERROR_CHARS: usize = 2 * command::ECHO_CHARS;

/// Runs the UCI loop on stdin until `quit` or end of input. With
/// `lab_options`, `uci` also lists the technique switches `Search_*`.
pub fn run(lab_options: bool) {
    // So that `stop` and `quit` get a CPU at once from busy search threads.
    crate::scheduling::shorten_slice();
    let output = Output::stdout();
    // As Stockfish does: a newcomer sees the engine is waiting; GUIs skip
    // lines before `uciok` that they do not know.
    output.say(&format!("{ENGINE_NAME} by {ENGINE_AUTHOR}"));
    let mut session = Session::new(output);
    session.lab_options = lab_options;
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    // Bytes, not `lines()`: a line that is not UTF-8 is bad input to answer,
    // not the end of the session.
    while matches!(input.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
        let line = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        if !session.line(&line) {
            break;
        }
    }
    session.engine.stop();
}

/// The engine, where its answers go, and the options that wait for the
/// running search to end.
pub struct Session {
    pub engine: Engine,
    out: Output,
    pending: Vec<options::Setting>,
    /// `uci` lists the lab's `Search_*` switches too (they are always
    /// accepted; listed, they would crowd a GUI's option dialog).
    pub lab_options: bool,
}

impl Session {
    pub fn new(out: Output) -> Self {
        let engine = Engine::new();
        // What is printed goes to the engine's log too.
        let out = Output {
            log: engine.debug_log().clone(),
            ..out
        };
        Self {
            engine,
            out,
            pending: Vec::new(),
            lab_options: false,
        }
    }

    /// Answers one input line; false after `quit` (the caller then stops the
    /// engine and ends).
    pub fn line(&mut self, line: &str) -> bool {
        self.engine
            .debug_log()
            .input(line.trim_end_matches(['\n', '\r']));
        match command::parse(line) {
            Ok(Command::Quit) => return false,
            Ok(cmd) => self.handle(cmd),
            Err(e) => self.out.error(&e),
        }
        true
    }

    /// Carries out one command.
    pub fn handle(&mut self, cmd: Command) {
        if matches!(cmd, Command::Go(_)) && self.engine.is_searching() {
            // UCI wants `stop` first; the running search answers its
            // `bestmove` before the new one starts, and the GUI is told.
            self.engine.stop();
            self.out.say(
                "info string warning: go during a search: the running search was stopped first",
            );
        }
        self.apply_pending();
        let (engine, out) = (&mut self.engine, &self.out);
        match cmd {
            Command::Uci => identify(out, self.lab_options),
            Command::IsReady => out.say("readyok"),
            Command::UciNewGame => engine.new_game(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => set_position(engine, out, fen.as_deref(), &moves),
            Command::BadPosition(e) => {
                out.error(&format!("{e}; no position until the next good one"));
                engine.forget_position(e);
            }
            Command::Go(args) => go(engine, out, &args),
            Command::Stop => engine.stop(),
            Command::PonderHit => engine.ponderhit(),
            Command::Debug(_) => {}
            Command::Register => out.say("info string registration is not needed"),
            Command::Bench(mut spec) => {
                if engine.is_searching() {
                    return out.error("cannot run bench during a search");
                }
                // The network in use, as Stockfish's bench does.
                spec.network = engine.options().network().cloned();
                if let Err(e) = crate::bench::run(&spec, &mut |line| out.say(line)) {
                    out.error(&e);
                }
            }
            Command::Perft(_) | Command::Display | Command::Eval => show(engine, out, &cmd),
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
            Err(e) => self.out.error(&e),
        }
    }

    fn apply_pending(&mut self) {
        if self.pending.is_empty() || self.engine.is_searching() {
            return;
        }
        for setting in std::mem::take(&mut self.pending) {
            if let Err(e) = options::apply(&mut self.engine, setting) {
                self.out.error(&e);
            }
        }
    }
}

fn identify(out: &Output, lab_options: bool) {
    out.say(&format!("id name {ENGINE_NAME}"));
    out.say(&format!("id author {ENGINE_AUTHOR}"));
    for line in options::declarations(lab_options) {
        out.say(&line);
    }
    out.say("uciok");
}

/// The commands that look at the current position: `go perft`, `d`, `eval`.
fn show(engine: &Engine, out: &Output, cmd: &Command) {
    if let Some(why) = engine.no_position() {
        return out.error(&format!("no position ({why})"));
    }
    let pos = engine.position();
    match cmd {
        Command::Perft(depth) => perft(out, pos, *depth),
        Command::Display => display(out, pos),
        _ => out.say(&engine.eval_report()),
    }
}

/// Sets up a `position`. A bad FEN leaves no position; an illegal move
/// leaves the position before it (as Stockfish does).
fn set_position(engine: &mut Engine, out: &Output, fen: Option<&str>, moves: &[String]) {
    let chess960 = engine.options().chess960();
    let mut pos = match Position::from_fen(fen.unwrap_or(STARTPOS), chess960) {
        Ok(pos) => pos,
        Err(e) => {
            out.error(&format!("{e}; no position until the next good one"));
            engine.forget_position(format!("bad FEN: {e}"));
            return;
        }
    };
    for (i, mv) in moves.iter().enumerate() {
        if let Err(e) = pos.play_uci(mv) {
            out.error(&format!(
                "move {} of position: {e}; kept the position before it",
                i + 1
            ));
            break;
        }
    }
    pos.forget_undo();
    engine.set_position(pos);
}

/// Starts a search. Every `go` gets a `bestmove`: bad parameters are
/// skipped with one warning line.
fn go(engine: &mut Engine, out: &Output, args: &GoArgs) {
    let (mut limits, mut warnings) = limits_from(engine.position(), args);
    warnings.splice(0..0, args.warnings.iter().cloned());
    if let Some(why) = unbounded_by_mistake(engine.position(), args, &limits) {
        // Else only `stop` would end it, and a GUI that sent it waits for ever.
        warnings.push(format!("{why}: searching depth 1 instead"));
        (limits.depth, limits.nodes) = (Some(1), None);
    }
    if !warnings.is_empty() {
        out.say(&format!(
            "info string warning: go: ignored {}",
            warnings.join("; ")
        ));
    }
    let material = engine
        .options()
        .show_wdl()
        .then(|| wdl::material(engine.position().board()));
    engine.go(limits, Box::new(UciReporter::new(out.clone(), material)));
}

/// Why a `go` would search until `stop` although it asked for a limit: it
/// named parameters (not just `infinite`, `ponder` or `searchmoves`, as an
/// analysis `go` does), but none bounds the search of the side to move; or
/// `nodes 0`, which would answer a move it never searched. `None` when the
/// search ends as asked.
fn unbounded_by_mistake(pos: &Position, g: &GoArgs, limits: &Limits) -> Option<String> {
    if limits.nodes == Some(0) {
        return Some("'nodes 0' searches nothing".into());
    }
    let bounded = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.mate.is_some()
        || limits.clock_of(pos.side_to_move()).is_some();
    let analysis = GoArgs {
        infinite: g.infinite,
        ponder: g.ponder,
        searchmoves: g.searchmoves.clone(),
        ..GoArgs::default()
    };
    let asked_for_a_limit = *g != analysis;
    (asked_for_a_limit && !bounded && !g.infinite && !g.ponder)
        .then(|| "no depth, nodes, movetime, mate or clock of the side to move".into())
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
        soft_nodes: None,
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

fn perft(out: &Output, pos: &Position, depth: u32) {
    let started = std::time::Instant::now();
    let divide = crate::board::perft::divide(pos.board(), depth.max(1));
    let mut total = 0;
    for (mv, n) in divide {
        out.say(&format!("{}: {n}", pos.uci(mv)));
        total += n;
    }
    let ms = started.elapsed().as_millis();
    out.say("");
    out.say(&format!("Nodes searched: {total}"));
    out.say(&format!("Time: {ms} ms"));
}

/// The `d` command: the board as text, its FEN and key.
fn display(out: &Output, pos: &Position) {
    let b = pos.board();
    let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
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
            text.push_str(&format!(" | {c}"));
        }
        text.push_str(&format!(
            " | {}\n +---+---+---+---+---+---+---+---+\n",
            rank + 1
        ));
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\n");
    text.push_str(&format!("Fen: {}\n", pos.fen()));
    text.push_str(&format!("Key: {:016X}\n", pos.key()));
    let checkers: Vec<String> = b.checkers().iter().map(|s| s.to_string()).collect();
    text.push_str(&format!("Checkers: {}", checkers.join(" ")));
    out.say(&text);
}
