//! `cutoff train --data F... --dir D` or `cutoff train --recipe R --dir D`:
//! arguments and output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use super::{Options, recipe, run};
use crate::games::positions::Filter;
use cutoff_engine::eval::nnue::FeatureSet;

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Train as the recipe file says (data, filters, schedule, seed,
    /// threads) and check the network against its `sha256`; only --dir and
    /// --resume may be given beside it.
    #[arg(long, conflicts_with_all = ["data", "epochs", "batch", "lr", "final_lr", "lambda", "final_lambda", "piece_weight", "newest_files", "newest_repeat", "no_mirror", "validation", "hidden", "features", "output_buckets", "threads", "seed", "skip_plies", "max_score", "init"])]
    recipe: Option<PathBuf>,
    /// Game files and 32-byte record files (plain or `.xz`), read in order.
    #[arg(long, required_unless_present = "recipe", num_args = 1..)]
    data: Vec<PathBuf>,
    /// Folder for checkpoints, `net.nnue`, `epoch-N.nnue`, `loss.csv`, `loss.svg`.
    #[arg(long)]
    dir: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Starting learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning rate at the end, as a fraction of the start (cosine schedule).
    #[arg(long, default_value_t = 0.05)]
    final_lr: f32,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.4)]
    lambda: f32,
    /// The result's weight at the end of the run, reached linearly from
    /// --lambda (default: --lambda throughout).
    #[arg(long)]
    final_lambda: Option<f32>,
    /// Positions weigh (pieces / 32) ^ P in the training loss, normalised
    /// to a mean of 1 (0: all alike).
    #[arg(long, default_value_t = 0.0)]
    piece_weight: f32,
    /// With --newest-repeat: how many of the last data files count as the
    /// newest.
    #[arg(long, default_value_t = 0)]
    newest_files: usize,
    /// Each training position of the newest files is seen this many times
    /// an epoch (the rest once), weighting the newest games up.
    #[arg(long, default_value_t = 1)]
    newest_repeat: u32,
    /// Do not mirror positions (files a..h) at random while training.
    #[arg(long)]
    no_mirror: bool,
    /// Fraction of the data (the last games) held out for the validation loss.
    #[arg(long, default_value_t = 0.01)]
    validation: f64,
    /// Hidden neurons per perspective. The engine runs 32, 64, 128, 256,
    /// 384 and 512 (read from the network file); the file holds up to 4096.
    #[arg(long, default_value_t = cutoff_engine::eval::nnue::DEFAULT_HIDDEN)]
    hidden: usize,
    /// Input feature set: `plain` (768 inputs), `mirrored` (each side's
    /// view flipped on files when its own king is on files e-h) or `kings4`
    /// (mirrored, 4 king buckets of 768 inputs, trained with a factoriser).
    #[arg(long, default_value_t = FeatureSet::Plain)]
    features: FeatureSet,
    /// Output layers chosen by the number of pieces (1: a single output).
    #[arg(long, default_value_t = 1)]
    output_buckets: usize,
    /// Threads (default: all cores); the network depends on it, so a
    /// recipe names it.
    #[arg(long)]
    threads: Option<usize>,
    /// Random seed: the initial weights, the held-out games and the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Game files: skip this many plies at the start of every game.
    #[arg(long, default_value_t = Filter::default().skip_plies)]
    skip_plies: usize,
    /// Game files: skip positions scored beyond this many centipawns.
    #[arg(long, default_value_t = Filter::default().max_score)]
    max_score: i32,
    /// Continue from the folder's checkpoint.
    #[arg(long)]
    resume: bool,
    /// Start from this network file's weights (e.g. the embedded net's
    /// `crates/engine/src/eval/nnue/default.nnue`) instead of random ones.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// Parses a recipe's flags the way the command line is parsed.
#[derive(Parser)]
#[command(name = "recipe")]
struct RecipeArgs {
    #[command(flatten)]
    args: TrainArgs,
}

pub fn main(a: TrainArgs) -> ExitCode {
    match train(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn train(a: TrainArgs) -> Result<(), String> {
    match &a.recipe {
        Some(path) => train_recipe(path, &recipe::read(path)?, &a.dir, a.resume).map(|_| ()),
        None => train_with(options(a)),
    }
}

/// Trains as `recipe` (read from `path`) says into `dir`, first rebuilding
/// the network its `init-recipe` names (into `dir/init`, reused when it is
/// already there with the right sha256); returns the network's path.
fn train_recipe(
    path: &Path,
    recipe: &recipe::Recipe,
    dir: &Path,
    resume: bool,
) -> Result<PathBuf, String> {
    let mut argv = vec![
        "recipe".to_string(),
        "--dir".into(),
        dir.display().to_string(),
    ];
    argv.extend(recipe.flags.iter().cloned());
    if let Some(parent) = &recipe.init_recipe {
        let init = init_network(parent, &dir.join("init"), resume).map_err(|e| {
            format!(
                "{} (the init-recipe of {}): {e}",
                parent.display(),
                path.display()
            )
        })?;
        argv.extend(["--init".to_string(), init.display().to_string()]);
    }
    if resume {
        argv.push("--resume".into());
    }
    let parsed = RecipeArgs::try_parse_from(&argv)
        .map_err(|e| format!("{}: {}", path.display(), e.to_string().trim()))?;
    let opts = options(parsed.args);
    train_with(opts.clone())?;
    let net = opts.dir.join("net.nnue");
    match &recipe.sha256 {
        Some(want) => check_sha(&net, want)?,
        None => println!(
            "train: the recipe names no sha256; {} is not checked",
            net.display()
        ),
    }
    Ok(net)
}

/// The network of the recipe at `path`, trained into `dir` unless it is
/// already there. A chain's links must name their sha256: a fine-tune
/// from an unchecked network would rebuild nothing reliably.
fn init_network(path: &Path, dir: &Path, resume: bool) -> Result<PathBuf, String> {
    let parent = recipe::read(path)?;
    let want = parent
        .sha256
        .as_deref()
        .ok_or("a recipe another starts from must name its sha256")?;
    let net = dir.join("net.nnue");
    if net.exists() && recipe::sha256_file(&net)? == want {
        println!("train: {} is there with sha256 {want}", net.display());
        return Ok(net);
    }
    println!(
        "train: rebuilding {} into {}",
        path.display(),
        dir.display()
    );
    train_recipe(path, &parent, dir, resume)
}

fn check_sha(net: &Path, want: &str) -> Result<(), String> {
    let got = recipe::sha256_file(net)?;
    if got != want {
        return Err(format!(
            "{} has sha256 {got}, the recipe says {want}",
            net.display()
        ));
    }
    println!(
        "train: {} matches the recipe's sha256 {want}",
        net.display()
    );
    Ok(())
}

fn options(a: TrainArgs) -> Options {
    Options {
        data: a.data,
        dir: a.dir,
        hidden: a.hidden,
        features: a.features,
        output_buckets: a.output_buckets,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        final_lr: a.final_lr,
        lambda: a.lambda,
        final_lambda: a.final_lambda.unwrap_or(a.lambda),
        piece_weight: a.piece_weight,
        newest_files: a.newest_files,
        newest_repeat: a.newest_repeat,
        validation: a.validation,
        mirror: !a.no_mirror,
        threads: a.threads.unwrap_or_else(cutoff_engine::default_threads),
        seed: a.seed,
        resume: a.resume,
        init: a.init,
        filter: Filter {
            skip_plies: a.skip_plies,
            max_score: a.max_score,
        },
    }
}

fn train_with(opts: Options) -> Result<(), String> {
    let s = run(&opts)?;
    if let Some((e, t, v)) = s.losses.last() {
        println!(
            "train: {} positions, epoch {e}: training loss {t:.6}, validation loss {v:.6}, wrote {}",
            s.positions,
            opts.dir.join("net.nnue").display()
        );
    }
    Ok(())
}
