//! `bench`: a fixed set of positions searched to a fixed depth from a fresh
//! state. Its node count is the signature of the search (any change in search
//! behaviour changes it) and its speed is the engine's nps. OpenBench scans the
//! last line, `Bench: <N> nodes <M> nps`, so nothing may follow it.

use std::time::Instant;

use crate::board::Position;
use crate::search::info::Silent;
use crate::search::limits::Limits;
use crate::search::{SearchJob, Settings, Shared, ThreadPool};

/// Hash size of each bench search (fixed, so the node count is too).
pub const BENCH_HASH_MB: usize = 16;

/// Depth each bench position is searched to.
pub const DEFAULT_DEPTH: u32 = 11;

/// Openings, middlegames (the Bratko-Kopec test), tactics (from WAC) and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - -",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - -",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq -",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - -",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - -",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - -",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - -",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - -",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - -",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - -",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - -",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - -",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - -",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - -",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq -",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - -",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - -",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - -",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - -",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - -",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - -",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq -",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - -",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -",
    "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq -",
    "r1b1r1k1/pp1n1pbp/1qp3p1/3p4/1B1P4/Q3PN2/PP2BPPP/R4RK1 w - -",
    "6r1/3Pn1qk/p1p1P1rp/2Q2p2/2P5/1P4P1/P3R2P/5RK1 b - -",
    "3rr1k1/pp3pp1/4b3/8/2P1B2R/6QP/P3q1P1/5R1K w - -",
    "2Q2n2/2R4p/1p1qpp1k/8/3P3P/3B2P1/5PK1/r7 w - -",
    "1k6/ppp4p/1n2pq2/1N2Rb2/2P2Q2/8/P4KPP/3r1B2 b - -",
    "r2q3n/ppp2pk1/3p4/5Pr1/2NP1Qp1/2P2pP1/PP3K2/4R2R w - -",
    "r3kbnr/p4ppp/2p1p3/8/Q1B3b1/2N1B3/PP3PqP/R3K2R w KQkq -",
    "r1b2rk1/ppqn1p1p/2n1p1p1/2b3N1/2N5/PP1BP3/1B3PPP/R2QK2R w KQ -",
    "QR2rq1k/2p3p1/3p1pPp/8/4P3/8/P1r3PP/1R4K1 b - -",
    "2r1r2k/1q3ppp/p2Rp3/2p1P3/6QB/p3P3/bP3PPP/3R2K1 w - -",
    "r1b1r1k1/pp1nqp2/2p1p1pp/8/4N3/P1Q1P3/1P3PPP/1BRR2K1 w - -",
    "6k1/p1B1b2p/2b3r1/2p5/4p3/1PP1N1Pq/P2R1P2/3Q2K1 b - -",
    "6k1/2p3p1/1p1p1nN1/1B1P4/4PK2/8/2r3b1/7R w - -",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/8/8/4k3/8/R3K3 w - - 0 1",
    "1k1K4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "3k4/8/8/8/8/8/3PK3/r7 b - - 0 1",
    "8/5pk1/6p1/8/1r5P/5PK1/8/R7 w - - 0 1",
    "8/8/2b5/4k3/8/3KB3/5N2/8 w - - 0 1",
];

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub ms: u64,
}

/// Searches every bench position to `depth` and returns the node total;
/// with `hand_crafted`, on the hand-crafted evaluation instead of the network.
pub fn measure(depth: u32, hand_crafted: bool) -> BenchResult {
    let mut settings = Settings::default();
    if hand_crafted {
        settings.network = None;
    }
    let shared = Shared::with_hash(BENCH_HASH_MB).expect("a 16 MB table fits");
    // One thread, the pool's, as in a game.
    let pool = ThreadPool::new(1, shared);
    let started = Instant::now();
    let mut nodes = 0;
    for fen in POSITIONS {
        let Ok(pos) = Position::from_fen(fen, false) else {
            continue;
        };
        // Each position from a fresh state: an empty table, no histories.
        pool.new_game();
        let job = SearchJob::new(pos, Limits::depth(depth), settings.clone());
        nodes += pool.search(job, &mut Silent::default()).nodes;
    }
    BenchResult {
        nodes,
        ms: started.elapsed().as_millis() as u64,
    }
}

/// Runs the bench and prints its summary line.
pub fn run(depth: u32, hand_crafted: bool) {
    let r = measure(depth, hand_crafted);
    let nps = r.nodes * 1000 / r.ms.max(1);
    println!("{} positions, depth {depth}, {} ms", POSITIONS.len(), r.ms);
    println!("Bench: {} nodes {nps} nps", r.nodes);
}

/// `cutoff bench [DEPTH] [--hand-crafted]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    depth: Option<u32>,
    /// Use the hand-crafted evaluation instead of the network.
    #[arg(long)]
    hand_crafted: bool,
}

pub fn main(a: BenchArgs) -> std::process::ExitCode {
    run(a.depth.unwrap_or(DEFAULT_DEPTH), a.hand_crafted);
    std::process::ExitCode::SUCCESS
}
