//! `cutoff datagen --out F --games N ...`: arguments and output.

use std::path::PathBuf;
use std::process::ExitCode;

use super::game::GameConfig;
use super::{Options, run};

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Game file to write or finish (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Games the file holds when done (a resumed run plays only the rest).
    #[arg(long)]
    games: u64,
    /// No new iteration of a move's search after this many nodes.
    #[arg(long, default_value_t = GameConfig::default().soft_nodes)]
    soft_nodes: u64,
    /// A move's search stops at this many nodes.
    #[arg(long, default_value_t = GameConfig::default().hard_nodes)]
    hard_nodes: u64,
    /// Game threads (default: all cores); the output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Random seed: game i of the run depends on (seed, i) alone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start positions, one FEN/EPD per line (default: the start position).
    #[arg(long, conflicts_with = "chess960")]
    openings: Option<PathBuf>,
    /// Start from the 960 Chess960 positions instead.
    #[arg(long)]
    chess960: bool,
    /// Random plies played before the game proper.
    #[arg(long, default_value_t = GameConfig::default().random_plies)]
    random_plies: usize,
    /// Depth of the search that rejects starts scored beyond 1000 cp.
    #[arg(long, default_value_t = GameConfig::default().verify_depth)]
    verify_depth: u32,
    /// Play with the hand-crafted evaluation (as generation 0 was made).
    #[arg(long)]
    hand_crafted: bool,
}

pub fn main(a: DatagenArgs) -> ExitCode {
    let opts = Options {
        out: a.out,
        games: a.games,
        threads: a.threads.unwrap_or_else(cutoff_engine::default_threads),
        seed: a.seed,
        openings: a.openings,
        game: GameConfig {
            soft_nodes: a.soft_nodes,
            hard_nodes: a.hard_nodes,
            random_plies: a.random_plies,
            verify_depth: a.verify_depth,
            chess960: a.chess960,
            hand_crafted: a.hand_crafted,
        },
    };
    match run(&opts) {
        Ok(s) => {
            let per_hour = s.positions as f64 * 3600.0 / s.seconds.max(1e-9);
            println!(
                "datagen: {} games ({} were there before), {} positions in {:.1} s ({per_hour:.0} positions/hour)",
                s.games, s.resumed_from, s.positions, s.seconds
            );
            println!("{}", spent_line(&s, opts.game.soft_nodes));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Where the run's nodes went: per stored position, per move search (against
/// the soft limit, which a started iteration may overshoot) and per game in
/// the searches that checked starts.
fn spent_line(s: &super::Summary, soft_nodes: u64) -> String {
    let per = |nodes: u64, n: u64| nodes as f64 / n.max(1) as f64;
    let total = s.spent.start_nodes + s.spent.move_nodes;
    format!(
        "datagen: {:.0} nodes a stored position; {:.0} a move search ({:.2} x the soft limit {soft_nodes}); {:.0} a game checking starts ({:.1}% of all nodes)",
        per(total, s.positions),
        per(s.spent.move_nodes, s.spent.searches),
        per(s.spent.move_nodes, s.spent.searches) / soft_nodes as f64,
        per(s.spent.start_nodes, s.games),
        100.0 * per(s.spent.start_nodes, total),
    )
}
