//! The long experiments as jobs: `lab compare`, `lab ordering` and
//! `lab ablate`, checked first (bad input is a 400 at once, never a failed
//! job), then run in a job thread that fills the table row by row.

use std::sync::atomic::Ordering;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::alphabeta::Cutoff;
use crate::chess::ChessGame;
use crate::values::format_value;
use crate::{PUBLISHED_FEN, ablate, compare, ordering};

use super::api::{ApiError, ApiResult, bad, chess_options_with};
use super::estimate;
use super::jobs::{Handle, Jobs};
use super::limits::{LIMITS, check_range};

/// `POST /api/jobs`: the experiment and its options (the CLI's, by name).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    /// `compare`, `ordering` or `ablate`.
    kind: String,
    fen: Option<String>,
    /// Signed, so that a negative number gets the range's message.
    depth: Option<i64>,
    eval: Option<String>,
    #[serde(default)]
    published: bool,
    #[serde(default)]
    textbook_only: bool,
    positions: Option<i64>,
    seed: Option<u64>,
}

/// Checks the request and starts its job; answers `{"id": N}`.
pub fn start(jobs: &Jobs, req: JobRequest) -> ApiResult {
    let id = match req.kind.as_str() {
        "compare" => start_compare(jobs, &req)?,
        "ordering" => start_ordering(jobs, &req)?,
        "ablate" => start_ablate(jobs, &req)?,
        other => {
            return Err(bad(format!(
                "unknown job kind '{other}' (compare, ordering or ablate)"
            )));
        }
    };
    Ok(json!({ "id": id }))
}

fn busy(message: String) -> ApiError {
    ApiError {
        status: 503,
        message,
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

fn start_compare(jobs: &Jobs, req: &JobRequest) -> Result<u64, ApiError> {
    let depth = req.depth.unwrap_or(4);
    let depth = check_range("depth", depth, LIMITS.compare_depth.into()).map_err(bad)? as u32;
    let fen = req.fen.clone().unwrap_or_else(|| PUBLISHED_FEN.to_string());
    let chess = chess_options_with(req.eval.as_deref(), req.published)?;
    let game = ChessGame::from_fen(&fen, chess).map_err(|e| bad(format!("FEN: {e}")))?;
    let spec = compare::Spec {
        fen,
        depth,
        chess,
        rule: if req.published {
            Cutoff::Strict
        } else {
            Cutoff::Textbook
        },
        all: !req.textbook_only,
    };
    let per_depth = if spec.all { 5 } else { 2 };
    let total = per_depth * depth as usize;
    let budget = LIMITS.node_budget;
    let work = move |h: &Handle| {
        let played = h.nodes();
        let game = game
            .with_brake(h.stop_flag(), budget)
            .counting(played.clone());
        let mut rows: Vec<compare::Row> = Vec::new();
        // Nodes at the end of each depth: the cost of every depth so far.
        let mut ends: Vec<u64> = Vec::new();
        compare::run_observed(&spec, game, |p| match p {
            compare::Progress::Started { algorithm, depth } => {
                if algorithm == "minimax" && depth > 1 {
                    ends.push(played.load(Ordering::Relaxed));
                    let costs: Vec<u64> = ends
                        .iter()
                        .scan(0, |prev, &e| {
                            let cost = e - *prev;
                            *prev = e;
                            Some(cost)
                        })
                        .collect();
                    let minimax: Vec<u64> = rows
                        .iter()
                        .filter(|r| r.algorithm == "minimax")
                        .map(|r| r.nodes)
                        .collect();
                    let growth = estimate::growth(&minimax);
                    let total = estimate::by_depth(&costs, growth, spec.depth);
                    h.update(|s| s.estimate = total);
                    estimate::check_budget(&costs, growth, spec.depth, budget)?;
                }
                h.update(|s| s.progress = format!("depth {depth}: {algorithm}"));
                Ok(())
            }
            compare::Progress::Row(row) => {
                rows.push(row.clone());
                let reference = compare::reference(&rows, spec.depth);
                let mut json = to_json(row);
                json["value_text"] = json!(format_value(row.value));
                h.update(|s| {
                    s.rows.push(json);
                    s.done = rows.len();
                    s.extra = json!({ "reference": reference });
                });
                Ok(())
            }
        })
        .map(|_| ())
    };
    jobs.start("compare", total, budget, work).map_err(busy)
}

/// The positions of an ordering or ablation job: one FEN, or the first
/// `positions` bench positions.
fn bench(positions: Option<i64>, default: i64, max: usize) -> Result<Vec<String>, ApiError> {
    let all = cutoff_engine::bench::POSITIONS;
    let max = max.min(all.len());
    let n = positions.unwrap_or(default);
    let n = check_range("positions", n, max as u64).map_err(bad)? as usize;
    Ok(all[..n].iter().map(|s| s.to_string()).collect())
}

fn start_ordering(jobs: &Jobs, req: &JobRequest) -> Result<u64, ApiError> {
    let depth = req.depth.unwrap_or(3);
    let depth = check_range("depth", depth, LIMITS.ordering_depth.into()).map_err(bad)? as u32;
    let chess = chess_options_with(req.eval.as_deref(), false)?;
    let fens = match &req.fen {
        Some(fen) => {
            ChessGame::from_fen(fen, chess).map_err(|e| bad(format!("FEN: {e}")))?;
            vec![fen.clone()]
        }
        None => bench(req.positions, 4, LIMITS.ordering_positions)?,
    };
    let seed = req.seed.unwrap_or(1);
    let total = fens.len();
    let work = move |h: &Handle| {
        let stop = h.stop_flag();
        let played = h.nodes();
        let game = |fen: &str| {
            let g = ChessGame::from_fen(fen, chess)?;
            Ok(g.with_brake(stop.clone(), LIMITS.node_budget)
                .counting(played.clone()))
        };
        h.update(|s| s.progress = format!("position 1 of {total}"));
        // Minimax alone must fit a position's budget: a sure early end.
        let check = |minimax: &[u64]| {
            let growth = estimate::growth(minimax);
            estimate::check_budget(minimax, growth, depth, LIMITS.node_budget)
                .map_err(|e| format!("one position, minimax alone: {e}"))
        };
        ordering::run_observed(&fens, depth, seed, game, check, |done, rows, id| {
            let nodes = played.load(Ordering::Relaxed);
            h.update(|s| {
                s.rows = rows.iter().map(to_json).collect();
                s.extra = json!({ "id": id });
                s.done = done;
                s.estimate = estimate::by_steps(nodes, done, total);
                s.progress = format!("position {} of {total}", (done + 1).min(total));
            });
        })
        .map(|_| ())
    };
    // The budget holds per position.
    jobs.start("ordering", total, LIMITS.node_budget, work)
        .map_err(busy)
}

fn start_ablate(jobs: &Jobs, req: &JobRequest) -> Result<u64, ApiError> {
    let depth = req.depth.unwrap_or(5);
    let depth = check_range("depth", depth, LIMITS.ablate_depth.into()).map_err(bad)? as u32;
    let fens = match &req.fen {
        Some(fen) => {
            cutoff_engine::board::Position::from_fen(fen, false)
                .map_err(|e| bad(format!("FEN: {e}")))?;
            vec![fen.clone()]
        }
        None => bench(req.positions, 4, LIMITS.ablate_positions)?,
    };
    let names = ablate::row_names();
    let total = names.len();
    let work = move |h: &Handle| {
        let fens: Vec<&str> = fens.iter().map(String::as_str).collect();
        let (stop, played) = (h.stop_flag(), h.nodes());
        h.update(|s| s.progress = format!("switched off: {}", names[0]));
        ablate::run_observed(&fens, depth, &stop, &played, |row| {
            let nodes = played.load(Ordering::Relaxed);
            h.update(|s| {
                s.rows.push(to_json(row));
                s.done = s.rows.len();
                s.estimate = estimate::by_steps(nodes, s.done, total);
                if let Some(next) = names.get(s.done) {
                    s.progress = format!("switched off: {next}");
                }
            });
        })
        .map(|_| ())
    };
    jobs.start("ablate", total, 0, work).map_err(busy)
}
