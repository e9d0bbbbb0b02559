//! `cutoff lab ...`: argument parsing and output (aligned tables, or JSON
//! Lines with `--json`: one object per table row).

use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use super::alphabeta::{self, Cutoff};
use super::chess::{ChessGame, ChessOptions, EvalKind, MoveOrder};
use super::explicit::ExplicitTree;
use super::game::Game;
use super::tictactoe::TicTacToe;
use super::tree::Recorder;
use super::values::format_value;
use super::{PUBLISHED_FEN, ablate, chart, compare, ordering, scores, svg};

#[derive(Args, Debug)]
pub struct LabArgs {
    #[command(subcommand)]
    command: LabCmd,
}

/// Options shared by the chess experiments.
#[derive(Args, Debug, Clone)]
struct ChessArgs {
    /// Position (FEN); the published comparison's position if absent.
    #[arg(long, default_value = PUBLISHED_FEN)]
    fen: String,
    /// Leaf evaluation: classic material values or the engine's evaluation.
    #[arg(long, value_enum, default_value_t = Eval::Material)]
    eval: Eval,
    /// Reproduce the published python-chess code: its move order, strict
    /// cut-off tests and mate as a flat infinity.
    #[arg(long)]
    published: bool,
    /// Print JSON Lines instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum Eval {
    Material,
    Full,
}

#[derive(Subcommand, Debug)]
enum LabCmd {
    /// Minimax, alpha-beta, alpha-beta + ordering, + table and iterative
    /// deepening, and the engine, for every depth up to --depth.
    Compare {
        #[command(flatten)]
        chess: ChessArgs,
        /// Deepest search, in plies (1-7).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=7))]
        depth: u32,
        /// Also draw nodes against depth (log scale) into this SVG file.
        #[arg(long)]
        chart: Option<String>,
        /// Only the two textbook algorithms.
        #[arg(long)]
        textbook_only: bool,
    },
    /// The value of every root move, each searched --depth plies below it.
    Scores {
        #[command(flatten)]
        chess: ChessArgs,
        /// Plies searched below each root move (0-8).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=8))]
        depth: u32,
    },
    /// Cut-off statistics of engine, random and oracle move ordering against
    /// the Knuth-Moore minimal tree; on --fen, or on the bench positions.
    Ordering {
        /// One position; the first --positions bench positions if absent.
        #[arg(long)]
        fen: Option<String>,
        /// How many bench positions (from the first), without --fen.
        #[arg(long, default_value_t = 8)]
        positions: usize,
        /// Search depth, in plies (1-6).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=6))]
        depth: u32,
        /// Leaf evaluation: classic material values or the engine's evaluation.
        #[arg(long, value_enum, default_value_t = Eval::Material)]
        eval: Eval,
        /// Seed of the random ordering.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The bench positions with each engine search technique switched off in turn.
    Ablate {
        /// Search depth, in plies (1-20).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// How many bench positions (from the first).
        #[arg(long, default_value_t = 12)]
        positions: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw the alpha-beta tree (SVG) of a chess position, a textbook tree
    /// written as text, or tic-tac-toe.
    Tree {
        /// Chess position (with --depth 1-3).
        #[arg(long, conflicts_with_all = ["tree", "tictactoe"])]
        fen: Option<String>,
        /// A tree as text, e.g. "max(min(3,5),min(2,1))".
        #[arg(long, conflicts_with = "tictactoe")]
        tree: Option<String>,
        /// Tic-tac-toe after these moves (cells a1..c3, "" for the empty board).
        #[arg(long)]
        tictactoe: Option<String>,
        /// Plies drawn below the root (1-9; 1-3 for a chess position).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=9))]
        depth: u32,
        /// Leaf evaluation of a chess position: material values or the engine's evaluation.
        #[arg(long, value_enum, default_value_t = Eval::Material)]
        eval: Eval,
        /// Output SVG file.
        #[arg(long)]
        out: String,
    },
    /// The lab in the browser: a local web application (positions, trees
    /// step by step, compare, ordering, ablation); see docs/lab.md.
    Serve(super::serve::ServeArgs),
}

/// Runs a lab subcommand; errors go to stderr with a failing exit code.
pub fn run(args: LabArgs) -> ExitCode {
    let result = match args.command {
        LabCmd::Compare {
            chess,
            depth,
            chart,
            textbook_only,
        } => run_compare(&chess, depth, chart.as_deref(), !textbook_only),
        LabCmd::Scores { chess, depth } => run_scores(&chess, depth),
        LabCmd::Ordering {
            fen,
            positions,
            depth,
            eval,
            seed,
            json,
        } => run_ordering(fen, positions, depth, eval, seed, json),
        LabCmd::Ablate {
            depth,
            positions,
            json,
        } => run_ablate(depth, positions, json),
        LabCmd::Tree {
            fen,
            tree,
            tictactoe,
            depth,
            eval,
            out,
        } => run_tree(fen, tree, tictactoe, depth, eval, &out),
        LabCmd::Serve(args) => super::serve::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn chess_options(eval: Eval, published: bool) -> ChessOptions {
    ChessOptions {
        eval: match eval {
            Eval::Material => EvalKind::Material,
            Eval::Full => EvalKind::Full,
        },
        order: if published {
            MoveOrder::PythonChess
        } else {
            MoveOrder::Generator
        },
        flat_mate: published,
    }
}

fn rule(published: bool) -> Cutoff {
    if published {
        Cutoff::Strict
    } else {
        Cutoff::Textbook
    }
}

fn print_json<T: Serialize>(rows: &[T]) -> Result<(), String> {
    for r in rows {
        println!("{}", serde_json::to_string(r).map_err(|e| e.to_string())?);
    }
    Ok(())
}

fn run_compare(
    c: &ChessArgs,
    depth: u32,
    chart_path: Option<&str>,
    all: bool,
) -> Result<(), String> {
    let spec = compare::Spec {
        fen: c.fen.clone(),
        depth,
        chess: chess_options(c.eval, c.published),
        rule: rule(c.published),
        all,
        runs: 1,
    };
    let rows = compare::run(&spec)?;
    if all && matches!(c.eval, Eval::Material) {
        eprintln!("note: the engine rows use Cutoff's own evaluation, quiescence and pruning");
    }
    if c.json {
        print_json(&rows)?;
    } else {
        println!(
            "{:<26} {:>5} {:>11} {:>11} {:>10} {:>9}  best",
            "algorithm", "depth", "nodes", "leaves", "time ms", "value"
        );
        for r in &rows {
            let leaves = r.leaves.map_or("-".to_string(), |l| l.to_string());
            println!(
                "{:<26} {:>5} {:>11} {:>11} {:>10.2} {:>9}  {}",
                r.algorithm,
                r.depth,
                r.nodes,
                leaves,
                r.time_ms,
                format_value(r.value),
                r.best_move.as_deref().unwrap_or("-")
            );
        }
    }
    if let Some(path) = chart_path {
        let mut series: Vec<chart::Series> = Vec::new();
        for r in &rows {
            match series.iter_mut().find(|(n, _)| *n == r.algorithm) {
                Some((_, pts)) => pts.push((r.depth, r.nodes)),
                None => series.push((r.algorithm.clone(), vec![(r.depth, r.nodes)])),
            }
        }
        chart::nodes_vs_depth(&series, &format!("Nodes visited: {}", c.fen), path)?;
        eprintln!("chart written to {path}");
    }
    Ok(())
}

fn run_scores(c: &ChessArgs, depth: u32) -> Result<(), String> {
    let rows = scores::run(
        &c.fen,
        depth,
        chess_options(c.eval, c.published),
        rule(c.published),
    )?;
    if c.json {
        return print_json(&rows);
    }
    println!("{:<8} {:>9}", "move", "score");
    for r in &rows {
        println!("{:<8} {:>9}", r.mv, format_value(r.score));
    }
    Ok(())
}

fn run_ordering(
    fen: Option<String>,
    positions: usize,
    depth: u32,
    eval: Eval,
    seed: u64,
    json: bool,
) -> Result<(), String> {
    let fens: Vec<String> = match fen {
        Some(f) => vec![f],
        None => bench_fens(positions)?
            .into_iter()
            .map(String::from)
            .collect(),
    };
    let (rows, id) = ordering::run(&fens, depth, chess_options(eval, false), seed)?;
    if json {
        print_json(&rows)?;
        return print_json(&id);
    }
    let opt = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |x| format!("{x:.p$}"));
    println!(
        "{:<8} {:>5} {:>12} {:>12} {:>6} {:>7} {:>7} {:>7} {:>9} {:>6}",
        "ordering", "depth", "nodes", "leaves", "b", "1st-cut", "cut-idx", "EBF", "leaves/KM", "x"
    );
    for r in &rows {
        println!(
            "{:<8} {:>5} {:>12} {:>12} {:>6.2} {:>7} {:>7} {:>7} {:>9.2} {:>6}",
            r.ordering,
            r.depth,
            r.nodes,
            r.leaves,
            r.branching,
            opt(r.first_cut_rate.map(|x| x * 100.0), 1),
            opt(r.mean_cut_index, 2),
            opt(r.ebf, 2),
            r.km_ratio,
            opt(r.exponent, 3)
        );
    }
    println!("x: leaves = b^(x*depth) per position; 0.5 perfect ordering, 0.75 random, 1 minimax");
    println!();
    println!(
        "{:>5} {:>14} {:>8} {:>14}",
        "depth", "minimax ID/d", "b/(b-1)", "engine ID/d"
    );
    for r in &id {
        println!(
            "{:>5} {:>14.3} {:>8} {:>14.3}",
            r.depth,
            r.minimax_ratio,
            opt(r.b_over_b_minus_1, 3),
            r.engine_ratio
        );
    }
    Ok(())
}

fn bench_fens(count: usize) -> Result<Vec<&'static str>, String> {
    let all = cutoff_engine::bench::POSITIONS;
    if count == 0 || count > all.len() {
        return Err(format!("--positions must be 1..={}", all.len()));
    }
    Ok(all[..count].to_vec())
}

fn run_ablate(depth: u32, positions: usize, json: bool) -> Result<(), String> {
    let rows = ablate::run(&bench_fens(positions)?, depth)?;
    if json {
        return print_json(&rows);
    }
    println!(
        "{:<20} {:>12} {:>8} {:>10} {:>7} {:>8}",
        "switched off", "nodes", "ratio", "time ms", "EBF", "new best"
    );
    for r in &rows {
        let ebf = r.ebf.map_or("-".to_string(), |e| format!("{e:.2}"));
        println!(
            "{:<20} {:>12} {:>8.3} {:>10.1} {:>7} {:>8}",
            r.switch, r.nodes, r.node_ratio, r.time_ms, ebf, r.best_move_changes
        );
    }
    println!(
        "depth {depth}, {} bench positions",
        rows.first().map_or(0, |r| r.positions)
    );
    Ok(())
}

/// Largest drawing accepted, in nodes (pruned stubs included).
const MAX_DRAWN: usize = 4000;

fn run_tree(
    fen: Option<String>,
    tree: Option<String>,
    tictactoe: Option<String>,
    depth: u32,
    eval: Eval,
    out: &str,
) -> Result<(), String> {
    let (svg, summary) = if let Some(text) = tree {
        let mut t = ExplicitTree::parse(&text)?;
        let height = t.height();
        let total = t.leaf_count();
        draw(
            &mut t,
            height,
            &format!("alpha-beta on {text}"),
            Some(total),
        )?
    } else if let Some(moves) = tictactoe {
        let mut g = TicTacToe::from_moves(&moves)?;
        draw(
            &mut g,
            depth,
            &format!("alpha-beta, tic-tac-toe, depth {depth}"),
            None,
        )?
    } else {
        if depth > 3 {
            return Err("chess trees are drawn to depth 1-3".into());
        }
        let fen = fen.unwrap_or_else(|| PUBLISHED_FEN.to_string());
        let mut g = ChessGame::from_fen(&fen, chess_options(eval, false))?;
        draw(
            &mut g,
            depth,
            &format!("alpha-beta, depth {depth}: {fen}"),
            None,
        )?
    };
    std::fs::write(out, svg).map_err(|e| format!("cannot write {out}: {e}"))?;
    println!("{summary}");
    println!("tree written to {out}");
    Ok(())
}

/// Runs alpha-beta with a recorder and draws the tree; also a one-line summary.
fn draw<G: Game>(
    game: &mut G,
    depth: u32,
    title: &str,
    total_leaves: Option<u64>,
) -> Result<(String, String), String> {
    let mut rec = Recorder::default();
    let outcome = alphabeta::search_observed(game, depth, Cutoff::Textbook, &mut rec);
    if rec.nodes() > MAX_DRAWN {
        return Err(format!(
            "the tree has {} nodes, too many to draw (at most {MAX_DRAWN}); use a smaller depth",
            rec.nodes()
        ));
    }
    let root = rec.into_tree().ok_or("no tree recorded")?;
    let mut summary = format!(
        "value {}, {} nodes visited, {} leaves evaluated, {} moves pruned",
        format_value(outcome.value),
        outcome.stats.nodes,
        outcome.stats.leaves,
        root.pruned_count()
    );
    if let Some(total) = total_leaves {
        summary += &format!(
            ", {} of {total} leaves pruned",
            total - outcome.stats.leaves
        );
    }
    Ok((svg::draw(&root, title), summary))
}
