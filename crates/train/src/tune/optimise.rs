//! The Texel loss, the fit of the sigmoid scale K, and Adam over all weights.
//!
//! Predicted score: `p = sigmoid(K * eval)`, `sigmoid(x) = 1 / (1 + 10^(-x/400))`
//! with `eval` in centipawns (White's view). Target: the game result, or with
//! `lambda < 1` a blend `lambda * result + (1 - lambda) * sigmoid(K * search score)`.
//! Loss: mean squared error.

use super::data::{Dataset, Sample};

/// Weights being tuned: (mg, eg) per index.
pub type Weights = Vec<[f64; 2]>;

pub fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// The evaluation of one sample under `w`, White's view, in centipawns.
fn eval(data: &Dataset, s: &Sample, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in data.entries_of(s) {
        let wi = &w[i as usize];
        mg += c as f64 * wi[0];
        eg += c as f64 * wi[1];
    }
    mg * s.mg as f64 + eg * s.eg as f64 + s.fixed as f64
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    match s.score {
        Some(score) => lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k, score as f64),
        None => s.result as f64,
    }
}

/// Splits the samples over threads and sums what `f` returns per chunk.
fn parallel<T: Send, F>(data: &Dataset, threads: usize, f: F) -> Vec<T>
where
    F: Fn(&[Sample]) -> T + Sync,
{
    let chunk = data.samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = data
            .samples
            .chunks(chunk)
            .map(|part| s.spawn(|| f(part)))
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    })
}

/// Mean squared error of the predictions under `w`.
pub fn loss(data: &Dataset, w: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    let sums = parallel(data, threads, |part| {
        part.iter()
            .map(|s| (sigmoid(k, eval(data, s, w)) - target(s, k, lambda)).powi(2))
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / data.len().max(1) as f64
}

/// The K that minimises the loss against game results under fixed weights
/// (golden-section search). K maps evaluations to results, so the search
/// scores in the target play no part in it.
pub fn fit_k(data: &Dataset, w: &[[f64; 2]], threads: usize) -> f64 {
    let evals: Vec<f64> = parallel(data, threads, |part| {
        part.iter().map(|s| eval(data, s, w)).collect::<Vec<_>>()
    })
    .concat();
    let loss_at = |k: f64| -> f64 {
        data.samples
            .iter()
            .zip(&evals)
            .map(|(s, &e)| (sigmoid(k, e) - s.result as f64).powi(2))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss_at(a) < loss_at(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The gradient of the loss with respect to every weight, and the loss.
pub fn gradient(
    data: &Dataset,
    w: &[[f64; 2]],
    k: f64,
    lambda: f64,
    threads: usize,
) -> (Weights, f64) {
    let n = w.len();
    let parts = parallel(data, threads, |part| {
        let mut g = vec![[0.0; 2]; n];
        let mut total = 0.0;
        for s in part {
            let p = sigmoid(k, eval(data, s, w));
            let err = p - target(s, k, lambda);
            total += err * err;
            // d(loss)/d(eval) for this sample
            let d = 2.0 * err * p * (1.0 - p) * k * std::f64::consts::LN_10 / 400.0;
            let (dm, de) = (d * s.mg as f64, d * s.eg as f64);
            for &(i, c) in data.entries_of(s) {
                let gi = &mut g[i as usize];
                gi[0] += dm * c as f64;
                gi[1] += de * c as f64;
            }
        }
        (g, total)
    });
    let mut grad = vec![[0.0; 2]; n];
    let mut total = 0.0;
    for (g, t) in parts {
        total += t;
        for (a, b) in grad.iter_mut().zip(g) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
    let m = data.len().max(1) as f64;
    for g in &mut grad {
        g[0] /= m;
        g[1] /= m;
    }
    (grad, total / m)
}

/// Adam, one moment pair per weight.
pub struct Adam {
    m: Weights,
    v: Weights,
    t: i32,
    pub rate: f64,
}

impl Adam {
    pub fn new(n: usize, rate: f64) -> Self {
        Self {
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
            rate,
        }
    }

    pub fn step(&mut self, w: &mut [[f64; 2]], g: &[[f64; 2]]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..w.len() {
            for j in 0..2 {
                self.m[i][j] = B1 * self.m[i][j] + (1.0 - B1) * g[i][j];
                self.v[i][j] = B2 * self.v[i][j] + (1.0 - B2) * g[i][j] * g[i][j];
                let step = self.rate * (self.m[i][j] / c1) / ((self.v[i][j] / c2).sqrt() + EPS);
                w[i][j] -= step;
            }
        }
    }
}
