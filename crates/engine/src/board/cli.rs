//! `cutoff perft DEPTH [--fen F] [--divide]` and `cutoff perft --epd FILE`.

use std::process::ExitCode;
use std::time::Instant;

use super::{Position, STARTPOS, perft, perft_suite};

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
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
}

pub fn main(a: PerftArgs) -> ExitCode {
    match (a.epd, a.depth) {
        (Some(file), _) => run_perft_suite(&file, a.max_depth, a.chess960),
        (None, Some(depth)) => run_perft(depth, a.fen.as_deref(), a.chess960, a.divide),
        (None, None) => ExitCode::FAILURE, // clap requires one of them
    }
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
