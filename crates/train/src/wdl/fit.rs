//! Maximum-likelihood fit of the win/draw/loss model (`eval::wdl::Model`):
//! Levenberg-Marquardt steps on the mean log-loss, with the Fisher
//! information as the curvature (always positive semi-definite, so every
//! damped step goes downhill for small enough steps).

use std::collections::BTreeMap;

use cutoff_engine::eval::wdl::{MATERIAL_MAX, MATERIAL_MIN, Model, variable};

/// Results (win, draw, loss of the side to move) of the positions with one
/// score and one material count.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub score: i32,
    pub material: i32,
    pub counts: [u64; 3],
}

/// Counts `(score, material, result)` samples (result 0 win, 1 draw, 2 loss)
/// by score and clamped material: the fit then runs over cells, not
/// positions, with the same likelihood.
pub fn cells(samples: impl IntoIterator<Item = (i32, i32, usize)>) -> Vec<Cell> {
    let mut map: BTreeMap<(i32, i32), [u64; 3]> = BTreeMap::new();
    for (score, material, result) in samples {
        let m = material.clamp(MATERIAL_MIN, MATERIAL_MAX);
        map.entry((m, score)).or_default()[result] += 1;
    }
    map.into_iter()
        .map(|((material, score), counts)| Cell {
            score,
            material,
            counts,
        })
        .collect()
}

/// Positions in the cells.
pub fn positions(cells: &[Cell]) -> u64 {
    cells.iter().map(|c| c.counts.iter().sum::<u64>()).sum()
}

/// Smallest probability counted: a result the model calls impossible costs
/// a large but finite loss.
const P_MIN: f64 = 1e-15;

/// Mean log-loss (nats per position) of the model as the engine uses it.
pub fn log_loss(model: &Model, cells: &[Cell]) -> f64 {
    let total: f64 = cells
        .iter()
        .map(|c| {
            let p = model.probabilities(f64::from(c.score), c.material);
            (0..3)
                .map(|k| -(c.counts[k] as f64) * p[k].max(P_MIN).ln())
                .sum::<f64>()
        })
        .sum();
    total / positions(cells).max(1) as f64
}

/// Mean log-loss of a model that knows no score: the overall frequencies.
pub fn constant_loss(cells: &[Cell]) -> f64 {
    let n = positions(cells).max(1) as f64;
    (0..3)
        .map(|k| cells.iter().map(|c| c.counts[k]).sum::<u64>() as f64 / n)
        .filter(|&f| f > 0.0)
        .map(|f| -f * f.ln())
        .sum()
}

/// The 8 coefficients: `a[0..4]` then `b[0..4]`.
type Theta = [f64; 8];

fn model_of(t: &Theta) -> Model {
    Model {
        a: [t[0], t[1], t[2], t[3]],
        b: [t[4], t[5], t[6], t[7]],
    }
}

/// Powers `1, x, x^2, x^3` of a cell's material variable (`58 / material`).
fn powers(material: i32) -> [f64; 4] {
    let x = variable(material);
    [1.0, x, x * x, x * x * x]
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Unclamped `a` and `b` of a cell: the fit must see where they go.
fn ab(t: &Theta, phi: &[f64; 4]) -> (f64, f64) {
    let dot = |c: &[f64]| c.iter().zip(phi).map(|(c, p)| c * p).sum::<f64>();
    (dot(&t[0..4]), dot(&t[4..8]))
}

/// Mean log-loss at `t`; infinite where `a <= 0` or `b <= 0` (no model).
fn loss_at(t: &Theta, cells: &[Cell]) -> f64 {
    let mut total = 0.0;
    for c in cells {
        let (a, b) = ab(t, &powers(c.material));
        if a <= 0.0 || b <= 0.0 {
            return f64::INFINITY;
        }
        let s = f64::from(c.score);
        let (w, l) = (sigmoid((s - a) / b), sigmoid((-s - a) / b));
        let p = [w, 1.0 - w - l, l];
        total -= (0..3)
            .map(|k| c.counts[k] as f64 * p[k].max(P_MIN).ln())
            .sum::<f64>();
    }
    total / positions(cells).max(1) as f64
}

/// Gradient of the mean log-loss and the Fisher information at `t`.
fn gradient_and_fisher(t: &Theta, cells: &[Cell]) -> (Theta, [Theta; 8]) {
    let mut g = [0.0; 8];
    let mut f = [[0.0; 8]; 8];
    let n = positions(cells).max(1) as f64;
    for c in cells {
        let phi = powers(c.material);
        let (a, b) = ab(t, &phi);
        let s = f64::from(c.score);
        let (u, v) = ((s - a) / b, (-s - a) / b);
        let (w, l) = (sigmoid(u), sigmoid(v));
        let (dw, dl) = (w * (1.0 - w) / b, l * (1.0 - l) / b);
        // d(probability)/d(a) and d/d(b) for win, draw, loss.
        let da = [-dw, dw + dl, -dl];
        let db = [-dw * u, dw * u + dl * v, -dl * v];
        let p = [w, (1.0 - w - l).max(P_MIN), l.max(P_MIN)];
        let total = c.counts.iter().sum::<u64>() as f64;
        for k in 0..3 {
            let mut grad = [0.0; 8];
            for i in 0..4 {
                grad[i] = da[k] * phi[i];
                grad[4 + i] = db[k] * phi[i];
            }
            let pk = p[k].max(P_MIN);
            for i in 0..8 {
                g[i] -= c.counts[k] as f64 / pk * grad[i] / n;
                for j in 0..8 {
                    f[i][j] += total / pk * grad[i] * grad[j] / n;
                }
            }
        }
    }
    (g, f)
}

/// Solves `m x = r` by Gaussian elimination with partial pivoting.
fn solve(mut m: [Theta; 8], mut r: Theta) -> Option<Theta> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        r.swap(col, pivot);
        for row in col + 1..8 {
            let k = m[row][col] / m[col][col];
            let pivot_row = m[col];
            for (v, p) in m[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *v -= k * p;
            }
            r[row] -= k * r[col];
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let rest: f64 = (row + 1..8).map(|j| m[row][j] * x[j]).sum();
        x[row] = (r[row] - rest) / m[row][row];
    }
    Some(x)
}

/// The curvature of a step: a fixed coefficient gets an identity row (so it
/// does not move), and the diagonal is raised by `lambda` (Marquardt's
/// damping: small steps along the gradient when the quadratic model fails).
fn damped(mut f: [Theta; 8], lambda: f64, free: impl Fn(usize) -> bool) -> [Theta; 8] {
    for (i, row) in f.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            if !free(i) || !free(j) {
                *v = if i == j { 1.0 } else { 0.0 };
            }
        }
        row[i] *= 1.0 + lambda;
    }
    f
}

/// A fitted model and its mean log-loss on the cells it was fitted to.
#[derive(Clone, Debug)]
pub struct Fit {
    pub model: Model,
    pub loss: f64,
    pub iterations: usize,
}

/// Fits `a` and `b` as polynomials of `degree` (0: one `a` and `b` for all
/// material, up to 3: the engine's cubics) in `58 / material`.
pub fn fit(cells: &[Cell], degree: usize) -> Fit {
    let free = |i: usize| i % 4 <= degree;
    let mut t: Theta = [150.0, 0.0, 0.0, 0.0, 100.0, 0.0, 0.0, 0.0];
    let mut loss = loss_at(&t, cells);
    let mut lambda = 1e-3;
    let mut iterations = 0;
    while iterations < 500 && lambda < 1e12 {
        iterations += 1;
        let (g, f) = gradient_and_fisher(&t, cells);
        let g = std::array::from_fn(|i| if free(i) { -g[i] } else { 0.0 });
        let Some(step) = solve(damped(f, lambda, free), g) else {
            break;
        };
        let next: Theta = std::array::from_fn(|i| t[i] + step[i]);
        let next_loss = loss_at(&next, cells);
        if next_loss < loss {
            let gain = loss - next_loss;
            (t, loss, lambda) = (next, next_loss, (lambda / 3.0).max(1e-12));
            if gain < 1e-13 * loss.max(1e-300) {
                break;
            }
        } else {
            lambda *= 4.0;
        }
    }
    let model = model_of(&t);
    Fit {
        loss: log_loss(&model, cells),
        model,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_engine::rng::SplitMix;

    /// Results drawn from a known model at random scores and materials.
    fn synthetic(truth: &Model, count: usize) -> Vec<Cell> {
        let mut rng = SplitMix(7);
        cells((0..count).map(|_| {
            let score = (rng.next_u64() % 1201) as i32 - 600;
            let material = MATERIAL_MIN + (rng.next_u64() % 62) as i32;
            let p = truth.probabilities(f64::from(score), material);
            let r = rng.unit();
            let result = if r < p[0] {
                0
            } else if r < p[0] + p[1] {
                1
            } else {
                2
            };
            (score, material, result)
        }))
    }

    #[test]
    fn a_synthetic_fit_recovers_the_model_that_made_the_data() {
        let truth = Model {
            a: [20.0, 60.0, 5.0, 0.0],
            b: [60.0, 10.0, 2.0, 0.0],
        };
        let data = synthetic(&truth, 200_000);
        let fitted = fit(&data, 3);
        for m in [20, 35, 50, 65] {
            let (ta, tb) = truth.params(m);
            let (fa, fb) = fitted.model.params(m);
            assert!((fa - ta).abs() < 0.05 * ta, "a({m}): {fa} vs {ta}");
            assert!((fb - tb).abs() < 0.08 * tb, "b({m}): {fb} vs {tb}");
        }
        // The truth cannot do much better on its own data than the fit.
        let truth_loss = log_loss(&truth, &data);
        assert!(
            fitted.loss <= truth_loss + 1e-9,
            "{fitted:?} vs {truth_loss}"
        );
        assert!(fitted.loss < constant_loss(&data) - 0.1);
    }

    #[test]
    fn a_constant_model_is_fitted_with_degree_zero() {
        let truth = Model {
            a: [120.0, 0.0, 0.0, 0.0],
            b: [70.0, 0.0, 0.0, 0.0],
        };
        let fitted = fit(&synthetic(&truth, 100_000), 0);
        assert_eq!(fitted.model.a[1..], [0.0; 3]);
        let (a, b) = fitted.model.params(40);
        assert!((a - 120.0).abs() < 6.0 && (b - 70.0).abs() < 6.0, "{a} {b}");
    }

    #[test]
    fn cells_count_results_by_score_and_clamped_material() {
        let low = MATERIAL_MIN;
        let c = cells([(10, low - 1, 0), (10, low, 1), (10, low, 1), (-3, 90, 2)]);
        assert_eq!(
            c,
            [
                Cell {
                    score: 10,
                    material: low,
                    counts: [1, 2, 0]
                },
                Cell {
                    score: -3,
                    material: MATERIAL_MAX,
                    counts: [0, 0, 1]
                },
            ]
        );
        assert_eq!(positions(&c), 4);
    }
}
