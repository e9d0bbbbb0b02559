//! `cutoff games FILE...`: what game files hold (games, stored positions,
//! positions the trainer's default filter keeps), and any damage.
//! `cutoff games import` turns PGN games with engine scores into game
//! records; `cutoff games export` writes game files in other trainers'
//! formats; `cutoff games rescore` searches their positions again with
//! this build's network.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::datagen::rescore;
use crate::games::export::{self, Format};
use crate::games::import;
use crate::games::positions::{Filter, load};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GamesArgs {
    #[command(subcommand)]
    tool: Option<GamesTool>,
    /// Game files (plain or `.xz`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Tab-separated: file, games, positions, kept.
    #[arg(long)]
    tsv: bool,
}

#[derive(Subcommand, Debug)]
enum GamesTool {
    /// Turn PGN games with engine scores (fastchess's `{+0.35/12 0.1s}`
    /// comments, as OpenBench datagen returns them) into game records.
    Import(ImportArgs),
    /// Write game files in viriformat (whole games) or bulletformat
    /// (positions, filtered as the trainer filters).
    Export(ExportArgs),
    /// The same games with the trainable positions searched again by this
    /// build's network (moves and results kept).
    Rescore(RescoreArgs),
}

#[derive(clap::Args, Debug)]
struct RescoreArgs {
    /// The game file to write (uncompressed); one left by a stopped run is finished.
    #[arg(long)]
    out: PathBuf,
    /// Game files to rescore (plain or `.xz`), read in order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rescore only the first N games of the files.
    #[arg(long)]
    games: Option<usize>,
    /// No new iteration of a position's search after this many nodes.
    #[arg(long, default_value_t = 2000)]
    soft_nodes: u64,
    /// A position's search stops at this many nodes.
    #[arg(long, default_value_t = 50_000)]
    hard_nodes: u64,
    /// Plies at the start of each game left unscored (the trainer skips them).
    #[arg(long, default_value_t = Filter::default().skip_plies)]
    skip_plies: usize,
    /// Search threads (default: all cores); the output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct ImportArgs {
    /// PGN files.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// The game file to write (anew; `.xz` compresses it).
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct ExportArgs {
    /// The trainer's format to write.
    #[arg(long, value_enum)]
    format: Format,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
    /// Game files (plain or `.xz`); bulletformat also takes 32-byte record files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// bulletformat: skip this many plies at the start of every game.
    #[arg(long, default_value_t = Filter::default().skip_plies)]
    skip_plies: usize,
    /// bulletformat: skip positions scored beyond this (centipawns).
    #[arg(long, default_value_t = Filter::default().max_score)]
    max_score: i32,
    /// Read the export back with the format's crate and compare every
    /// position, score and result with the input.
    #[arg(long)]
    check: bool,
}

pub fn main(a: GamesArgs) -> ExitCode {
    match a.tool {
        Some(GamesTool::Import(args)) => run_import(args),
        Some(GamesTool::Export(args)) => run_export(args),
        Some(GamesTool::Rescore(args)) => run_rescore(args),
        None => summarise(&a.files, a.tsv),
    }
}

fn run_import(a: ImportArgs) -> ExitCode {
    match import::run(&a.pgn, &a.out) {
        Ok(summary) => {
            for line in &summary.dropped {
                eprintln!("{line}");
            }
            println!("{}", summary.describe(&a.out));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_rescore(a: RescoreArgs) -> ExitCode {
    let opts = rescore::Options {
        files: a.files,
        out: a.out,
        games: a.games,
        soft_nodes: a.soft_nodes,
        hard_nodes: a.hard_nodes,
        skip_plies: a.skip_plies,
        threads: a.threads.unwrap_or_else(cutoff_engine::default_threads),
    };
    match rescore::run(&opts) {
        Ok(s) => {
            println!(
                "{}: {} games ({} were there before), {} positions rescored ({} scores changed) in {:.1} s",
                opts.out.display(),
                s.games,
                s.resumed_from,
                s.rescored,
                s.changed,
                s.seconds
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_export(a: ExportArgs) -> ExitCode {
    let filter = Filter {
        skip_plies: a.skip_plies,
        max_score: a.max_score,
    };
    let done = export::run(a.format, &a.files, &a.out, &filter).and_then(|summary| {
        println!("{}: {}", a.out.display(), summary.describe());
        if a.check {
            let checked = export::check(a.format, &a.files, &a.out, &filter)?;
            println!(
                "checked: {} games, {} positions read back with the format's crate agree with the input (board, side to move, score, result)",
                checked.games, checked.positions
            );
        }
        Ok(())
    });
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn summarise(files: &[PathBuf], tsv: bool) -> ExitCode {
    let mut ok = true;
    if tsv {
        println!("file\tgames\tpositions\tkept");
    }
    for file in files {
        match load(std::slice::from_ref(file), &Filter::default()) {
            Ok((_, counts)) => {
                let stored =
                    counts.kept + counts.opening + counts.in_check + counts.noisy + counts.score;
                if tsv {
                    println!(
                        "{}\t{}\t{stored}\t{}",
                        file.display(),
                        counts.games,
                        counts.kept
                    );
                } else {
                    println!("{}: {}", file.display(), counts.describe());
                }
                for d in &counts.damage {
                    eprintln!("error: {d}");
                    ok = false;
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
