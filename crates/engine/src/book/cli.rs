//! `cutoff book probe` (`cutoff book build` is the training crate's).

use std::path::PathBuf;
use std::process::ExitCode;

use super::polyglot::{self, file::Book};
use crate::board::{Position, STARTPOS};

/// Print the book's moves for a position, `<uci move> <weight>`, highest first.
#[derive(clap::Args)]
pub struct ProbeArgs {
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
}

pub fn run(args: ProbeArgs) -> ExitCode {
    let fen = args.fen.as_deref().unwrap_or(STARTPOS);
    match probe(fen, &args.book, args.chess960, args.key) {
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
