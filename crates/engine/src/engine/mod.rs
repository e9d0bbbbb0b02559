//! The engine: the current game position, the options, and the search
//! threads (a `ThreadPool`).
//!
//! The UCI layer drives it; it never calls back into UCI except through the
//! `Reporter` it is handed for each search. A search runs on the pool's
//! threads (large stacks), so the caller stays free to answer `isready` and
//! `stop`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub mod debug_log;
pub mod options;

use crate::board::Position;
use crate::search::info::Reporter;
use crate::search::{SearchJob, SearchResult, Shared, ThreadPool};
use crate::time::{ClockLag, Limits, NodeClock};
use options::Options;

pub struct Engine {
    position: Position,
    /// Set when the last `position` command gave nothing to search (a bad
    /// FEN): `go` then answers `bestmove 0000` rather than a move for an
    /// older position the GUI no longer has.
    no_position: Option<String>,
    options: Options,
    /// The search threads, parked between searches, and the table.
    pool: ThreadPool,
    /// When the last `go` arrived: `ponderhit` is timed from it.
    go_time: Instant,
    /// Set by the search thread just before it prints `bestmove`: from then
    /// on the GUI may send anything, even while the thread is still ending.
    done: Arc<AtomicBool>,
    /// Set by `stop`: lets an infinite or ponder search print `bestmove`.
    /// Not the search's own stop flag, which it also sets when it ends.
    released: Arc<AtomicBool>,
    /// What moves cost the clock beyond their plans, learned over the game.
    lag: ClockLag,
    /// Milliseconds from the last `go` to its `bestmove`, set by the search
    /// thread: what the engine itself measured for that move.
    last_elapsed: Arc<AtomicU64>,
    /// `nodestime`: the game's clocks in nodes.
    node_clock: NodeClock,
    /// Nodes the last search searched, set by the search thread (0 for a
    /// move answered without one).
    last_nodes: Arc<AtomicU64>,
    /// `Debug Log File`: where the UCI layer logs its lines, if anywhere.
    debug_log: debug_log::DebugLog,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Self {
        let options = Options::default();
        let shared = Shared::with_hash(options.hash_mb()).unwrap_or_default();
        Self {
            position: Position::default(),
            no_position: None,
            pool: ThreadPool::new(options.settings().threads, shared),
            options,
            go_time: Instant::now(),
            done: Arc::new(AtomicBool::new(true)),
            released: Arc::new(AtomicBool::new(true)),
            lag: ClockLag::default(),
            last_elapsed: Arc::new(AtomicU64::new(0)),
            node_clock: NodeClock::default(),
            last_nodes: Arc::new(AtomicU64::new(0)),
            debug_log: debug_log::DebugLog::default(),
        }
    }

    /// The position `go` searches (the start position until one is set).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Why there is nothing to search, after a bad `position` command.
    pub fn no_position(&self) -> Option<&str> {
        self.no_position.as_deref()
    }

    /// The position for the next `go` (from a good `position` command).
    pub fn set_position(&mut self, pos: Position) {
        self.position = pos;
        self.no_position = None;
    }

    /// A bad `position` command: `go` answers `bestmove 0000` until the next
    /// good one, rather than a move for a position the GUI no longer has.
    pub fn forget_position(&mut self, why: String) {
        self.no_position = Some(why);
    }

    /// True while a search is running (or waiting for `stop`), that is until
    /// its `bestmove` is out. A search that has ended is waited for here.
    pub fn is_searching(&mut self) -> bool {
        if self.done.load(Ordering::SeqCst) || !self.pool.is_busy() {
            self.pool.wait();
            return false;
        }
        true
    }

    /// The `Debug Log File` log, which the UCI layer writes to.
    pub fn debug_log(&self) -> &debug_log::DebugLog {
        &self.debug_log
    }

    /// The search threads and the table (for tests and tools).
    pub fn pool(&self) -> &ThreadPool {
        &self.pool
    }

    /// The `eval` command's text for the current position.
    pub fn eval_report(&self) -> String {
        let net = self.options.network().map(|n| &**n);
        crate::eval::report(self.position.board(), net)
    }

    /// Starts a search of the current position on the pool's threads. The
    /// reporter receives the info lines and, at the end, the best move. With
    /// `infinite` or `ponder`, the best move is held back until `stop` or
    /// `ponderhit`. A book move is answered at once, except in analysis
    /// (`UCI_AnalyseMode`).
    pub fn go(&mut self, mut limits: Limits, mut reporter: Box<dyn Reporter>) {
        let start = Instant::now();
        self.stop();
        let mut settings = self.options.settings();
        let last_nodes = self.last_nodes.swap(0, Ordering::SeqCst);
        if let Some(per_ms) = settings.nodes_per_ms {
            // Time in nodes: the GUI's wall clock has nothing to teach.
            let side = self.position.side_to_move();
            self.node_clock
                .start_move(&mut limits, side, per_ms, last_nodes);
            self.lag.forget_move();
        } else {
            let last_elapsed = self.last_elapsed.load(Ordering::SeqCst);
            self.lag.start_move(
                &self.position,
                &limits,
                settings.move_overhead,
                last_elapsed,
            );
            settings.clock_lag = self.lag.ms();
        }
        if self.no_position.is_none()
            && !self.options.analyse_mode()
            && let Some((text, mv)) =
                crate::book::answer(self.options.book(), &self.position, &limits)
        {
            // A book move needs no search thread: answer at once.
            self.lag.forget_move();
            reporter.string(&text);
            return reporter.bestmove(Some(&mv), None);
        }
        if self.pool.threads() == 0 {
            reporter.string("error: no search thread could be started");
            return reporter.bestmove(None, None);
        }
        // A GUI may set both `Skill Level` and `UCI_Elo`: say which plays.
        if let Some(text) = self.options.strength_text() {
            reporter.string(&text);
        }
        self.go_time = start;
        self.pool.shared().reset(limits.ponder);
        self.released.store(false, Ordering::SeqCst);
        self.done.store(false, Ordering::SeqCst);
        let (done, released) = (Arc::clone(&self.done), Arc::clone(&self.released));
        let no_position = self.no_position.clone();
        let last_elapsed = Arc::clone(&self.last_elapsed);
        let last_nodes = Arc::clone(&self.last_nodes);
        let job = SearchJob {
            root: self.position.clone(),
            limits,
            settings,
            start,
        };
        self.pool.start(move |td, team| {
            let result = match no_position {
                None => team.search(td, &job, reporter.as_mut()),
                Some(why) => {
                    reporter.string(&format!("error: no position to search ({why})"));
                    SearchResult::none(0)
                }
            };
            // UCI forbids `bestmove` before `stop`/`ponderhit` in these
            // modes, even when the search has ended by itself.
            while (job.limits.infinite || team.shared().pondering.load(Ordering::SeqCst))
                && !released.load(Ordering::SeqCst)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let (best, ponder) = answer(&job.root, &result);
            last_elapsed.store(start.elapsed().as_millis() as u64, Ordering::SeqCst);
            last_nodes.store(result.nodes, Ordering::SeqCst);
            done.store(true, Ordering::SeqCst);
            reporter.bestmove(best.as_deref(), ponder.as_deref());
        });
    }

    /// Stops the running search (if any) and waits for its `bestmove`.
    pub fn stop(&mut self) {
        self.released.store(true, Ordering::SeqCst);
        self.pool.shared().stop.store(true, Ordering::SeqCst);
        self.wait();
    }

    /// Waits for the running search to finish by itself.
    pub fn wait(&mut self) {
        self.pool.wait();
    }

    /// The opponent played the expected move: the ponder search becomes a
    /// normal one, its clock starting now.
    pub fn ponderhit(&mut self) {
        let shared = self.pool.shared();
        if shared.pondering.load(Ordering::SeqCst) {
            let ms = self.go_time.elapsed().as_millis() as u64;
            shared.ponderhit_ms.store(ms, Ordering::SeqCst);
            shared.pondering.store(false, Ordering::SeqCst);
        }
    }

    /// Forgets everything learned in earlier searches (`ucinewgame`): the
    /// table and every thread's histories.
    pub fn new_game(&mut self) {
        self.stop();
        self.lag.forget_move();
        self.node_clock.forget();
        self.pool.new_game();
    }

    /// Clears the transposition table (`Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.stop();
        self.pool.clear_hash();
    }
}

/// The best and ponder moves of `result` in UCI notation.
fn answer(root: &Position, result: &SearchResult) -> (Option<String>, Option<String>) {
    let best = result.best.map(|m| root.uci(m));
    let ponder = result.best.zip(result.ponder).map(|(b, p)| {
        let mut after = root.clone();
        after.play(b);
        after.uci(p)
    });
    (best, ponder)
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
