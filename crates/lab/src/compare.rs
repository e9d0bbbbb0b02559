//! `lab compare`: the same position searched by textbook minimax, textbook
//! alpha-beta, alpha-beta with move ordering, with ordering + table +
//! iterative deepening, and Cutoff's own search, depth by depth.

use std::time::Instant;

use serde::Serialize;

use cutoff_engine::board::Position;
use cutoff_engine::search::info::Silent;
use cutoff_engine::search::score::{MATE as ENGINE_MATE, is_mate};
use cutoff_engine::search::{SearchJob, Settings, Shared, ThreadPool};
use cutoff_engine::time::Limits;

use super::alphabeta::{self, Cutoff};
use super::chess::{ChessGame, ChessOptions, MATE};
use super::game::{Outcome, Value};
use super::minimax;
use super::ordered::{Policy, Searcher};

/// One table row; also the JSON Lines object of `lab compare --json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Row {
    pub algorithm: String,
    pub depth: u32,
    pub nodes: u64,
    /// Positions evaluated; unknown (null) for the engine.
    pub leaves: Option<u64>,
    /// Wall time; with [`Spec::runs`] above 1, the median of the runs.
    pub time_ms: f64,
    /// The repeated runs' spread (textbook rows, when repeated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
    /// Centipawns for the side to move; mate as +-(1000000 - plies).
    pub value: Value,
    pub best_move: Option<String>,
}

/// Times of one search run several times: the median is the row's time.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Timing {
    pub runs: usize,
    pub min_ms: f64,
    pub max_ms: f64,
}

/// What to compare.
#[derive(Clone, Debug)]
pub struct Spec {
    pub fen: String,
    pub depth: u32,
    pub chess: ChessOptions,
    pub rule: Cutoff,
    /// Include the ordered searches and the engine (false: textbook rows only).
    pub all: bool,
    /// Runs of each textbook search (1: one, as the CLI times it); repeats
    /// stop early once they have taken [`REPEAT_MS`].
    pub runs: usize,
}

/// Time the repeats of one depth's textbook searches may take: enough for
/// a spread where a search takes milliseconds, nothing where it takes seconds.
pub const REPEAT_MS: f64 = 300.0;

/// What [`run_observed`] reports while it works.
pub enum Progress<'a> {
    /// This algorithm starts on this depth.
    Started { algorithm: &'a str, depth: u32 },
    /// A finished row.
    Row(&'a Row),
}

/// The rows for depths 1..=depth; an error if the textbook algorithms disagree.
pub fn run(spec: &Spec) -> Result<Vec<Row>, String> {
    run_observed(
        spec,
        ChessGame::from_fen(&spec.fen, spec.chess)?,
        |_| Ok(()),
    )
}

/// [`run`] on `game` (the position of `spec.fen`, perhaps with a brake),
/// reporting each algorithm as it starts and each row as it ends. A braked
/// game, or an error from `report` (a job that will not fit its budget),
/// ends the run with an error.
pub fn run_observed(
    spec: &Spec,
    mut game: ChessGame,
    report: impl FnMut(Progress) -> Result<(), String>,
) -> Result<Vec<Row>, String> {
    let mut out = Rows {
        rows: Vec::new(),
        report,
    };
    let mut id = Searcher::new(Policy::Engine, true);
    let mut id_row: Option<Row> = None;
    for depth in 1..=spec.depth {
        out.start("minimax", depth, &game)?;
        let mm = timed(|| minimax::search(&mut game, depth));
        out.start("alphabeta", depth, &game)?;
        let ab = timed(|| alphabeta::search(&mut game, depth, spec.rule));
        if game.braked() {
            return Err(game.brake_reason().to_string());
        }
        if mm.0.value != ab.0.value {
            return Err(format!(
                "depth {depth}: minimax value {} but alpha-beta value {}",
                mm.0.value, ab.0.value
            ));
        }
        let minimax_value = mm.0.value;
        let (mm_times, ab_times) = repeat(spec, &game, depth, mm.1, ab.1)?;
        out.push(textbook_row("minimax", depth, &mut game, mm, &mm_times))?;
        out.push(textbook_row("alphabeta", depth, &mut game, ab, &ab_times))?;
        if !spec.all {
            continue;
        }
        out.start("alphabeta+ordering", depth, &game)?;
        let ordered = timed(|| Searcher::new(Policy::Engine, false).search(&mut game, depth));
        let row = ordered_row("alphabeta+ordering", &mut game, &ordered.0, ordered.1, None);
        out.start("alphabeta+ordering+tt+id", depth, &game)?;
        out.push(check(row, minimax_value)?)?;
        let iteration = timed(|| id.search(&mut game, depth));
        let row = ordered_row(
            "alphabeta+ordering+tt+id",
            &mut game,
            &iteration.0,
            iteration.1,
            id_row.as_ref(),
        );
        out.start("engine", depth, &game)?;
        id_row = Some(check(row.clone(), minimax_value)?);
        out.push(row)?;
        out.push(engine_row(game.position(), depth))?;
    }
    Ok(out.rows)
}

/// The rows so far and the listener told about them.
struct Rows<F> {
    rows: Vec<Row>,
    report: F,
}

impl<F: FnMut(Progress) -> Result<(), String>> Rows<F> {
    /// Announces the next search, unless the game's brake holds.
    fn start(&mut self, algorithm: &str, depth: u32, game: &ChessGame) -> Result<(), String> {
        if game.braked() {
            return Err(game.brake_reason().to_string());
        }
        (self.report)(Progress::Started { algorithm, depth })
    }

    fn push(&mut self, row: Row) -> Result<(), String> {
        (self.report)(Progress::Row(&row))?;
        self.rows.push(row);
        Ok(())
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed().as_secs_f64() * 1000.0)
}

/// The times of `spec.runs` runs of minimax and alpha-beta at `depth`, the
/// first given, the others alternated (so a busy moment slows both) on a
/// copy of `game` that keeps its brake but not its node count (progress
/// and the budget's estimate count each search once).
fn repeat(
    spec: &Spec,
    game: &ChessGame,
    depth: u32,
    mm_ms: f64,
    ab_ms: f64,
) -> Result<(Vec<f64>, Vec<f64>), String> {
    let (mut mm, mut ab) = (vec![mm_ms], vec![ab_ms]);
    let mut spare = game.uncounted();
    let mut spent = 0.0;
    while mm.len() < spec.runs && spent < REPEAT_MS {
        let (m, t) = timed(|| minimax::search(&mut spare, depth));
        let (a, u) = timed(|| alphabeta::search(&mut spare, depth, spec.rule));
        if spare.braked() {
            return Err(spare.brake_reason().to_string());
        }
        debug_assert_eq!(m.value, a.value, "the repeats find the same value");
        mm.push(t);
        ab.push(u);
        spent += t + u;
    }
    Ok((mm, ab))
}

/// The median of `times` (the mean of the middle two for an even count)
/// and, for more than one, their spread.
fn summary(times: &[f64]) -> (f64, Option<Timing>) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    debug_assert!(n > 0, "at least the first run");
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    let spread = (n > 1).then(|| Timing {
        runs: n,
        min_ms: sorted[0],
        max_ms: sorted[n - 1],
    });
    (median, spread)
}

fn textbook_row(
    name: &str,
    depth: u32,
    game: &mut ChessGame,
    (out, _): (Outcome<cutoff_engine::board::Move>, f64),
    times: &[f64],
) -> Row {
    let (time_ms, timing) = summary(times);
    Row {
        algorithm: name.to_string(),
        depth,
        nodes: out.stats.nodes,
        leaves: Some(out.stats.leaves),
        time_ms,
        timing,
        value: out.value,
        best_move: out.best.map(|m| game.position().uci(m)),
    }
}

/// A row of the ordered searches; with `previous`, the totals of the earlier
/// iterations are added (iterative deepening pays for every iteration).
fn ordered_row(
    name: &str,
    game: &mut ChessGame,
    it: &super::ordered::Iteration,
    ms: f64,
    previous: Option<&Row>,
) -> Row {
    let (nodes, leaves, before_ms) =
        previous.map_or((0, 0, 0.0), |r| (r.nodes, r.leaves.unwrap_or(0), r.time_ms));
    Row {
        algorithm: name.to_string(),
        depth: it.depth,
        nodes: nodes + it.measure.stats.nodes,
        leaves: Some(leaves + it.measure.stats.leaves),
        time_ms: before_ms + ms,
        timing: None,
        value: it.value,
        best_move: it.best.map(|m| game.position().uci(m)),
    }
}

fn check(row: Row, minimax_value: Value) -> Result<Row, String> {
    if row.value != minimax_value {
        return Err(format!(
            "depth {}: {} value {} differs from minimax value {minimax_value}",
            row.depth, row.algorithm, row.value
        ));
    }
    Ok(row)
}

/// Cutoff's full search at `depth` (its own evaluation, quiescence and pruning).
fn engine_row(pos: &Position, depth: u32) -> Row {
    let started = Instant::now();
    let job = SearchJob::new(pos.clone(), Limits::depth(depth), Settings::default());
    let result = ThreadPool::new(1, Shared::default()).search(job, &mut Silent::default());
    Row {
        algorithm: "engine".to_string(),
        depth,
        nodes: result.nodes,
        leaves: None,
        time_ms: started.elapsed().as_secs_f64() * 1000.0,
        timing: None,
        value: engine_value(result.score),
        best_move: result.best.map(|m| pos.uci(m)),
    }
}

/// Converts the engine's mate scores to the lab's convention.
pub fn engine_value(score: i32) -> Value {
    if is_mate(score) {
        let plies = ENGINE_MATE - score.abs();
        score.signum() * (MATE - plies)
    } else {
        score
    }
}

/// The textbook's reference curves for a node chart: b^(d/2) (perfect
/// ordering) and b^(3d/4) (random ordering), with b the mean branching
/// factor of the deepest full minimax tree among `rows`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Reference {
    pub branching: f64,
    /// (depth, b^(d/2), b^(3d/4)) for depths 1..=depth.
    pub lines: Vec<(u32, f64, f64)>,
}

/// [`Reference`] up to `depth`; `None` before a minimax row with inner nodes.
pub fn reference(rows: &[Row], depth: u32) -> Option<Reference> {
    let deepest = rows
        .iter()
        .filter(|r| r.algorithm == "minimax")
        .filter_map(|r| Some((r.nodes, r.leaves?)))
        .rfind(|&(n, l)| n > l)?;
    let (n, l) = (deepest.0 as f64, deepest.1 as f64);
    // Edges (every node but the root) over inner nodes.
    let b = (n - 1.0) / (n - l);
    let lines = (1..=depth)
        .map(|d| (d, b.powf(d as f64 / 2.0), b.powf(0.75 * d as f64)))
        .collect();
    Some(Reference {
        branching: b,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_time_is_the_median_with_its_spread() {
        assert_eq!(summary(&[4.0]), (4.0, None));
        let (median, spread) = summary(&[9.0, 1.0, 4.0]);
        assert_eq!(median, 4.0);
        let spread = spread.expect("three runs");
        assert_eq!((spread.runs, spread.min_ms, spread.max_ms), (3, 1.0, 9.0));
        assert_eq!(summary(&[2.0, 1.0, 8.0, 4.0]).0, 3.0);
    }
}
