//! `cutoff train`: fits the evaluation network to datagen positions.
//!
//! Sparse inputs (about 30 of 768 on per perspective, plain, mirrored on
//! the king's half, or mirrored in king buckets with a factoriser:
//! `--features`), mini-batches split
//! over threads, AdamW with a cosine learning-rate schedule, weights clipped
//! after every step so the quantised network cannot overflow. After each
//! epoch: the held-out validation loss, a checkpoint (`--resume` continues
//! from it), the quantised network, and the loss curve.

pub mod checkpoint;
pub mod cli;
pub mod data;
pub mod model;
pub mod optim;
pub mod plot;
pub mod recipe;

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::games::positions::{self, Counts, Filter};
use crate::games::records::{Packed, piece_count};
use crate::progress;
use cutoff_engine::eval::nnue::{self as engine_nnue, FeatureSet};
use data::{Rng, Sample, decode_as};
use model::{Model, Scratch, converts};
use optim::AdamW;

/// What `cutoff train` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    pub data: Vec<PathBuf>,
    /// Folder for checkpoints, nets, the loss table and curve.
    pub dir: PathBuf,
    pub hidden: usize,
    /// The input feature set.
    pub features: FeatureSet,
    /// Output buckets by piece count (`eval::nnue::output_bucket`); 1: none.
    pub output_buckets: usize,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate falls to `lr * final_lr` by the last epoch.
    pub final_lr: f32,
    /// Weight of the game result in the target (the rest is the score).
    pub lambda: f32,
    /// The result's weight at the end: it moves linearly from `lambda` over
    /// the run (the same value: a constant weight). The validation loss is
    /// taken at this weight, so the epochs' losses compare.
    pub final_lambda: f32,
    /// A position weighs `(pieces / 32) ^ piece_weight` in the training loss,
    /// scaled so that the mean weight is 1 (0: all alike; above 0 the
    /// positions with more pieces count more). The validation loss is
    /// unweighted.
    pub piece_weight: f32,
    /// The training positions of the last `newest_files` data files are
    /// each seen `newest_repeat` times an epoch (1: once, as all others),
    /// so that the newest games weigh more without dropping the older.
    pub newest_files: usize,
    pub newest_repeat: u32,
    /// Mirror every other position's files (at random) while training.
    pub mirror: bool,
    /// Share of the positions held out for validation (the last ones: whole games).
    pub validation: f64,
    pub threads: usize,
    pub seed: u64,
    pub resume: bool,
    /// Start from this network's weights instead of random ones.
    pub init: Option<PathBuf>,
    /// Which positions of game files train.
    pub filter: Filter,
}

/// Totals of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    pub positions: usize,
    /// Positions read, kept and dropped.
    pub counts: Counts,
    /// (epoch, training loss, validation loss) of every epoch so far.
    pub losses: Vec<(u32, f64, f64)>,
}

/// Random weights, or the network of `--init`, which must have the run's
/// shape or grow into it: a narrower network is widened (new neurons that
/// change no evaluation), a one-bucket one's output layer is copied into
/// each bucket, and a plain one is read as mirrored, a plain or mirrored one
/// as king-bucketed ([`Model::with_features`]).
fn initial_model(opts: &Options) -> Result<Model, String> {
    let Some(path) = &opts.init else {
        return Ok(
            Model::random(opts.hidden, opts.output_buckets, &mut Rng(opts.seed))
                .with_features(opts.features),
        );
    };
    let mut m = checkpoint::dequantise(&engine_nnue::file::load_sized(path)?);
    if !converts(m.features, opts.features) {
        return Err(format!(
            "{} has {} inputs, not {}: only a plain network starts another feature set, or a mirrored one {}",
            path.display(),
            m.features,
            opts.features,
            FeatureSet::KingBuckets4
        ));
    }
    m = m.with_features(opts.features);
    if m.hidden < opts.hidden {
        m = m.widen(opts.hidden, &mut Rng(opts.seed));
    }
    if m.buckets == 1 && opts.output_buckets > 1 {
        m = m.split_output(opts.output_buckets);
    }
    if (m.hidden, m.buckets) != (opts.hidden, opts.output_buckets) {
        return Err(format!(
            "{} has {} hidden neurons and {} output buckets, not {} and {}",
            path.display(),
            m.hidden,
            m.buckets,
            opts.hidden,
            opts.output_buckets
        ));
    }
    Ok(m)
}

/// Trains; errors (unreadable data, a bad checkpoint) are returned as text.
pub fn run(opts: &Options) -> Result<Summary, String> {
    if opts.batch == 0 || opts.threads == 0 || opts.hidden == 0 || opts.newest_repeat == 0 {
        return Err("--batch, --threads, --hidden and --newest-repeat must be at least 1".into());
    }
    if opts.newest_files > opts.data.len() {
        return Err(format!(
            "--newest-files {} of {} data files",
            opts.newest_files,
            opts.data.len()
        ));
    }
    if opts.hidden > engine_nnue::file::MAX_HIDDEN {
        return Err(format!(
            "--hidden must be at most {} (the network file's bound)",
            engine_nnue::file::MAX_HIDDEN
        ));
    }
    let max = engine_nnue::MAX_OUTPUT_BUCKETS;
    if !(1..=max).contains(&opts.output_buckets) {
        return Err(format!("--output-buckets must be 1 to {max}"));
    }
    fs::create_dir_all(&opts.dir)
        .map_err(|e| format!("cannot create {}: {e}", opts.dir.display()))?;
    let (all, counts) = positions::load(&opts.data, &opts.filter)?;
    eprintln!("train: {}", counts.describe());
    for damage in &counts.damage {
        eprintln!("warning: {damage}");
    }
    let held = ((all.len() as f64 * opts.validation) as usize).min(all.len() / 2);
    let (train, valid) = all.split_at(all.len() - held);
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let repeats = Repeats {
        train: train.len(),
        newest: newest_positions(&counts.per_file, opts.newest_files, train.len()),
        times: opts.newest_repeat,
    };
    let seen = repeats.per_epoch();
    let ckpt = opts.dir.join("checkpoint.bin");
    let (mut model, mut opt, done, mut losses) = if opts.resume && ckpt.exists() {
        let (m, o, e) = checkpoint::load(&ckpt)?;
        if (m.hidden, m.buckets, m.features) != (opts.hidden, opts.output_buckets, opts.features) {
            return Err(format!(
                "the checkpoint has {} hidden neurons, {} output buckets and {} inputs, not {}, {} and {}",
                m.hidden, m.buckets, m.features, opts.hidden, opts.output_buckets, opts.features
            ));
        }
        (m, o, e, read_losses(&opts.dir)?)
    } else {
        let m = initial_model(opts)?;
        let n = m.params.len();
        (m, AdamW::new(n), 0, Vec::new())
    };
    eprintln!(
        "train: {} positions ({} seen an epoch), {} held out, hidden {}, output buckets {}, {} inputs, epochs {}..{}",
        train.len(),
        seen,
        valid.len(),
        opts.hidden,
        opts.output_buckets,
        opts.features,
        done + 1,
        opts.epochs
    );
    if !engine_nnue::is_supported_hidden(opts.hidden) {
        eprintln!(
            "train: note: the engine runs {:?} hidden neurons, not {}; the networks written can start other runs (--init)",
            engine_nnue::SUPPORTED_HIDDEN,
            opts.hidden
        );
    }
    let mut grads: Vec<Vec<f32>> = (0..opts.threads)
        .map(|_| vec![0.0; model.params.len()])
        .collect();
    let weights = piece_weights(train, opts.piece_weight);
    let steps_per_epoch = seen.div_ceil(opts.batch);
    for epoch in done + 1..=opts.epochs {
        let started = Instant::now();
        let order = repeats.order(epoch_order(seen, opts.seed, epoch));
        let bar = progress::bar(
            seen as u64,
            &format!(
                "epoch {epoch}/{} [{{bar:40}}] {{pos}}/{{len}} {{per_sec}} eta {{eta}}",
                opts.epochs
            ),
        );
        let mut loss_sum = 0.0;
        for (step, chunk) in order.chunks(opts.batch).enumerate() {
            let progress = ((epoch - 1) as usize * steps_per_epoch + step) as f32
                / (opts.epochs as usize * steps_per_epoch) as f32;
            let lr = cosine(opts.lr, opts.lr * opts.final_lr, progress);
            let lambda = opts.lambda + (opts.final_lambda - opts.lambda) * progress;
            let batch = Batch {
                data: train,
                weights: &weights,
                order: chunk,
                seed: opts.seed ^ (u64::from(epoch) << 40) ^ step as u64,
            };
            let rates = Rates { lr, lambda };
            loss_sum += batch_step(&mut model, &mut opt, &mut grads, &batch, opts, rates);
            bar.inc(chunk.len() as u64);
        }
        bar.finish_and_clear();
        let train_loss = loss_sum / seen as f64;
        let valid_loss = if valid.is_empty() {
            train_loss
        } else {
            evaluate_loss(&model, valid, opts)
        };
        losses.push((epoch, train_loss, valid_loss));
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "epoch {epoch}/{}: training loss {train_loss:.6}, validation loss {valid_loss:.6}, {:.0} positions/s",
            opts.epochs,
            seen as f64 / secs
        );
        checkpoint::save(&ckpt, &model, &opt, epoch)?;
        checkpoint::export(&opts.dir.join(format!("epoch-{epoch}.nnue")), &model)?;
        checkpoint::export(&opts.dir.join("net.nnue"), &model)?;
        write_losses(&opts.dir, &losses)?;
        plot::loss_curve(&opts.dir.join("loss.svg"), &losses)?;
    }
    Ok(Summary {
        positions: train.len(),
        counts,
        losses,
    })
}

/// The range of the training positions (the first `train` of `all`) that
/// the last `files` data files gave, `per_file` positions each.
fn newest_positions(per_file: &[usize], files: usize, train: usize) -> Range<usize> {
    let total: usize = per_file.iter().sum();
    let newest: usize = per_file[per_file.len() - files..].iter().sum();
    (total - newest).min(train)..train
}

/// Of `train` training positions, those an epoch sees more than once: the
/// ones in `newest`, `times` each.
struct Repeats {
    train: usize,
    newest: Range<usize>,
    times: u32,
}

impl Repeats {
    /// Positions an epoch sees, repeats counted.
    fn per_epoch(&self) -> usize {
        self.train + (self.times as usize - 1) * self.newest.len()
    }

    /// An epoch's order of seen positions as indices of training positions:
    /// the numbers past `train` stand for the repeats of `newest`.
    fn order(&self, mut order: Vec<u32>) -> Vec<u32> {
        if self.times > 1 && !self.newest.is_empty() {
            let (start, len) = (self.newest.start, self.newest.len());
            for i in &mut order {
                if let Some(extra) = (*i as usize).checked_sub(self.train) {
                    *i = (start + extra % len) as u32;
                }
            }
        }
        order
    }
}

/// The epoch's shuffled order of the training positions (a function of seed
/// and epoch alone, so a resumed run sees the same order).
fn epoch_order(n: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    Rng(seed ^ (u64::from(epoch) << 32) ^ 0x5EED).shuffle(&mut order);
    order
}

fn cosine(start: f32, end: f32, progress: f32) -> f32 {
    end + 0.5 * (start - end) * (1.0 + (std::f32::consts::PI * progress.clamp(0.0, 1.0)).cos())
}

/// The weight of a position in the training loss by its number of pieces
/// (`Options::piece_weight`), normalised over `train` to a mean of 1.
fn piece_weights(train: &[Packed], power: f32) -> [f32; 33] {
    let mut weights = [1.0f32; 33];
    if power == 0.0 {
        return weights;
    }
    let mut counts = [0u64; 33];
    for rec in train {
        counts[piece_count(rec).min(32)] += 1;
    }
    for (n, w) in weights.iter_mut().enumerate() {
        *w = (n as f32 / 32.0).powf(power);
    }
    let total: f64 = counts
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c as f64 * f64::from(w))
        .sum();
    let mean = (total / train.len() as f64) as f32;
    weights.iter_mut().for_each(|w| *w /= mean);
    weights
}

/// The positions of one optimiser step.
struct Batch<'a> {
    data: &'a [Packed],
    /// The loss's weight of a position by its number of pieces.
    weights: &'a [f32; 33],
    /// Indices into `data`.
    order: &'a [u32],
    /// Decides which positions are mirrored.
    seed: u64,
}

/// The schedules' values at one optimiser step.
#[derive(Clone, Copy)]
struct Rates {
    lr: f32,
    /// The result's weight in the target.
    lambda: f32,
}

/// One optimiser step on a batch; returns the summed loss.
fn batch_step(
    model: &mut Model,
    opt: &mut AdamW,
    grads: &mut [Vec<f32>],
    batch: &Batch,
    opts: &Options,
    rates: Rates,
) -> f64 {
    let chunk = batch.order;
    let per_thread = chunk.len().div_ceil(grads.len());
    let (hidden, features) = (model.hidden, model.features);
    let shared = model.prepare();
    let shared = &shared;
    let losses: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = grads
            .iter_mut()
            .zip(chunk.chunks(per_thread))
            .map(|(grad, part)| {
                s.spawn(move || {
                    grad.iter_mut().for_each(|g| *g = 0.0);
                    let mut scratch = Scratch::new(hidden);
                    part.iter()
                        .map(|&i| {
                            let flip = opts.mirror && mix(u64::from(i) ^ batch.seed) & 1 == 1;
                            let sample = decode_as(&batch.data[i as usize], flip, features)
                                .expect("records were checked when loaded");
                            let weight = batch.weights[sample.count];
                            let grad = Some(&mut grad[..]);
                            shared.weighted_loss(&sample, rates.lambda, weight, &mut scratch, grad)
                                as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("training thread"))
            .collect()
    });
    let used = chunk.len().div_ceil(per_thread);
    let (first, rest) = grads.split_at_mut(1);
    for other in &rest[..used - 1] {
        first[0]
            .iter_mut()
            .zip(other.iter())
            .for_each(|(a, b)| *a += b);
    }
    model.gather_factor(&mut first[0]);
    let scale = 1.0 / chunk.len() as f32;
    first[0].iter_mut().for_each(|g| *g *= scale);
    opt.step(&mut model.params, &first[0], rates.lr);
    model.clip();
    losses.iter().sum()
}

/// Mean loss over `positions` (no gradient).
pub fn evaluate_loss(model: &Model, positions: &[Packed], opts: &Options) -> f64 {
    let per_thread = positions.len().div_ceil(opts.threads).max(1);
    let prepared = model.prepare();
    let prepared = &prepared;
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = positions
            .chunks(per_thread)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(model.hidden);
                    part.iter()
                        .map(|p| {
                            let s = sample(p, model.features);
                            prepared.loss(&s, opts.final_lambda, &mut scratch, None) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("validation thread"))
            .sum()
    });
    total / positions.len().max(1) as f64
}

/// A well-mixed hash (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    data::Rng(x).next_u64()
}

fn sample(p: &Packed, features: FeatureSet) -> Sample {
    decode_as(p, false, features).expect("records were checked when loaded")
}

fn write_losses(dir: &Path, rows: &[(u32, f64, f64)]) -> Result<(), String> {
    let mut text = String::from("epoch,training,validation\n");
    for (e, t, v) in rows {
        text.push_str(&format!("{e},{t:.6},{v:.6}\n"));
    }
    let path = dir.join("loss.csv");
    fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn read_losses(dir: &Path) -> Result<Vec<(u32, f64, f64)>, String> {
    let path = dir.join("loss.csv");
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let bad = || format!("{}: bad line '{line}'", path.display());
            if f.len() != 3 {
                return Err(bad());
            }
            Ok((
                f[0].parse().map_err(|_| bad())?,
                f[1].parse().map_err(|_| bad())?,
                f[2].parse().map_err(|_| bad())?,
            ))
        })
        .collect()
}
