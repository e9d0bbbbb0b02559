//! Long work (compare, ordering, ablation) runs in a thread of its own; the
//! page polls its state by id. A job the page stops polling is cancelled
//! through its stop flag, and finished jobs are forgotten after a while.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value as Json;

use super::limits::{KEEP_FINISHED, LIMITS};

/// What the page sees of a job (`GET /api/jobs/ID`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Status {
    pub id: u64,
    pub kind: String,
    /// `running`, `done`, `failed` or `cancelled`.
    pub state: &'static str,
    /// What runs now, e.g. "depth 3: alphabeta".
    pub progress: String,
    /// Steps finished and in all (rows, positions or configurations).
    pub done: usize,
    pub total: usize,
    /// The work so far: nodes searched (moves played), read as the page polls.
    pub nodes: u64,
    /// The job's node budget (0: none), and the nodes it is expected to
    /// take in all, once the first searches allow a guess.
    pub budget: u64,
    pub estimate: Option<u64>,
    /// Time since the job started (until it ended).
    pub elapsed_ms: u64,
    /// The table's rows so far (the CLI's JSON objects).
    pub rows: Vec<Json>,
    /// A second table or reference values, by job kind.
    pub extra: Json,
    pub error: Option<String>,
}

/// One job: its status, its stop flag, when the page last asked.
pub struct Job {
    status: Mutex<Status>,
    stop: Arc<AtomicBool>,
    seen: Mutex<Instant>,
    nodes: Arc<AtomicU64>,
    started: Instant,
}

/// The job's side: report progress, check the stop flag.
#[derive(Clone)]
pub struct Handle(Arc<Job>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking job cannot leave a status half-written in a way that
    // matters: keep serving it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Handle {
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.0.stop.clone()
    }

    /// The job's node counter: the searches add to it as they go.
    pub fn nodes(&self) -> Arc<AtomicU64> {
        self.0.nodes.clone()
    }

    pub fn stopped(&self) -> bool {
        self.0.stop.load(Ordering::Relaxed)
    }

    /// Changes the status (rows, progress, counts) under the lock.
    pub fn update(&self, f: impl FnOnce(&mut Status)) {
        f(&mut lock(&self.0.status));
    }
}

/// The table of jobs.
#[derive(Default)]
pub struct Jobs {
    table: Mutex<HashMap<u64, Arc<Job>>>,
    next: Mutex<u64>,
}

impl Jobs {
    /// Starts `work` in a thread; an error if too many jobs run already.
    pub fn start<F>(&self, kind: &str, total: usize, budget: u64, work: F) -> Result<u64, String>
    where
        F: FnOnce(&Handle) -> Result<(), String> + Send + 'static,
    {
        let mut table = lock(&self.table);
        let running = table.values().filter(|j| j.running()).count();
        if running >= LIMITS.running_jobs {
            return Err(format!(
                "{running} jobs are running already (at most {}); wait or cancel one",
                LIMITS.running_jobs
            ));
        }
        let id = {
            let mut next = lock(&self.next);
            *next += 1;
            *next
        };
        let job = Arc::new(Job {
            status: Mutex::new(Status {
                id,
                kind: kind.to_string(),
                state: "running",
                total,
                budget,
                extra: Json::Null,
                ..Status::default()
            }),
            stop: Arc::new(AtomicBool::new(false)),
            seen: Mutex::new(Instant::now()),
            nodes: Arc::new(AtomicU64::new(0)),
            started: Instant::now(),
        });
        let handle = Handle(job.clone());
        std::thread::Builder::new()
            .name(format!("lab-job-{id}"))
            .spawn(move || finish(&handle, catch_unwind(AssertUnwindSafe(|| work(&handle)))))
            .map_err(|e| format!("cannot start a job thread: {e}"))?;
        table.insert(id, job);
        Ok(id)
    }

    /// The status of job `id` (a poll: keeps the job alive).
    pub fn status(&self, id: u64) -> Option<Status> {
        let job = lock(&self.table).get(&id)?.clone();
        *lock(&job.seen) = Instant::now();
        Some(job.snapshot())
    }

    /// Asks job `id` to stop; its status says `cancelled` once it has.
    pub fn cancel(&self, id: u64) -> Option<Status> {
        let job = lock(&self.table).get(&id)?.clone();
        job.stop.store(true, Ordering::Relaxed);
        Some(job.snapshot())
    }

    /// Cancels running jobs nobody polls, forgets finished ones nobody reads.
    pub fn reap(&self, poll_timeout: Duration) {
        let mut table = lock(&self.table);
        table.retain(|_, job| {
            let idle = lock(&job.seen).elapsed();
            if job.running() {
                if idle > poll_timeout {
                    job.stop.store(true, Ordering::Relaxed);
                }
                true
            } else {
                idle < KEEP_FINISHED
            }
        });
    }
}

impl Job {
    fn running(&self) -> bool {
        lock(&self.status).state == "running"
    }

    /// The status with the node count and the time as they are now.
    fn snapshot(&self) -> Status {
        let mut s = lock(&self.status).clone();
        s.nodes = s.nodes.max(self.nodes.load(Ordering::Relaxed));
        if s.state == "running" {
            s.elapsed_ms = self.started.elapsed().as_millis() as u64;
        }
        s
    }
}

/// Records how the work ended: done, failed, cancelled (stopped on request
/// or for want of polls), or a panic (a bug; reported, never fatal).
fn finish(handle: &Handle, result: std::thread::Result<Result<(), String>>) {
    let stopped = handle.stopped();
    let job = &handle.0;
    let (nodes, ms) = (job.nodes.load(Ordering::Relaxed), job.started.elapsed());
    handle.update(|s| {
        s.nodes = s.nodes.max(nodes);
        s.elapsed_ms = ms.as_millis() as u64;
    });
    handle.update(|s| match result {
        Ok(Ok(())) => {
            s.state = "done";
            s.progress = "done".into();
        }
        Ok(Err(_)) if stopped => {
            s.state = "cancelled";
            s.progress = "cancelled".into();
        }
        Ok(Err(e)) => {
            s.state = "failed";
            s.error = Some(e);
        }
        Err(_) => {
            s.state = "failed";
            s.error = Some("internal error (a bug in the lab): the job panicked".into());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_finished(jobs: &Jobs, id: u64) -> Status {
        loop {
            let s = jobs.status(id).unwrap();
            if s.state != "running" {
                return s;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn jobs_finish_fail_and_cancel() {
        let jobs = Jobs::default();
        let ok = jobs.start("t", 1, 0, |h| {
            h.update(|s| s.done = 1);
            Ok(())
        });
        let s = wait_finished(&jobs, ok.unwrap());
        assert_eq!((s.state, s.done), ("done", 1));
        let bad = jobs.start("t", 1, 0, |_| Err("no".into())).unwrap();
        assert_eq!(wait_finished(&jobs, bad).error.as_deref(), Some("no"));
        let slow = jobs
            .start("t", 1, 0, |h| {
                while !h.stopped() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err("stopped".into())
            })
            .unwrap();
        jobs.cancel(slow);
        assert_eq!(wait_finished(&jobs, slow).state, "cancelled");
        assert!(jobs.status(999).is_none());
    }

    #[test]
    fn unpolled_jobs_are_cancelled() {
        let jobs = Jobs::default();
        let id = jobs
            .start("t", 1, 0, |h| {
                while !h.stopped() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err("stopped".into())
            })
            .unwrap();
        jobs.reap(Duration::ZERO);
        assert_eq!(wait_finished(&jobs, id).state, "cancelled");
    }
}
