//! `lab ordering`: how close each move ordering gets to the Knuth-Moore
//! minimal tree. For the engine's ordering (Cutoff's move picker under
//! iterative deepening with a hash move), a seeded random ordering and an oracle
//! (best move first, from an exact search) it counts cut-offs and leaves, and
//! sets the leaves against b^ceil(d/2) + b^floor(d/2) - 1 (perfect ordering),
//! b^(3d/4) (random ordering) and b^d (minimax), with b the mean branching
//! factor of the full tree.

use serde::Serialize;

use super::chess::{ChessGame, ChessOptions};
use super::minimax;
use super::ordered::{Measure, Policy, Searcher};

/// One row per ordering and depth; the JSON Lines object of `lab ordering --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub ordering: String,
    pub depth: u32,
    pub positions: usize,
    pub nodes: u64,
    pub leaves: u64,
    /// Mean branching factor of the full (minimax) tree.
    pub branching: f64,
    /// Share of fail-high nodes where the first move cut (null for minimax).
    pub first_cut_rate: Option<f64>,
    /// Mean 1-based index of the cutting move (null for minimax).
    pub mean_cut_index: Option<f64>,
    /// This iteration's nodes over the previous one's (null at depth 1).
    pub ebf: Option<f64>,
    /// Leaves over the Knuth-Moore minimal leaf count b^ceil(d/2)+b^floor(d/2)-1.
    pub km_ratio: f64,
    /// x in leaves = b^(x d): 0.5 is perfect ordering, 0.75 random, 1 minimax.
    pub exponent: Option<f64>,
}

/// Iterative deepening's price, per depth.
#[derive(Clone, Debug, Serialize)]
pub struct IdRow {
    pub depth: u32,
    /// Minimax: nodes of all iterations 1..=d over nodes of depth d alone.
    pub minimax_ratio: f64,
    /// The textbook estimate of that ratio, b/(b-1).
    pub b_over_b_minus_1: Option<f64>,
    /// Engine ordering: ID with the table over one search at depth d
    /// without them (below 1: the iterations pay for themselves).
    pub engine_ratio: f64,
}

/// Sums over positions for one ordering at one depth.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    m: Measure,
    km_leaves: f64,
    edges: f64,
    inner: f64,
}

const ORDERINGS: [&str; 4] = ["minimax", "oracle", "engine", "random"];

/// Measures the orderings on `fens` at depths 1..=depth.
pub fn run(
    fens: &[String],
    depth: u32,
    chess: ChessOptions,
    seed: u64,
) -> Result<(Vec<Row>, Vec<IdRow>), String> {
    let game = |fen: &str| ChessGame::from_fen(fen, chess);
    run_observed(fens, depth, seed, game, |_| Ok(()), |_, _, _| {})
}

/// [`run`] with the games made by `game` (perhaps with a brake), reporting
/// the tables over the first k positions after each position k. `check`
/// sees a position's minimax node counts after each depth and may end the
/// run with an error (a position that will not fit its budget), as does a
/// braked game.
pub fn run_observed(
    fens: &[String],
    depth: u32,
    seed: u64,
    game: impl Fn(&str) -> Result<ChessGame, String>,
    check: impl Fn(&[u64]) -> Result<(), String>,
    mut report: impl FnMut(usize, Vec<Row>, Vec<IdRow>),
) -> Result<(Vec<Row>, Vec<IdRow>), String> {
    let d = depth as usize;
    let mut t = vec![vec![Tally::default(); d + 1]; ORDERINGS.len()];
    let mut plain = vec![0u64; d + 1];
    for (done, fen) in fens.iter().enumerate() {
        let mut game = game(fen)?;
        let mut kms = vec![0.0; d + 1];
        let mut minimax_nodes = Vec::with_capacity(d);
        for k in 1..=d {
            let out = minimax::search(&mut game, k as u32);
            minimax_nodes.push(out.stats.nodes);
            if !game.braked() {
                check(&minimax_nodes)?;
            }
            let (n, l) = (out.stats.nodes as f64, out.stats.leaves as f64);
            let b = if n > l { (n - 1.0) / (n - l) } else { 0.0 };
            kms[k] = knuth_moore(b, k as u32);
            let m = Measure {
                stats: out.stats,
                ..Measure::default()
            };
            add(&mut t[0][k], &m, kms[k], n - 1.0, n - l);
        }
        let mut oracle = Searcher::new(Policy::Oracle, false);
        let engine = Searcher::new(Policy::Engine, true).iterate(&mut game, depth);
        for k in 1..=d {
            let o = oracle.search(&mut game, k as u32).measure;
            let r = Searcher::new(Policy::Random(seed), false)
                .search(&mut game, k as u32)
                .measure;
            plain[k] += Searcher::new(Policy::Engine, false)
                .search(&mut game, k as u32)
                .measure
                .stats
                .nodes;
            add(&mut t[1][k], &o, kms[k], 0.0, 0.0);
            add(&mut t[2][k], &engine[k - 1].measure, kms[k], 0.0, 0.0);
            add(&mut t[3][k], &r, kms[k], 0.0, 0.0);
        }
        if game.braked() {
            return Err(game.brake_reason().to_string());
        }
        report(done + 1, rows(&t, d, done + 1), id_rows(&t, &plain, d));
    }
    let rows = rows(&t, d, fens.len());
    let id = id_rows(&t, &plain, d);
    Ok((rows, id))
}

fn add(t: &mut Tally, m: &Measure, km: f64, edges: f64, inner: f64) {
    t.m.add(m);
    t.km_leaves += km;
    t.edges += edges;
    t.inner += inner;
}

/// Leaves of the minimal tree of a uniform tree with branching `b`, depth `d`.
pub fn knuth_moore(b: f64, d: u32) -> f64 {
    b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0
}

fn rows(t: &[Vec<Tally>], d: usize, positions: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for k in 1..=d {
        let minimax = &t[0][k];
        let b = minimax.edges / minimax.inner.max(1.0);
        for (i, name) in ORDERINGS.iter().enumerate() {
            let x = &t[i][k];
            let cuts = i > 0 && x.m.cutoffs > 0;
            let prev = if k > 1 { t[i][k - 1].m.stats.nodes } else { 0 };
            let mean_leaves = x.m.stats.leaves as f64 / positions.max(1) as f64;
            out.push(Row {
                ordering: name.to_string(),
                depth: k as u32,
                positions,
                nodes: x.m.stats.nodes,
                leaves: x.m.stats.leaves,
                branching: b,
                first_cut_rate: cuts.then(|| x.m.first_cut_rate()),
                mean_cut_index: cuts.then(|| x.m.mean_cut_index()),
                ebf: (prev > 0).then(|| x.m.stats.nodes as f64 / prev as f64),
                km_ratio: x.m.stats.leaves as f64 / x.km_leaves.max(1.0),
                exponent: (b > 1.01 && mean_leaves >= 1.0)
                    .then(|| mean_leaves.ln() / b.ln() / k as f64),
            });
        }
    }
    out
}

fn id_rows(t: &[Vec<Tally>], plain: &[u64], d: usize) -> Vec<IdRow> {
    let mut out = Vec::new();
    let (mut mm_sum, mut engine_sum) = (0u64, 0u64);
    for k in 1..=d {
        let mm = t[0][k].m.stats.nodes;
        mm_sum += mm;
        engine_sum += t[2][k].m.stats.nodes;
        let b = t[0][k].edges / t[0][k].inner.max(1.0);
        out.push(IdRow {
            depth: k as u32,
            minimax_ratio: mm_sum as f64 / mm.max(1) as f64,
            b_over_b_minus_1: (b > 1.0).then(|| b / (b - 1.0)),
            engine_ratio: engine_sum as f64 / plain[k].max(1) as f64,
        });
    }
    out
}
