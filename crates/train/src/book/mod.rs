//! Opening books built from PGN games (`cutoff book build`), in the
//! Polyglot format the engine reads (`cutoff_engine::book::polyglot`).
//!
//! `build` turns games, read by the game records' PGN reader
//! ([`crate::games::pgn`]), into a book.

pub mod build;

use std::path::PathBuf;
use std::process::ExitCode;

/// Build a Polyglot book from PGN games (see docs/book.md).
#[derive(clap::Args)]
pub struct BuildArgs {
    /// PGN files.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// The book to write.
    #[arg(long)]
    out: PathBuf,
    /// Moves from the first plies of each game only.
    #[arg(long, default_value_t = 20)]
    plies: usize,
    /// Leave out moves played in fewer games than this.
    #[arg(long, default_value_t = 1)]
    min_games: u32,
}

/// `cutoff book build`.
pub fn run(args: BuildArgs) -> ExitCode {
    let opts = build::Options {
        pgn: args.pgn,
        out: args.out,
        plies: args.plies,
        min_games: args.min_games,
    };
    match build::run(&opts) {
        Ok(s) => {
            println!(
                "book: {} games ({} with an unreadable move, used up to it), {} entries, wrote {}",
                s.games,
                s.bad_games,
                s.entries,
                opts.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
