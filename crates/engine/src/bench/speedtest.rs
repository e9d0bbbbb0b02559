//! `speedtest`: the positions of `bench` searched for a fixed time each with
//! chosen threads and table, as the moves of one session: the throughput
//! (nodes a second) to compare machines with.

use std::time::Instant;

use super::{Limit, POSITIONS, Spec};
use crate::board::Position;
use crate::search::info::Silent;
use crate::search::{SearchJob, Shared, ThreadPool};

/// Totals of one speedtest run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeedResult {
    pub positions: usize,
    /// Milliseconds each position was searched.
    pub movetime: u64,
    pub nodes: u64,
    /// Milliseconds of the whole run (nothing is cleared between positions).
    pub ms: u64,
    /// The table's fill after each search (per mille): highest and mean.
    pub hashfull_max: u32,
    pub hashfull_mean: u32,
}

/// Searches each built-in position for an equal share of `seconds` with
/// `threads` threads and a table of `hash_mb` MB, one after the other as
/// the moves of a session (the table and the histories kept), and returns
/// the totals: the machine's throughput with those settings.
pub fn speedtest(threads: usize, hash_mb: usize, seconds: u64) -> Result<SpeedResult, String> {
    let spec = Spec {
        hash_mb,
        threads,
        limit: Limit::Movetime((seconds * 1000 / POSITIONS.len() as u64).max(1)),
        ..Spec::default()
    };
    spec.check()?;
    let Limit::Movetime(movetime) = spec.limit else {
        unreachable!("the limit set above")
    };
    let pool = ThreadPool::new(threads, Shared::with_hash(hash_mb)?);
    if pool.threads() < threads {
        return Err(format!(
            "speedtest: only {} of {threads} threads could start",
            pool.threads()
        ));
    }
    let (limits, settings) = (spec.limits(), spec.settings());
    let started = Instant::now();
    let (mut nodes, mut hashfull) = (0, Vec::new());
    for (i, fen) in POSITIONS.iter().enumerate() {
        let seconds_left = (POSITIONS.len() - i) as u64 * movetime / 1000;
        let left = format!(" positions searched, about {seconds_left} s left");
        super::progress::show("speedtest", i, POSITIONS.len(), &left);
        let Ok(pos) = Position::from_fen(fen, false) else {
            continue;
        };
        let job = SearchJob::new(pos, limits.clone(), settings.clone());
        nodes += pool.search(job, &mut Silent::default()).nodes;
        hashfull.push(pool.shared().tt.hashfull());
    }
    super::progress::show("speedtest", POSITIONS.len(), POSITIONS.len(), "");
    let ms = started.elapsed().as_millis() as u64;
    Ok(SpeedResult {
        positions: hashfull.len(),
        movetime,
        nodes,
        ms,
        hashfull_max: hashfull.iter().copied().max().unwrap_or(0),
        hashfull_mean: hashfull.iter().sum::<u32>() / (hashfull.len().max(1) as u32),
    })
}

/// `cutoff speedtest [THREADS] [HASH] [SECONDS]`.
#[derive(clap::Args, Debug)]
pub struct SpeedtestArgs {
    /// Search threads (default: every logical processor).
    threads: Option<usize>,
    /// Transposition table in MB (default: 64 per thread).
    hash: Option<usize>,
    /// Seconds in all, shared equally among the positions (default 150).
    seconds: Option<u64>,
}

/// Default length of a speedtest, in seconds.
pub const SPEEDTEST_SECONDS: u64 = 150;

pub fn speedtest_main(a: SpeedtestArgs) -> std::process::ExitCode {
    use crate::engine::options::{MAX_HASH_MB, MAX_THREADS};
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = a.threads.unwrap_or(cpus.min(MAX_THREADS as usize));
    let hash = a.hash.unwrap_or((64 * threads).min(MAX_HASH_MB as usize));
    let seconds = a.seconds.unwrap_or(SPEEDTEST_SECONDS);
    println!("Threads: {threads}");
    println!("Hash: {hash} MB");
    println!(
        "Positions: {}, {} ms each",
        POSITIONS.len(),
        (seconds * 1000 / POSITIONS.len() as u64).max(1)
    );
    match speedtest(threads, hash, seconds) {
        Ok(r) => {
            println!("Total time: {} ms", r.ms);
            println!("Total nodes: {}", r.nodes);
            println!(
                "Hashfull (per mille): max {}, mean {}",
                r.hashfull_max, r.hashfull_mean
            );
            println!("Nodes/second: {}", r.nodes * 1000 / r.ms.max(1));
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::from(2)
        }
    }
}
