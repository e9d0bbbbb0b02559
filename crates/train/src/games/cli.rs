//! `cutoff games FILE...`: what game files hold (games, stored positions,
//! positions the trainer's default filter keeps), and any damage.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::nnue::data::{Filter, load};

#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// Game files (plain or `.xz`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Tab-separated: file, games, positions, kept.
    #[arg(long)]
    tsv: bool,
}

pub fn main(a: GamesArgs) -> ExitCode {
    let mut ok = true;
    if a.tsv {
        println!("file\tgames\tpositions\tkept");
    }
    for file in &a.files {
        match load(std::slice::from_ref(file), &Filter::default()) {
            Ok((_, counts)) => {
                let stored =
                    counts.kept + counts.opening + counts.in_check + counts.noisy + counts.score;
                if a.tsv {
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
