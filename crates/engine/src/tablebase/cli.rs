//! `cutoff tb probe`: tablebase results of positions, for checks against
//! other probers (tools/syzygy_check.py) and by hand.

use std::io::BufRead;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use cozy_chess::Board;

use super::Tablebase;

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    cmd: TbCmd,
}

#[derive(Subcommand, Debug)]
enum TbCmd {
    /// Print `wdl W dtz D best M` per position (W from -2 to 2 as Syzygy
    /// numbers it, halfmove clock ignored; `none` when not in the tables).
    Probe {
        /// Folders of tables, separated by `:`.
        #[arg(long)]
        path: String,
        /// The position; without it, FENs are read from stdin, one a line.
        #[arg(long)]
        fen: Option<String>,
    },
}

pub fn run(args: TbArgs) -> ExitCode {
    let TbCmd::Probe { path, fen } = args.cmd;
    let tb = match Tablebase::open(&path) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match fen {
        Some(fen) => println!("{}", probe_line(&tb, &fen)),
        None => {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if !line.trim().is_empty() {
                    println!("{}", probe_line(&tb, line.trim()));
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// One position's answer line.
pub fn probe_line(tb: &Tablebase, fen: &str) -> String {
    let board = match Board::from_fen(fen, false) {
        Ok(b) => b,
        Err(e) => return format!("error bad FEN: {e:?}"),
    };
    let Some(wdl) = tb.probe_wdl(&board) else {
        return "none".into();
    };
    let mut out = format!("wdl {}", wdl.value());
    if let Some(root) = tb.probe_root(&board, 0) {
        out += &format!(" dtz {}", root.dtz);
        let best = super::root::select(&root.moves, true);
        if let Some(e) = best.first() {
            out += &format!(" best {}", e.mv);
        }
    }
    out
}
