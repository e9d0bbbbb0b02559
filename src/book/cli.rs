//! `cutoff book probe` and `cutoff book build`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use super::polyglot::{self, file::Book};
use crate::board::{Position, STARTPOS};

#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCmd,
}

#[derive(Subcommand)]
enum BookCmd {
    /// Print the book's moves for a position, `<uci move> <weight>`, highest first.
    Probe {
        /// Position (FEN); the start position if absent.
        #[arg(long)]
        fen: Option<String>,
        /// Polyglot `.bin` book.
        #[arg(long)]
        book: PathBuf,
        /// Chess960 castling notation (king takes rook).
        #[arg(long)]
        chess960: bool,
        /// Also print the position's Polyglot key first (`key <hex>`).
        #[arg(long)]
        key: bool,
    },
    /// Build a Polyglot book from PGN games (see docs/book.md).
    #[cfg(feature = "tools")]
    Build {
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
    },
}

pub fn run(args: BookArgs) -> ExitCode {
    let result = match args.command {
        BookCmd::Probe {
            fen,
            book,
            chess960,
            key,
        } => probe(fen.as_deref().unwrap_or(STARTPOS), &book, chess960, key),
        #[cfg(feature = "tools")]
        BookCmd::Build {
            pgn,
            out,
            plies,
            min_games,
        } => {
            let opts = super::build::Options {
                pgn,
                out,
                plies,
                min_games,
            };
            super::build::run(&opts).map(|s| {
                println!(
                    "book: {} games ({} with an unreadable move, used up to it), {} entries, wrote {}",
                    s.games,
                    s.bad_games,
                    s.entries,
                    opts.out.display()
                );
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn probe(fen: &str, path: &std::path::Path, chess960: bool, show_key: bool) -> Result<(), String> {
    let pos = Position::from_fen(fen, chess960)?;
    let book = Book::load(path)?;
    let board = pos.board();
    let key = polyglot::key(board);
    if show_key {
        println!("key {key:016x}");
    }
    for (mv, weight) in polyglot::ranked(board, book.entries(key)) {
        println!("{} {weight}", pos.uci(mv));
    }
    Ok(())
}
