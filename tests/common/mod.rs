//! A UCI session with the real `cutoff` binary over stdin/stdout.
//!
//! Lines are read on a helper thread into a channel, so every wait has a
//! timeout: an engine that hangs fails the test (with the transcript) instead
//! of blocking it forever.

#![allow(dead_code)] // each test file uses a different part of the helper

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use cutoff_engine::board::{Position, moves};
use cutoff_engine::search::info::Reporter;
use cutoff_engine::search::{SearchJob, SearchResult, Settings, Shared, ThreadPool};
use cutoff_engine::time::Limits;

/// One search on a pool of its own (`settings.threads` threads, a table of
/// `hash_mb` MB), as bench, EPD suites and the lab search; the pool is
/// returned so that its table can be looked at.
pub fn search_on_new_pool(
    pos: &Position,
    limits: &Limits,
    settings: &Settings,
    hash_mb: usize,
    reporter: &mut dyn Reporter,
) -> (SearchResult, ThreadPool) {
    let pool = ThreadPool::new(settings.threads, Shared::with_hash(hash_mb).unwrap());
    let job = SearchJob::new(pos.clone(), limits.clone(), settings.clone());
    (pool.search(job, reporter), pool)
}

/// Generous: the test machine may be busy compiling. Only a hang reaches it.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The line the engine prints on start, as Stockfish does.
pub const BANNER: &str = concat!(
    "Cutoff ",
    env!("CARGO_PKG_VERSION"),
    " by the Cutoff developers"
);

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received, for failure messages.
    transcript: Vec<String>,
}

impl Session {
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// Starts the binary with command-line arguments (`--lab-options`).
    pub fn start_with(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start cutoff");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut session = Self {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        };
        // The banner comes before any command; the tests start after it.
        if session.next_line() != BANNER {
            session.fail(&format!("the first line should be '{BANNER}'"));
        }
        session
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
        self.transcript.push(format!("> {line}"));
    }

    /// Sends raw bytes (for garbage input that is not UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
        self.transcript.push("> <EOF>".into());
    }

    /// The next line of output, failing the test after `TIMEOUT`.
    pub fn next_line(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.transcript.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => self.fail("timed out waiting for output"),
            Err(RecvTimeoutError::Disconnected) => self.fail("the engine closed its output"),
        }
    }

    /// Every line printed within `wait`: to check that something is *not*
    /// printed once the engine's own output says it could have been. A
    /// correct engine cannot fail such a check by chance.
    pub fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        let mut out = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            let Ok(line) = self.lines.recv_timeout(left) else {
                break;
            };
            self.transcript.push(line.clone());
            out.push(line);
        }
        out
    }

    /// Reads lines up to and including the first one satisfying `done`;
    /// returns them all.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.next_line();
            let stop = done(&line);
            out.push(line);
            if stop {
                return out;
            }
        }
    }

    /// Sends `isready` and returns every line printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command and returns what it printed (up to the next `readyok`).
    pub fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// Sends a command that must be answered with exactly one error line.
    pub fn expect_one_error(&mut self, command: &str) -> String {
        let out = self.ask(command);
        let errors = out
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        if out.len() != 1 || errors != 1 {
            self.fail(&format!(
                "'{command}' should print exactly one 'info string error:' line"
            ));
        }
        out[0].clone()
    }

    /// The FEN of the engine's current position, from `d`.
    pub fn fen(&mut self) -> String {
        self.field_of_d("Fen: ")
    }

    /// The hash key of the engine's current position, from `d`.
    pub fn key(&mut self) -> String {
        self.field_of_d("Key: ")
    }

    fn field_of_d(&mut self, prefix: &str) -> String {
        let out = self.ask("d");
        match out.iter().find_map(|l| l.strip_prefix(prefix)) {
            Some(v) => v.to_string(),
            None => self.fail(&format!("no '{prefix}' line in the output of d")),
        }
    }

    /// Waits for `bestmove` and returns (all lines, the best move).
    pub fn wait_bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.read_until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_default()
            .to_string();
        (lines, best)
    }

    /// Sends `quit` and waits for the process to exit.
    pub fn quit(mut self) -> ExitStatus {
        self.send("quit");
        self.wait_exit()
    }

    /// Waits (at most `TIMEOUT`) for the process to exit by itself.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let started = Instant::now();
        while started.elapsed() < TIMEOUT {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.fail("the engine did not exit")
    }

    pub fn fail(&self, why: &str) -> ! {
        let tail = self.transcript.len().saturating_sub(60);
        panic!(
            "{why}\n--- transcript (last lines) ---\n{}",
            self.transcript[tail..].join("\n")
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True if `mv` is a legal move (UCI notation) in the position `fen`.
pub fn is_legal(fen: &str, mv: &str, chess960: bool) -> bool {
    Position::from_fen(fen, chess960)
        .is_ok_and(|pos| moves::parse_uci(pos.board(), mv, chess960).is_ok())
}

/// The value following `key` in a whitespace-separated line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == key)?;
    words.next()
}
