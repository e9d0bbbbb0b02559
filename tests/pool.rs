//! The search thread pool: threads keep their histories from one search to
//! the next; `ucinewgame` clears them, a `Hash` change keeps them, a
//! `Threads` change starts new threads. Searches on one thread to a fixed
//! depth are deterministic, so node counts tell whether the histories were
//! kept: with the table emptied between two searches, they are all that
//! carries over.

use crate::common;

use common::{Session, field};
use cutoff_engine::board::Position;
use cutoff_engine::search::info::{Info, Reporter, Silent};
use cutoff_engine::search::{SearchJob, SearchResult, Settings, Shared, ThreadPool};
use cutoff_engine::time::Limits;

const FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const DEPTH: u32 = 8;

fn job() -> SearchJob {
    let root = Position::from_fen(FEN, false).unwrap();
    SearchJob::new(root, Limits::depth(DEPTH), Settings::default())
}

fn search_on(pool: &ThreadPool) -> SearchResult {
    let result = pool.search(job(), &mut Silent::default());
    assert!(result.best.is_some());
    result
}

/// The same search on an empty table (the histories stay as they are).
fn search_again(pool: &ThreadPool) -> u64 {
    pool.clear_hash();
    search_on(pool).nodes
}

fn fresh_pool(hash_mb: usize) -> ThreadPool {
    ThreadPool::new(1, Shared::with_hash(hash_mb).unwrap())
}

/// `new_game` forgets everything: a used pool then searches as a new one
/// does (bench, EPD suites and datagen rely on it).
#[test]
fn a_new_game_searches_as_a_fresh_pool_does() {
    let fresh = search_on(&fresh_pool(16));
    let used = fresh_pool(16);
    search_on(&used);
    let again = search_on(&used);
    assert_ne!(
        again.nodes, fresh.nodes,
        "the second search learned nothing"
    );
    used.new_game();
    let after = search_on(&used);
    assert_eq!(
        (after.nodes, after.best, after.score),
        (fresh.nodes, fresh.best, fresh.score)
    );
}

/// What the search reports reaches the caller of `ThreadPool::search`, in
/// order, and the last line is the answer's.
#[test]
fn a_pool_search_forwards_every_report() {
    let mut infos: Vec<cutoff_engine::search::info::Info> = Vec::new();
    let result = fresh_pool(16).search(job(), &mut infos);
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert_eq!(depths.last(), Some(&DEPTH));
    let root = Position::from_fen(FEN, false).unwrap();
    assert_eq!(infos.last().unwrap().pv[0], root.uci(result.best.unwrap()));
}

/// Counts the reports it is given; wants progress or not as told.
struct Counting {
    wants: bool,
    infos: usize,
}

impl Reporter for Counting {
    fn info(&mut self, _info: &Info) {
        self.infos += 1;
    }

    fn wants_progress(&self) -> bool {
        self.wants
    }
}

/// A reporter that wants no progress (self-play's) is sent none, and the
/// search it watches is the same search.
#[test]
fn a_reporter_that_wants_no_progress_gets_none_and_the_same_search() {
    let run = |wants| {
        let mut r = Counting { wants, infos: 0 };
        let result = fresh_pool(16).search(job(), &mut r);
        (r.infos, (result.nodes, result.best, result.score))
    };
    let (shown, quiet) = (run(true), run(false));
    assert!(shown.0 >= DEPTH as usize, "{} infos", shown.0);
    assert_eq!(quiet.0, 0);
    assert_eq!(quiet.1, shown.1);
}

#[test]
fn histories_survive_between_searches_until_cleared() {
    let pool = fresh_pool(16);
    let first = search_on(&pool).nodes;
    let kept = search_again(&pool);
    assert_ne!(
        kept, first,
        "the second search learned nothing from the first"
    );
    // `ucinewgame`: an empty table and fresh histories search as at first.
    pool.clear_histories();
    assert_eq!(search_again(&pool), first);
}

#[test]
fn a_hash_resize_keeps_the_histories() {
    let mut pool = fresh_pool(16);
    search_on(&pool);
    pool.resize_hash(8).unwrap();
    assert_eq!(pool.shared().tt.size_mb(), 8);
    let resized = search_on(&pool).nodes;
    let fresh = search_on(&fresh_pool(8)).nodes;
    assert_ne!(resized, fresh, "the resize lost the histories");
    pool.clear_histories();
    assert_eq!(search_again(&pool), fresh);
}

#[test]
fn a_threads_change_starts_new_threads() {
    let mut pool = fresh_pool(16);
    let first = search_on(&pool).nodes;
    // The same count: the threads stay, with what they learned.
    pool.set_threads(1).unwrap();
    assert_ne!(search_again(&pool), first);
    pool.set_threads(3).unwrap();
    assert_eq!(pool.threads(), 3);
    assert!(search_on(&pool).best.is_some());
    // New threads, fresh histories.
    pool.set_threads(1).unwrap();
    assert_eq!(pool.threads(), 1);
    assert_eq!(search_again(&pool), first);
}

/// Nodes of the last `info` line of a `go depth N` on the binary.
fn nodes_of_search(s: &mut Session, go: &str) -> u64 {
    s.send(&format!("position fen {FEN}"));
    s.send(go);
    let (lines, _) = s.wait_bestmove();
    let info = lines.iter().rev().find(|l| l.contains(" pv "));
    match info.and_then(|l| field(l, "nodes")?.parse().ok()) {
        Some(n) => n,
        None => s.fail("no info line with nodes"),
    }
}

#[test]
fn uci_histories_last_until_ucinewgame_and_across_a_hash_change() {
    let go = format!("go depth {DEPTH}");
    let mut s = Session::start();
    let first = nodes_of_search(&mut s, &go);
    s.send("setoption name Clear Hash");
    let kept = nodes_of_search(&mut s, &go);
    assert_ne!(kept, first);
    s.send("ucinewgame");
    assert_eq!(nodes_of_search(&mut s, &go), first);
    // A new table of another size, the histories of the search before.
    s.send("setoption name Hash value 8");
    let resized = nodes_of_search(&mut s, &go);
    s.send("ucinewgame");
    let fresh = nodes_of_search(&mut s, &go);
    assert_ne!(resized, fresh);
    assert_eq!(s.quit().code(), Some(0));
}

/// Threads of the engine process: the input thread and the pool's.
#[cfg(target_os = "linux")]
fn process_threads(s: &Session) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn uci_threads_are_started_once_and_again_on_a_threads_change() {
    let mut s = Session::start();
    s.sync();
    assert_eq!(process_threads(&s), 2);
    for _ in 0..3 {
        nodes_of_search(&mut s, "go depth 4");
    }
    assert_eq!(process_threads(&s), 2, "a search left threads behind");
    s.send("setoption name Threads value 3");
    s.sync();
    assert_eq!(process_threads(&s), 4);
    nodes_of_search(&mut s, "go depth 6");
    s.send("setoption name Threads value 1");
    s.sync();
    assert_eq!(process_threads(&s), 2);
    // A search running at `quit`: stopped, its threads joined, exit 0.
    s.send("setoption name Threads value 2");
    s.send("go infinite");
    assert_eq!(s.quit().code(), Some(0));
}
