//! The thread pool: search threads started once (and again only when the
//! thread count changes), woken for each search and parked after it.
//!
//! Each thread owns its `ThreadData` (histories, evaluator, buffers), so it
//! keeps what it learned from one search to the next without handing it
//! anywhere; what the threads share is `Shared`, which the pool owns. A
//! thread runs jobs posted to its mailbox: thread 0's job is the whole
//! search (it posts the helpers' jobs itself, see `Team::search`), and the
//! caller's code after the search (the engine prints `bestmove`) runs there
//! too, so the caller never waits for a search.
//!
//! Every search runs here: the engine's `go`, and `bench`, EPD suites,
//! and the lab through `search`, which waits for the result; datagen runs
//! whole games on a pool thread (`start`), searching there move by move.
//!
//! The table is resized in place: that takes `&mut Shared`, which the pool
//! has only while every thread is parked (jobs hold the only other `Arc`s).

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::driver::conclude;
use super::info::{Info, Reporter};
use super::job::{SearchJob, SearchResult};
use super::shared::Shared;
use super::thread::{Task, ThreadData};

/// Stack size of search threads: deep recursion with large frames.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

type Job = Box<dyn FnOnce(&mut ThreadData) + Send>;

enum State {
    Parked,
    Posted(Job),
    Running,
    Quit,
}

/// Where a thread finds its next job; one condition variable serves both
/// sides (the thread waits for a job, the pool for the thread to park).
struct Mailbox {
    state: Mutex<State>,
    changed: Condvar,
}

impl Mailbox {
    fn new() -> Self {
        Self {
            state: Mutex::new(State::Parked),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }

    /// The guard once the thread is parked (or gone).
    fn parked(&self) -> MutexGuard<'_, State> {
        let mut state = self.lock();
        while matches!(*state, State::Posted(_) | State::Running) {
            state = self.wait(state);
        }
        state
    }

    /// Hands `job` to the thread, once it is parked. A thread that has quit
    /// drops the job (its reporter included) unrun.
    fn post(&self, job: Job) {
        let mut state = self.parked();
        if matches!(*state, State::Parked) {
            *state = State::Posted(job);
            self.changed.notify_all();
        }
    }

    fn quit(&self) {
        *self.parked() = State::Quit;
        self.changed.notify_all();
    }

    fn is_busy(&self) -> bool {
        matches!(*self.lock(), State::Posted(_) | State::Running)
    }

    /// The thread's side: the next job, or `None` when told to quit.
    fn next_job(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            match std::mem::replace(&mut *state, State::Running) {
                State::Posted(job) => return Some(job),
                State::Quit => {
                    *state = State::Quit;
                    return None;
                }
                other => {
                    *state = other;
                    state = self.wait(state);
                }
            }
        }
    }

    fn park(&self) {
        *self.lock() = State::Parked;
        self.changed.notify_all();
    }
}

/// A pool thread's life: run jobs on its own data until told to quit.
fn thread_main(mailbox: &Mailbox) {
    // The input thread that started it asked for a short time slice.
    crate::scheduling::restore_slice();
    let mut data = ThreadData::default();
    while let Some(job) = mailbox.next_job() {
        // A job that panics must not leave the pool waiting for it: the
        // thread parks again, on fresh data.
        if panic::catch_unwind(AssertUnwindSafe(|| job(&mut data))).is_err() {
            data = ThreadData::default();
        }
        mailbox.park();
    }
}

struct PoolThread {
    mailbox: Arc<Mailbox>,
    handle: JoinHandle<()>,
}

/// Up to `n` parked threads (fewer if the system refuses more).
fn spawn_threads(n: usize) -> Vec<PoolThread> {
    let mut threads = Vec::with_capacity(n);
    for id in 0..n {
        let mailbox = Arc::new(Mailbox::new());
        let theirs = Arc::clone(&mailbox);
        let spawned = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || thread_main(&theirs));
        match spawned {
            Ok(handle) => threads.push(PoolThread { mailbox, handle }),
            Err(_) => break,
        }
    }
    threads
}

/// The search threads and what they share.
pub struct ThreadPool {
    shared: Arc<Shared>,
    threads: Vec<PoolThread>,
}

impl ThreadPool {
    /// `threads` parked threads sharing `shared`.
    pub fn new(threads: usize, shared: Shared) -> Self {
        Self {
            shared: Arc::new(shared),
            threads: spawn_threads(threads.max(1)),
        }
    }

    /// How many threads search (fewer than asked if the system refused).
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Runs `f` on thread 0 with the team of all threads and returns at
    /// once; `f` is dropped unrun if the pool has no thread (see `threads`).
    pub fn start(&self, f: impl FnOnce(&mut ThreadData, &Team) + Send + 'static) {
        let Some((main, helpers)) = self.threads.split_first() else {
            return;
        };
        let team = Team {
            shared: Arc::clone(&self.shared),
            helpers: helpers.iter().map(|t| Arc::clone(&t.mailbox)).collect(),
        };
        main.mailbox.post(Box::new(move |td| f(td, &team)));
    }

    /// Searches `job` on the pool and waits for the result. What the search
    /// reports reaches `reporter` on the caller's thread, in order, before
    /// this returns (the pool's threads never hold the caller's borrow).
    pub fn search(&self, job: SearchJob, reporter: &mut dyn Reporter) -> SearchResult {
        self.wait();
        self.shared.reset(job.limits.ponder);
        let (tx, rx) = mpsc::channel();
        let progress = reporter.wants_progress();
        self.start(move |td, team| {
            let mut forward = Forward(tx.clone(), progress);
            let result = team.search(td, &job, &mut forward);
            let _ = tx.send(Report::Done(result));
        });
        let mut result = None;
        for report in rx {
            match report {
                Report::Info(info) => reporter.info(&info),
                Report::Currmove(depth, mv, n) => reporter.currmove(depth, &mv, n),
                Report::String(text) => reporter.string(&text),
                Report::Done(r) => result = Some(r),
            }
        }
        self.wait();
        // A search that panicked has sent nothing: it answers no move.
        result.unwrap_or_else(|| SearchResult::none(self.shared.nodes.load(Ordering::Relaxed)))
    }

    /// Forgets every earlier search (`ucinewgame`): the table is emptied and
    /// each thread clears its histories.
    pub fn new_game(&self) {
        self.wait();
        self.clear_hash();
        self.clear_histories();
    }

    /// Empties the table, between searches; as many threads as the pool
    /// has share the work.
    pub fn clear_hash(&self) {
        self.wait();
        self.shared.tt.clear(self.threads());
    }

    /// Waits until every thread is parked (the search, if any, is over).
    pub fn wait(&self) {
        for t in &self.threads {
            drop(t.mailbox.parked());
        }
    }

    /// True while thread 0 has a job: a search (and what follows it) runs.
    pub fn is_busy(&self) -> bool {
        self.threads.first().is_some_and(|t| t.mailbox.is_busy())
    }

    /// Every thread forgets what earlier searches taught it (`ucinewgame`);
    /// each clears its own data, all at once.
    pub fn clear_histories(&self) {
        for t in &self.threads {
            t.mailbox.post(Box::new(ThreadData::clear_histories));
        }
        self.wait();
    }

    /// Resizes the transposition table in place (emptied), between searches;
    /// the threads keep their histories. As many threads as the pool has
    /// write the new table's memory first, each its own part. On an error
    /// the old size stays.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        self.wait();
        let threads = self.threads();
        let shared = Arc::get_mut(&mut self.shared).ok_or("the table is still in use")?;
        shared.tt.resize(mb, threads)
    }

    /// Ends the threads and starts `n` new ones (with fresh data), unless
    /// there are `n` already. Errs if the system refused some.
    pub fn set_threads(&mut self, n: usize) -> Result<(), String> {
        let n = n.max(1);
        if n == self.threads.len() {
            return Ok(());
        }
        self.quit();
        self.threads = spawn_threads(n);
        if self.threads.len() < n {
            return Err(format!(
                "only {} of {n} threads could start",
                self.threads.len()
            ));
        }
        Ok(())
    }

    /// Stops any search, then ends and joins every thread.
    fn quit(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for t in &self.threads {
            t.mailbox.quit();
        }
        for t in self.threads.drain(..) {
            let _ = t.handle.join();
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.quit();
    }
}

/// The threads of one search, as thread 0 sees them: the shared state and
/// the helpers' mailboxes.
pub struct Team {
    shared: Arc<Shared>,
    helpers: Vec<Arc<Mailbox>>,
}

impl Team {
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Searches `job` with `main` as thread 0's data and every helper on
    /// its own; returns when all have stopped.
    pub fn search(
        &self,
        main: &mut ThreadData,
        job: &SearchJob,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let Some(task) = Task::new(job, &self.shared, reporter) else {
            return SearchResult::none(0);
        };
        let task = Arc::new(task);
        let (tx, rx) = mpsc::channel();
        // Under a strength limit thread 0 searches alone: the node budget is
        // one player's, and helpers spending it on trees of their own would
        // leave the main thread shallower the more threads run.
        let helpers = if task.settings.strength.is_some() {
            &[][..]
        } else {
            &self.helpers[..]
        };
        for (i, helper) in helpers.iter().enumerate() {
            let (task, shared, tx) = (Arc::clone(&task), Arc::clone(&self.shared), tx.clone());
            helper.post(Box::new(move |td| {
                let result = td.search(i + 1, &task, &shared, None);
                let _ = tx.send((i + 1, result));
            }));
        }
        drop(tx);
        let mut results = vec![(0, main.search(0, &task, &self.shared, Some(reporter)))];
        // Ends once every helper has sent its result (or panicked).
        results.extend(rx.iter());
        results.sort_by_key(|&(id, _)| id);
        let results = results.into_iter().map(|(_, r)| r).collect();
        conclude(results, &task, &self.shared, reporter)
    }
}

/// A search's reports on their way to the caller of `ThreadPool::search`.
enum Report {
    Info(Info),
    Currmove(u32, String, usize),
    String(String),
    Done(SearchResult),
}

/// The reporter of a pool search: sends each report to the waiting caller,
/// and wants progress if the caller does.
struct Forward(mpsc::Sender<Report>, bool);

impl Reporter for Forward {
    fn wants_progress(&self) -> bool {
        self.1
    }

    fn info(&mut self, info: &Info) {
        let _ = self.0.send(Report::Info(info.clone()));
    }

    fn currmove(&mut self, depth: u32, mv: &str, number: usize) {
        let _ = self.0.send(Report::Currmove(depth, mv.to_string(), number));
    }

    fn string(&mut self, text: &str) {
        let _ = self.0.send(Report::String(text.to_string()));
    }
}
