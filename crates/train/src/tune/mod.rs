//! `cutoff tune`: Texel tuning of every evaluation weight at once.
//!
//! Each position's evaluation is linear in the weights (see
//! [`cutoff_engine::eval::hand::LinearTrace`]), so the positions are traced once; then the
//! sigmoid scale K is fitted to the current weights, and Adam descends the
//! mean squared error between predicted and actual results. The result is
//! written as Rust source (`crates/engine/src/eval/hand/weights.rs`) that the engine compiles in.

pub mod cli;
pub mod data;
pub mod optimise;
pub mod output;
pub mod seed;

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use crate::progress;
use cutoff_engine::eval::hand::params::S;
use cutoff_engine::eval::hand::weights::WEIGHTS;
use data::Dataset;
use optimise::{Adam, Weights, fit_k, gradient, loss};
use seed::hand_weights;

/// What `cutoff tune` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub data: PathBuf,
    pub epochs: usize,
    pub out: PathBuf,
    /// Weight of the game result in the target (1: result only).
    pub lambda: f64,
    /// Adam step size, in centipawns.
    pub rate: f64,
    /// L2 pull towards the starting weights, per cp^2 of change. Adam moves
    /// rarely seen features as fast as common ones, so without it a weight
    /// seen in a few hundred positions can run off to nonsense.
    pub reg: f64,
    pub threads: usize,
    /// Start from the hand-set weights instead of the compiled-in ones.
    pub from_hand: bool,
    /// Fraction of the data (its end: whole later games) held out to check
    /// that the fit generalises.
    pub holdout: f64,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Summary {
    pub positions: usize,
    pub skipped: usize,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    /// Loss against the results on the held-out positions, before and after.
    pub holdout: Option<(f64, f64)>,
    /// The epoch whose weights were kept.
    pub best_epoch: usize,
    pub weights: Vec<S>,
}

/// Loads, fits K, tunes and writes the weights file.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let started = Instant::now();
    let positions = data::load(&opts.data)?;
    if !(0.0..1.0).contains(&opts.holdout) {
        return Err(format!("holdout must be within 0..1, got {}", opts.holdout));
    }
    let split = positions.len() - (positions.len() as f64 * opts.holdout) as usize;
    let set = Dataset::build(&positions[..split], opts.threads);
    let held = Dataset::build(&positions[split..], opts.threads);
    drop(positions);
    if set.is_empty() {
        return Err(format!("{} has no usable positions", opts.data.display()));
    }
    eprintln!(
        "tune: {} positions ({} skipped), {} feature entries, traced in {:.1} s",
        set.len(),
        set.skipped,
        set.entries.len(),
        started.elapsed().as_secs_f64()
    );
    let start = if opts.from_hand {
        hand_weights().to_vec()
    } else {
        WEIGHTS.to_vec()
    };
    let summary = tune(&set, &held, &start, opts)?;
    let mut header = format!(
        "{} positions from {}, {} epochs, K = {:.4}, lambda = {}, rate = {}, reg = {:e}, loss {:.6} -> {:.6}",
        summary.positions,
        opts.data
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?"),
        opts.epochs,
        summary.k,
        opts.lambda,
        opts.rate,
        opts.reg,
        summary.loss_before,
        summary.loss_after
    );
    if let Some((before, after)) = summary.holdout {
        header += &format!(
            "\nheld-out {} positions, loss against results: {before:.6} -> {after:.6} (epoch {})",
            held.len(),
            summary.best_epoch
        );
    }
    fs::write(&opts.out, output::rust_source(&summary.weights, &header))
        .map_err(|e| format!("cannot write {}: {e}", opts.out.display()))?;
    Ok(summary)
}

/// How often (epochs) the held-out loss is checked for early stopping.
const CHECK_EVERY: usize = 10;

fn to_f64(w: &[S]) -> Weights {
    w.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

fn rounded(w: &[[f64; 2]]) -> Vec<S> {
    w.iter()
        .map(|x| S(x[0].round() as i32, x[1].round() as i32))
        .collect()
}

/// Adds the gradient of `reg * sum (w - w0)^2`.
fn regularise(g: &mut [[f64; 2]], w: &[[f64; 2]], w0: &[[f64; 2]], reg: f64) {
    for ((gi, wi), si) in g.iter_mut().zip(w).zip(w0) {
        for j in 0..2 {
            gi[j] += 2.0 * reg * (wi[j] - si[j]);
        }
    }
}

/// Fits K on `start`, then runs Adam for up to `opts.epochs` full-batch
/// epochs. With held-out data, the weights of the epoch with the lowest
/// held-out loss are kept (early stopping: the labels of one game are
/// strongly correlated, so the fit overfits a small set quickly).
pub fn tune(set: &Dataset, held: &Dataset, start: &[S], opts: &Options) -> Result<Summary, String> {
    if !(0.0..=1.0).contains(&opts.lambda) {
        return Err(format!("lambda must be within 0..1, got {}", opts.lambda));
    }
    let (lambda, threads) = (opts.lambda, opts.threads);
    let mut w = to_f64(start);
    let w0 = w.clone();
    let k = fit_k(set, &w, threads);
    let loss_before = loss(set, &w, k, lambda, threads);
    // Held-out positions are judged on the results alone, whatever the
    // target, so runs with different lambdas can be compared.
    let held_loss = |w: &[[f64; 2]]| (!held.is_empty()).then(|| loss(held, w, k, 1.0, threads));
    let held_before = held_loss(&w);
    eprintln!("tune: K = {k:.4}, loss before = {loss_before:.6}, held-out {held_before:?}");
    let mut best = (held_before.unwrap_or(f64::INFINITY), start.to_vec(), 0);
    let bar = progress::bar(
        opts.epochs as u64,
        "{elapsed_precise} [{bar:30}] epoch {pos}/{len} {msg}",
    );
    let mut adam = Adam::new(w.len(), opts.rate);
    for epoch in 1..=opts.epochs {
        let (mut g, l) = gradient(set, &w, k, lambda, threads);
        regularise(&mut g, &w, &w0, opts.reg);
        adam.step(&mut w, &g);
        bar.set_position(epoch as u64);
        bar.set_message(format!("loss {l:.6}"));
        if epoch % CHECK_EVERY == 0 || epoch == opts.epochs {
            let candidate = rounded(&w);
            let h = held_loss(&to_f64(&candidate));
            if bar.is_hidden() {
                eprintln!("tune: epoch {epoch} loss {l:.6} held-out {h:?}");
            }
            match h {
                Some(h) if h < best.0 => best = (h, candidate, epoch),
                Some(_) => {}
                None => best = (f64::INFINITY, candidate, epoch),
            }
        }
    }
    bar.finish();
    let (held_after, weights, best_epoch) = best;
    eprintln!("tune: keeping the weights of epoch {best_epoch}");
    let loss_after = loss(set, &to_f64(&weights), k, lambda, threads);
    Ok(Summary {
        positions: set.len(),
        skipped: set.skipped,
        k,
        loss_before,
        loss_after,
        holdout: held_before.map(|b| (b, held_after)),
        best_epoch,
        weights,
    })
}

#[cfg(test)]
mod tests {
    use super::data::{Labelled, parse_line};
    use super::*;
    use crate::datagen::game::Rng;
    use cutoff_engine::board::{Color, Position, STARTPOS};
    use cutoff_engine::eval::hand::params::MATERIAL;

    /// Boards from seeded random playouts, labelled by a "teacher" that
    /// values material differently from the compiled-in weights.
    fn synthetic(count: usize) -> Vec<Labelled> {
        let mut rng = Rng::new(11);
        let mut teacher = WEIGHTS.to_vec();
        for p in 0..5 {
            teacher[MATERIAL + p] = S(teacher[MATERIAL + p].0 * 2, teacher[MATERIAL + p].1 * 2);
        }
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::from_fen(STARTPOS, false).expect("start");
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() || out.len() == count {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
                let t = cutoff_engine::eval::hand::LinearTrace::new(pos.board());
                let p = optimise::sigmoid(1.0, t.white_score(&teacher) as f64);
                // Deterministic label drawn from the teacher's win probability.
                let u = (rng.next_u64() % 1000) as f64 / 1000.0;
                let result = if u < p { 1.0 } else { 0.0 };
                out.push(Labelled {
                    board: pos.board().clone(),
                    result,
                    score: None,
                });
            }
        }
        out
    }

    fn options(epochs: usize) -> Options {
        Options {
            data: PathBuf::new(),
            epochs,
            out: PathBuf::new(),
            lambda: 1.0,
            rate: 2.0,
            reg: 0.0,
            threads: 2,
            from_hand: false,
            holdout: 0.0,
        }
    }

    #[test]
    fn tuning_lowers_the_loss() {
        let set = Dataset::build(&synthetic(3000), 2);
        let s = tune(&set, &Dataset::default(), &WEIGHTS, &options(60)).expect("tunes");
        assert!(
            s.loss_after < s.loss_before,
            "{} !< {}",
            s.loss_after,
            s.loss_before
        );
        // The teacher valued material higher: the tuned queen should rise.
        assert!(s.weights[MATERIAL + 4].0 > WEIGHTS[MATERIAL + 4].0);
    }

    #[test]
    fn regularisation_holds_weights_near_the_start() {
        let set = Dataset::build(&synthetic(3000), 2);
        let drift = |reg: f64| {
            let opts = Options { reg, ..options(60) };
            let s = tune(&set, &Dataset::default(), &WEIGHTS, &opts).expect("tunes");
            s.weights
                .iter()
                .zip(WEIGHTS.iter())
                .map(|(a, b)| (a.0 - b.0).abs() + (a.1 - b.1).abs())
                .sum::<i32>()
        };
        let (free, held) = (drift(0.0), drift(1.0));
        assert!(free > 0, "the free fit moves weights");
        assert!(held * 4 < free, "reg 1 moved {held}, free {free}");
    }

    #[test]
    fn k_fit_beats_nearby_values() {
        let set = Dataset::build(&synthetic(1500), 2);
        let w: Weights = WEIGHTS.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
        let k = fit_k(&set, &w, 2);
        let at = |k| loss(&set, &w, k, 1.0, 2);
        assert!(k > 0.05 && k < 5.0);
        assert!(at(k) <= at(k * 0.8) && at(k) <= at(k * 1.25));
    }

    #[test]
    fn text_lines_parse_with_clear_errors() {
        let l = parse_line("8/8/1p1k4/1P6/8/3p3P/1r4P1/5K2 w - - c9 \"0-1\";").expect("parses");
        assert_eq!(l.result, 0.0);
        assert_eq!(l.board.side_to_move(), Color::White);
        assert!(parse_line("8/8/8/8 w - - c9 \"1-0\";").is_err());
        assert!(
            parse_line("8/8/1p1k4/1P6/8/3p3P/1r4P1/5K2 w - - c9 \"?\";")
                .unwrap_err()
                .contains("no result")
        );
    }
}
