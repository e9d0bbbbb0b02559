//! `lab ablate`: the bench positions searched by Cutoff's engine to a fixed
//! depth with each search technique switched off in turn: nodes, time, the
//! effective branching factor and how many best moves change.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use serde::Serialize;

use cutoff_engine::board::Position;
use cutoff_engine::search::config::SearchConfig;
use cutoff_engine::search::info::{Info, Reporter};
use cutoff_engine::search::{SearchJob, Settings, Shared, ThreadPool};
use cutoff_engine::time::Limits;

/// One configuration; the JSON Lines object of `lab ablate --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The switch turned off (`none` for the full search).
    pub switch: String,
    pub depth: u32,
    pub positions: usize,
    pub nodes: u64,
    pub time_ms: f64,
    /// Nodes of the last iteration over the one before, over all positions.
    pub ebf: Option<f64>,
    /// Positions whose best move differs from the full search's.
    pub best_move_changes: usize,
    /// Nodes relative to the full search (1.0 = no change).
    pub node_ratio: f64,
}

/// Keeps the cumulative node count of every finished iteration, and adds
/// the nodes to `played` as the iterations end (progress reports).
struct Iterations<'a> {
    nodes: Vec<u64>,
    played: &'a AtomicU64,
    reported: u64,
}

impl Iterations<'_> {
    fn count(&mut self, nodes: u64) {
        self.played
            .fetch_add(nodes.saturating_sub(self.reported), Ordering::Relaxed);
        self.reported = self.reported.max(nodes);
    }
}

impl Reporter for Iterations<'_> {
    fn info(&mut self, info: &Info) {
        let d = info.depth as usize;
        if self.nodes.len() < d {
            self.nodes.resize(d, 0);
        }
        self.nodes[d - 1] = info.nodes;
        self.count(info.nodes);
    }
}

struct Sample {
    nodes: u64,
    last: u64,
    before_last: u64,
    best: Option<String>,
}

fn measure(pos: &Position, depth: u32, settings: &Settings, played: &AtomicU64) -> Sample {
    let mut its = Iterations {
        nodes: Vec::new(),
        played,
        reported: 0,
    };
    let job = SearchJob::new(pos.clone(), Limits::depth(depth), settings.clone());
    let result = ThreadPool::new(settings.threads, Shared::default()).search(job, &mut its);
    its.count(result.nodes);
    let cumulative = |d: usize| its.nodes.get(d).copied().unwrap_or(0);
    let d = depth as usize;
    let last = cumulative(d - 1).saturating_sub(if d >= 2 { cumulative(d - 2) } else { 0 });
    let before_last = if d >= 2 {
        cumulative(d - 2).saturating_sub(if d >= 3 { cumulative(d - 3) } else { 0 })
    } else {
        0
    };
    Sample {
        nodes: result.nodes,
        last,
        before_last,
        best: result.best.map(|m| pos.uci(m)),
    }
}

/// Runs the full search, every single-switch ablation, and the search on
/// the hand-crafted evaluation instead of the network (row `NNUE`), on `fens`.
pub fn run(fens: &[&str], depth: u32) -> Result<Vec<Row>, String> {
    let played = AtomicU64::new(0);
    run_observed(fens, depth, &AtomicBool::new(false), &played, |_| {})
}

/// The names of the rows [`run`] makes, in order.
pub fn row_names() -> Vec<String> {
    let switches = SearchConfig::SWITCHES.iter().map(|(n, _)| n.to_string());
    std::iter::once("none".to_string())
        .chain(switches)
        .chain(std::iter::once("NNUE".to_string()))
        .collect()
}

/// [`run`], reporting each row when it is done and adding the nodes to
/// `played` as they are searched; `stop` (checked between positions) ends
/// it with an error.
pub fn run_observed(
    fens: &[&str],
    depth: u32,
    stop: &AtomicBool,
    played: &AtomicU64,
    mut report: impl FnMut(&Row),
) -> Result<Vec<Row>, String> {
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f, false))
        .collect::<Result<_, _>>()?;
    let with = |config| Settings {
        config,
        ..Settings::default()
    };
    let mut configs = vec![("none".to_string(), with(SearchConfig::ALL_ON))];
    for (name, _) in SearchConfig::SWITCHES {
        let c = SearchConfig::without(name).ok_or_else(|| format!("unknown switch {name}"))?;
        configs.push((name.to_string(), with(c)));
    }
    let hand_crafted = Settings {
        network: None,
        ..Settings::default()
    };
    configs.push(("NNUE".to_string(), hand_crafted));
    let mut rows: Vec<Row> = Vec::new();
    let mut baseline: Vec<Option<String>> = Vec::new();
    for (name, config) in configs {
        let started = Instant::now();
        let mut samples = Vec::with_capacity(positions.len());
        for p in &positions {
            if stop.load(Ordering::Relaxed) {
                return Err("stopped".to_string());
            }
            samples.push(measure(p, depth, &config, played));
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        if baseline.is_empty() {
            baseline = samples.iter().map(|s| s.best.clone()).collect();
        }
        let nodes: u64 = samples.iter().map(|s| s.nodes).sum();
        let last: u64 = samples.iter().map(|s| s.last).sum();
        let before: u64 = samples.iter().map(|s| s.before_last).sum();
        let changes = samples
            .iter()
            .zip(&baseline)
            .filter(|(s, b)| &s.best != *b)
            .count();
        let base_nodes = rows.first().map_or(nodes, |r| r.nodes);
        let row = Row {
            switch: name,
            depth,
            positions: positions.len(),
            nodes,
            time_ms: ms,
            ebf: (before > 0).then(|| last as f64 / before as f64),
            best_move_changes: changes,
            node_ratio: nodes as f64 / base_nodes.max(1) as f64,
        };
        report(&row);
        rows.push(row);
    }
    Ok(rows)
}
