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
    /// UCI: list the lab's technique switches (`Search_*`) in the answer to
    /// `uci` too; `setoption` accepts them either way.
    #[arg(long)]
    lab_options: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Search the bench positions to a fixed depth; prints `Bench: <N> nodes <M> nps`.
    Bench {
        /// Search depth per position.
        depth: Option<u32>,
        /// Use the hand-crafted evaluation instead of the network.
        #[arg(long)]
        hand_crafted: bool,
    },
    /// Run an EPD test suite (bm/am/dm); prints failures and `solved k/n`.
    Epd {
        file: String,
        /// Exit non-zero if fewer than N positions are solved.
        #[arg(long, value_name = "N")]
        need: Option<usize>,
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
    /// Self-play games written as whole-game records, the network's training data (see docs/nnue.md).
    Datagen(cutoff::train::datagen::cli::DatagenArgs),
    /// What game files hold: games, positions, positions the trainer keeps.
    Games(cutoff::train::games::cli::GamesArgs),
    /// Texel-tune the evaluation weights on datagen or EPD data (see docs/eval.md).
    Tune(TuneArgs),
    /// Train the evaluation network on datagen data (see docs/nnue.md), or
    /// fit the win/draw/loss model (`train wdl`, see docs/wdl.md).
    Train(TrainCmd),
    /// The search laboratory: minimax vs alpha-beta, move ordering, ablation, tree drawings.
    Lab(cutoff::lab::cli::LabArgs),
    /// Opening books: probe a Polyglot book, or build one from PGN games.
    Book(cutoff::book::cli::BookArgs),
    /// Syzygy tablebases: `tb probe --path P [--fen F]` (see docs/tablebase.md).
    Tb(cutoff::tablebase::cli::TbArgs),
}

#[derive(clap::Args)]
struct TuneArgs {
    /// Datagen binary file, or text/EPD (`.epd`, `.txt`) with results.
    #[arg(long)]
    data: std::path::PathBuf,
    /// Full-batch Adam epochs.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Rust source file to write the tuned weights to (checked before the
    /// run; `src/eval/weights.rs` is the one the engine compiles in).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Adam step size (centipawns).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// L2 pull towards the starting weights (per cp^2 of change).
    #[arg(long, default_value_t = 0.0)]
    reg: f64,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Start from the hand-set weights rather than the compiled-in ones.
    #[arg(long)]
    from_hand: bool,
    /// Fraction of the data (the last games) held out to measure generalisation.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
}

/// `train [ARGS]` trains the network; `train wdl ...` fits the WDL model.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct TrainCmd {
    #[command(subcommand)]
    tool: Option<TrainTool>,
    #[command(flatten)]
    net: Option<cutoff::train::nnue::cli::TrainArgs>,
}

#[derive(Subcommand)]
enum TrainTool {
    /// Fit the win/draw/loss model of UCI_ShowWDL to datagen results.
    Wdl(cutoff::train::wdl::cli::WdlArgs),
}

/// `cutoff ... | head -1`: once the reader has gone, `println!` panics on the
/// next line. That is not an error of ours; end quietly with success.
fn exit_quietly_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if text.starts_with("failed printing to stdout") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_on_closed_stdout();
    let cli = Cli::parse();
    match cli.command {
        None | Some(Cmd::Uci) => cutoff::uci::run(cli.lab_options),
        Some(Cmd::Bench {
            depth,
            hand_crafted,
        }) => cutoff::bench::run(depth.unwrap_or(cutoff::bench::DEFAULT_DEPTH), hand_crafted),
        Some(Cmd::Epd {
            file,
            need,
            movetime,
            threads,
            hash,
        }) => match cutoff::epd::run(&file, movetime, threads, hash) {
            Ok(s) if s.solved < need.unwrap_or(0) => {
                eprintln!(
                    "error: solved {}, fewer than --need {}",
                    s.solved,
                    need.unwrap_or(0)
                );
                return ExitCode::FAILURE;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
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
        Some(Cmd::Datagen(args)) => return cutoff::train::datagen::cli::main(args),
        Some(Cmd::Games(args)) => return cutoff::train::games::cli::main(args),
        Some(Cmd::Tune(args)) => return run_tune(args),
        Some(Cmd::Train(TrainCmd {
            tool: Some(TrainTool::Wdl(args)),
            ..
        })) => return cutoff::train::wdl::cli::run(args),
        Some(Cmd::Train(TrainCmd {
            net: Some(args), ..
        })) => return cutoff::train::nnue::cli::main(args),
        Some(Cmd::Train(_)) => return ExitCode::FAILURE, // clap requires one
        Some(Cmd::Lab(args)) => return cutoff::lab::cli::run(args),
        Some(Cmd::Book(args)) => return cutoff::book::cli::run(args),
        Some(Cmd::Tb(args)) => return cutoff::tablebase::cli::run(args),
    }
    ExitCode::SUCCESS
}

/// A tuning run takes hours: a missing data file or an output that cannot
/// be written must fail before it, not after.
fn check_tune_paths(a: &TuneArgs) -> Result<(), String> {
    let data = &a.data;
    if !data.is_file() {
        let why = if data.exists() {
            "not a file"
        } else {
            "no such file"
        };
        return Err(format!(
            "cannot read training data {}: {why}",
            data.display()
        ));
    }
    std::fs::File::open(data).map_err(|e| format!("cannot read {}: {e}", data.display()))?;
    let out = &a.out;
    if out.is_dir() {
        return Err(format!("cannot write {}: it is a folder", out.display()));
    }
    let existed = out.exists();
    // Appending nothing leaves an existing file as it is.
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if !existed {
        let _ = std::fs::remove_file(out);
    }
    Ok(())
}

fn run_tune(a: TuneArgs) -> ExitCode {
    if let Err(e) = check_tune_paths(&a) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let opts = cutoff::train::tune::Options {
        data: a.data,
        epochs: a.epochs,
        out: a.out,
        lambda: a.lambda,
        rate: a.rate,
        reg: a.reg,
        threads: a.threads.unwrap_or_else(cutoff::default_threads),
        from_hand: a.from_hand,
        holdout: a.holdout,
    };
    match cutoff::train::tune::run(&opts) {
        Ok(s) => {
            println!(
                "tune: {} positions, K = {:.4}, loss {:.6} -> {:.6}, wrote {}",
                s.positions,
                s.k,
                s.loss_before,
                s.loss_after,
                opts.out.display()
            );
            if let Some((before, after)) = s.holdout {
                println!("tune: held-out loss {before:.6} -> {after:.6}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
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
