//! The `cutoff` command line: UCI by default, tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use cutoff::board::{Position, STARTPOS, perft, perft_suite};

#[derive(Parser)]
#[command(
    name = "cutoff",
    version,
    about = "A UCI chess engine built on alpha-beta search"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Search the bench positions to a fixed depth; prints `Bench: <N> nodes <M> nps`.
    Bench {
        /// Search depth per position.
        depth: Option<u32>,
    },
    /// Run an EPD test suite (bm/am); prints failures and `solved k/n`.
    Epd {
        file: String,
        /// Search time per position, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Count the leaves of the legal move tree, or check a perft suite (--epd).
    Perft {
        /// Depth to count (not needed with --epd).
        #[arg(required_unless_present = "epd")]
        depth: Option<u32>,
        /// Position (FEN, X-FEN or Shredder-FEN); the start position if absent.
        #[arg(long, conflicts_with = "epd")]
        fen: Option<String>,
        /// Chess960 castling (king takes rook in the output).
        #[arg(long)]
        chess960: bool,
        /// Print the count below each root move.
        #[arg(long, conflicts_with = "epd")]
        divide: bool,
        /// Check every line of a perft EPD file (`<FEN> ;D1 n ;D2 n ...`).
        #[arg(long, value_name = "FILE")]
        epd: Option<String>,
        /// With --epd: check only the depths up to this one.
        #[arg(long, requires = "epd")]
        max_depth: Option<u32>,
    },
    /// The search laboratory: minimax vs alpha-beta, move ordering, ablation, tree drawings.
    Lab(cutoff::lab::cli::LabArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Cmd::Uci) => cutoff::uci::run(),
        Some(Cmd::Bench { depth }) => {
            cutoff::bench::run(depth.unwrap_or(cutoff::bench::DEFAULT_DEPTH))
        }
        Some(Cmd::Epd {
            file,
            movetime,
            threads,
            hash,
        }) => {
            if let Err(e) = cutoff::epd::run(&file, movetime, threads, hash) {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        Some(Cmd::Perft {
            depth,
            fen,
            chess960,
            divide,
            epd,
            max_depth,
        }) => {
            return match (epd, depth) {
                (Some(file), _) => run_perft_suite(&file, max_depth, chess960),
                (None, Some(depth)) => run_perft(depth, fen.as_deref(), chess960, divide),
                (None, None) => ExitCode::FAILURE, // clap requires one of them
            };
        }
        Some(Cmd::Lab(args)) => return cutoff::lab::cli::run(args),
    }
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, fen: Option<&str>, chess960: bool, divide: bool) -> ExitCode {
    let pos = match Position::from_fen(fen.unwrap_or(STARTPOS), chess960) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(pos.board(), depth) {
            println!("{}: {n}", pos.uci(mv));
            total += n;
        }
        total
    } else {
        perft::perft(pos.board(), depth)
    };
    let secs = started.elapsed().as_secs_f64();
    println!(
        "Time: {:.3} s ({:.0} Mnps)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("Nodes searched: {total}");
    ExitCode::SUCCESS
}

/// Checks a perft suite file; fails on any mismatch (refused positions are
/// reported but are not failures: the library is right to refuse them).
fn run_perft_suite(path: &str, max_depth: Option<u32>, chess960: bool) -> ExitCode {
    let started = Instant::now();
    let summary = match perft_suite::run_file(path, max_depth, chess960) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{path}: {} positions, {} depth checks passed, {} mismatches, {} refused, {:.1} s",
        summary.positions, summary.checks, summary.mismatches, summary.refused, secs
    );
    println!("Nodes searched: {}", summary.nodes);
    if summary.mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
