//! The long experiments as jobs: `lab compare`, `lab scores`, `lab
//! ordering` and `lab ablate`, checked first (bad input is a 400 at once, never a failed
//! job), then run in a job thread that fills the table row by row.

use std::sync::atomic::Ordering;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::alphabeta::Cutoff;
use crate::chess::ChessGame;
use crate::game::Game;
use crate::values::format_value;
use crate::{PUBLISHED_FEN, ablate, compare, ordering, published, scores};

use super::api::{ApiError, ApiResult, bad, chess_options_with};
use super::estimate;
use super::jobs::{Handle, Jobs};
use super::limits::{LIMITS, check_range};

/// `POST /api/jobs`: the experiment and its options (the CLI's, by name).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    /// `compare`, `scores`, `ordering` or `ablate`.
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
    /// Signed for the same reason; 0 and up.
    seed: Option<i64>,
    /// `compare`: runs of each textbook search, for a median time.
    runs: Option<i64>,
}

/// Checks the request and starts its job; answers `{"id": N}`.
pub fn start(jobs: &Jobs, req: JobRequest) -> ApiResult {
    let id = match req.kind.as_str() {
        "compare" => start_compare(jobs, &req)?,
        "scores" => start_scores(jobs, &req)?,
        "ordering" => start_ordering(jobs, &req)?,
        "ablate" => start_ablate(jobs, &req)?,
        other => {
            return Err(bad(format!(
                "unknown job kind '{other}' (compare, scores, ordering or ablate)"
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
    let runs = check_range("runs", req.runs.unwrap_or(1), LIMITS.compare_runs as u64)
        .map_err(bad)? as usize;
    let on_published = fen == PUBLISHED_FEN;
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
        runs,
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
                if on_published {
                    with_published(&mut json, row);
                }
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

/// The published comparison's node count and time for a row of its
/// position: `published_nodes`, `published_swapped` (the number printed
/// in the other algorithm's row) and `published_s`.
fn with_published(json: &mut Json, row: &compare::Row) {
    if let Some((nodes, swapped)) = published::nodes(&row.algorithm, row.depth, row.nodes) {
        json["published_nodes"] = json!(nodes);
        json["published_swapped"] = json!(swapped);
    }
    let seconds = published::SECONDS.iter().find(|s| s.0 == row.depth);
    if let Some(&(_, minimax, alphabeta)) = seconds {
        match row.algorithm.as_str() {
            "minimax" => json["published_s"] = json!(minimax),
            "alphabeta" => json["published_s"] = json!(alphabeta),
            _ => {}
        }
    }
}

/// `lab scores` as a job: each root move's score as it is found, the rows
/// sorted worst to best; on the published position at its depth, each
/// row also carries the published score (`published`, as printed) and
/// whether ours agrees (`agrees`).
fn start_scores(jobs: &Jobs, req: &JobRequest) -> Result<u64, ApiError> {
    let depth = req.depth.unwrap_or(published::SCORES_DEPTH.into());
    let depth = check_range("depth", depth, LIMITS.scores_depth.into()).map_err(bad)? as u32;
    let fen = req.fen.clone().unwrap_or_else(|| PUBLISHED_FEN.to_string());
    let chess = chess_options_with(req.eval.as_deref(), req.published)?;
    let mut game = ChessGame::from_fen(&fen, chess).map_err(|e| bad(format!("FEN: {e}")))?;
    let total = game.moves().len();
    let compared = fen == PUBLISHED_FEN && depth == published::SCORES_DEPTH;
    let rule = if req.published {
        Cutoff::Strict
    } else {
        Cutoff::Textbook
    };
    let budget = LIMITS.node_budget;
    let work = move |h: &Handle| {
        let game = game.with_brake(h.stop_flag(), budget).counting(h.nodes());
        let mut found: Vec<scores::MoveScore> = Vec::new();
        scores::run_observed(game, depth, rule, |row, _| {
            found.push(row.clone());
            found.sort_by_key(|s| s.score);
            let rows: Vec<Json> = found.iter().map(|s| score_json(s, compared)).collect();
            let done = rows.len();
            h.update(|s| {
                s.rows = rows;
                s.done = done;
                s.progress = format!("{done} of {total} root moves");
            });
        })
        .map(|_| ())
    };
    jobs.start("scores", total, budget, work).map_err(busy)
}

fn score_json(s: &scores::MoveScore, compared: bool) -> Json {
    let mut json = to_json(s);
    json["score_text"] = json!(format_value(s.score));
    if let Some((text, agrees)) = compared.then(|| published::score(&s.mv, s.score)).flatten() {
        json["published"] = json!(text);
        json["agrees"] = json!(agrees);
    }
    json
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
    let seed = match req.seed.unwrap_or(1) {
        s if s >= 0 => s as u64,
        s => return Err(bad(format!("seed must be 0 or more (got {s})"))),
    };
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
