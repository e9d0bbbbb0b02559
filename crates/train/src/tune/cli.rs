//! `cutoff tune --data F --out W ...`: arguments and output.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Options, run};

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Game file or 32-byte record file, or text/EPD (`.epd`, `.txt`) with results.
    #[arg(long)]
    data: PathBuf,
    /// Full-batch Adam epochs.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Rust source file to write the tuned weights to (checked before the
    /// run; `crates/engine/src/eval/hand/weights.rs` is the one the engine compiles in).
    #[arg(long)]
    out: PathBuf,
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

pub fn main(a: TuneArgs) -> ExitCode {
    if let Err(e) = check_tune_paths(&a) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let opts = Options {
        data: a.data,
        epochs: a.epochs,
        out: a.out,
        lambda: a.lambda,
        rate: a.rate,
        reg: a.reg,
        threads: a.threads.unwrap_or_else(cutoff_engine::default_threads),
        from_hand: a.from_hand,
        holdout: a.holdout,
    };
    match run(&opts) {
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
