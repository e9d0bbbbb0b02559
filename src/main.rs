//! The `cutoff` command line: UCI by default, tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use cutoff::board::{Position, STARTPOS, perft};

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
    /// Count the leaves of the legal move tree.
    Perft {
        depth: u32,
        /// Position (FEN, X-FEN or Shredder-FEN); the start position if absent.
        #[arg(long)]
        fen: Option<String>,
        /// Chess960 castling (king takes rook in the output).
        #[arg(long)]
        chess960: bool,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
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
        }) => return run_perft(depth, fen.as_deref(), chess960, divide),
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
