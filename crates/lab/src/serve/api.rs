//! The JSON handlers: positions (chess and tic-tac-toe), alpha-beta trees,
//! and the long experiments started as jobs. Every number comes from the
//! lab's own code; the page only shows them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::alphabeta::{self, Bounds, Cutoff};
use crate::chess::{ChessGame, ChessOptions, EvalKind, MoveOrder};
use crate::explicit::ExplicitTree;
use crate::game::Game;
use crate::tictactoe::TicTacToe;
use crate::values::format_value;
use cutoff_engine::board::Position;

use super::code::{Algorithm, Code};
use super::limits::{LIMITS, check_range};
use super::trace::Trace;

/// A refused request: HTTP status and a message for the page.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

pub type ApiResult = Result<Json, ApiError>;

/// 400 Bad Request with `message`.
pub fn bad(message: impl Into<String>) -> ApiError {
    ApiError {
        status: 400,
        message: message.into(),
    }
}

/// Parses a JSON body into `T`; unknown fields are refused, so a typo does
/// not pass silently.
pub fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("bad request body: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    fen: String,
    #[serde(default)]
    moves: Vec<String>,
}

/// A chess position after `moves`: the board, the side to move, the legal
/// moves (UCI), and whether the lab's trees end here.
pub fn position(req: PositionRequest) -> ApiResult {
    if req.moves.len() > LIMITS.position_moves {
        return Err(bad(format!(
            "at most {} moves per request",
            LIMITS.position_moves
        )));
    }
    let mut pos = Position::from_fen(&req.fen, false).map_err(|e| bad(format!("FEN: {e}")))?;
    for mv in &req.moves {
        let fen = pos.fen();
        pos.play_uci(mv)
            .map_err(|_| bad(format!("the move {mv} is not legal in {fen}")))?;
    }
    let fen = pos.fen();
    let mut game = ChessGame::from_fen(&fen, ChessOptions::default()).map_err(bad)?;
    let moves: Vec<String> = game.moves().iter().map(|&m| pos.uci(m)).collect();
    let over = if !pos.has_legal_move() {
        Some(if pos.in_check() {
            "checkmate"
        } else {
            "stalemate"
        })
    } else if game.is_over() {
        Some("drawn (insufficient material or the 75-move rule)")
    } else {
        None
    };
    Ok(json!({
        "fen": fen,
        "squares": squares(&pos),
        "side": if pos.side_to_move() == cutoff_engine::board::Color::White { "white" } else { "black" },
        "check": pos.in_check(),
        "moves": moves,
        "over": over,
    }))
}

/// The 64 squares from a8 to h1: a FEN piece letter or "".
fn squares(pos: &Position) -> Vec<String> {
    use cutoff_engine::board::{Color, File, Rank, Square};
    let board = pos.board();
    let mut out = Vec::with_capacity(64);
    for rank in Rank::ALL.iter().rev() {
        for &file in &File::ALL {
            let sq = Square::new(file, *rank);
            let letter = board.piece_on(sq).map_or(String::new(), |p| {
                let c: char = p.into();
                if board.color_on(sq) == Some(Color::White) {
                    c.to_ascii_uppercase().to_string()
                } else {
                    c.to_string()
                }
            });
            out.push(letter);
        }
    }
    out
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicTacToeRequest {
    #[serde(default)]
    moves: String,
}

/// A tic-tac-toe board after `moves` (cells a1..c3).
pub fn tictactoe(req: TicTacToeRequest) -> ApiResult {
    let mut g = TicTacToe::from_moves(&req.moves).map_err(bad)?;
    let legal: Vec<String> = g.moves().into_iter().map(|c| g.move_name(c)).collect();
    Ok(json!({
        "cells": g.cells().iter().map(|c| c.to_string().trim().to_string()).collect::<Vec<_>>(),
        "to_move": if g.max_to_move() { "X" } else { "O" },
        "moves": legal,
        "over": g.is_over(),
        "winner": g.winner_mark().map(String::from),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeRequest {
    /// `chess`, `tictactoe` or `text`.
    game: String,
    fen: Option<String>,
    moves: Option<String>,
    text: Option<String>,
    depth: Option<u32>,
    eval: Option<String>,
    /// `failsoft` (the default), `failhard`, `minimax` or `pvs`.
    algorithm: Option<String>,
    /// The cutoff test: `>=` (the default: MAX cuts at value >= beta) or
    /// `>` (strict: equal values do not cut).
    test: Option<String>,
}

impl Algorithm {
    fn parse(name: Option<&str>) -> Result<Self, ApiError> {
        Ok(match name.unwrap_or("failsoft") {
            "failsoft" => Self::FailSoft,
            "failhard" => Self::FailHard,
            "minimax" => Self::Minimax,
            "pvs" => Self::Pvs,
            other => {
                return Err(bad(format!(
                    "unknown algorithm '{other}' (minimax, failsoft, failhard or pvs)"
                )));
            }
        })
    }

    fn title(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::FailSoft => "alpha-beta (fail-soft)",
            Self::FailHard => "alpha-beta (fail-hard)",
            Self::Pvs => "negamax with PVS",
        }
    }
}

/// The algorithm and its cutoff test: `>=` (the default) or the strict `>`,
/// offered for the two alpha-beta forms.
fn code_of(req: &TreeRequest) -> Result<Code, ApiError> {
    let algorithm = Algorithm::parse(req.algorithm.as_deref())?;
    let strict = match req.test.as_deref().unwrap_or(">=") {
        ">=" => false,
        ">" => true,
        other => return Err(bad(format!("unknown cutoff test '{other}' (>= or >)"))),
    };
    if strict && !matches!(algorithm, Algorithm::FailSoft | Algorithm::FailHard) {
        return Err(bad(
            "the strict cutoff test is offered for failsoft and failhard",
        ));
    }
    Ok(Code::new(algorithm, strict))
}

/// Textbook alpha-beta on a chess position, a tic-tac-toe board or a text
/// tree, with every node and step recorded (at most `tree_nodes` nodes).
pub fn tree(req: TreeRequest) -> ApiResult {
    let algo = code_of(&req)?;
    let strict = if algo.strict { ", strict test" } else { "" };
    let name = format!("{}{strict}", algo.algorithm.title());
    match req.game.as_str() {
        "chess" => {
            let depth = req.depth.unwrap_or(2);
            check_range("depth", depth.into(), LIMITS.chess_tree_depth.into()).map_err(bad)?;
            let fen = req.fen.as_deref().unwrap_or(crate::PUBLISHED_FEN);
            let options = chess_options(req.eval.as_deref())?;
            let stop = Arc::new(AtomicBool::new(false));
            let game = ChessGame::from_fen(fen, options).map_err(|e| bad(format!("FEN: {e}")))?;
            let mut game = game.with_brake(stop.clone(), u64::MAX);
            let title = format!("{name}, depth {depth}: {fen}");
            trace(&mut game, algo, depth, title, None, Some(stop))
        }
        "tictactoe" => {
            let depth = req.depth.unwrap_or(9);
            let max = LIMITS.tictactoe_tree_depth.into();
            check_range("depth", depth.into(), max).map_err(bad)?;
            let mut g = TicTacToe::from_moves(req.moves.as_deref().unwrap_or("")).map_err(bad)?;
            let title = format!("{name}, tic-tac-toe, depth {depth}");
            trace(&mut g, algo, depth, title, None, None)
        }
        "text" => {
            let text = req.text.as_deref().unwrap_or("");
            if text.len() > LIMITS.tree_text_bytes {
                return Err(bad(format!(
                    "the tree text is {} bytes, more than {}",
                    text.len(),
                    LIMITS.tree_text_bytes
                )));
            }
            let mut t = ExplicitTree::parse(text).map_err(bad)?;
            let (height, leaves) = (t.height(), t.leaf_count());
            let shape = t.clone();
            trace(
                &mut t,
                algo,
                height,
                format!("{name} on {text}"),
                Some((leaves, &shape)),
                None,
            )
        }
        other => Err(bad(format!(
            "unknown game '{other}' (chess, tictactoe or text)"
        ))),
    }
}

/// Runs alpha-beta with a [`Trace`] and returns the recorded tree; `text`:
/// a text tree's leaf count and shape.
fn trace<G: Game>(
    game: &mut G,
    algo: Code,
    depth: u32,
    title: String,
    text: Option<(u64, &ExplicitTree)>,
    stop: Option<Arc<AtomicBool>>,
) -> ApiResult {
    let mut rec = Trace::new(algo, LIMITS.tree_nodes, stop);
    let (soft, hard) = (Bounds::Soft, Bounds::Hard);
    let rule = if algo.strict {
        Cutoff::Strict
    } else {
        Cutoff::Textbook
    };
    let out = match algo.algorithm {
        Algorithm::FailSoft => alphabeta::search_with(game, depth, rule, soft, &mut rec),
        Algorithm::FailHard => alphabeta::search_with(game, depth, rule, hard, &mut rec),
        Algorithm::Minimax => alphabeta::search_with(game, depth, Cutoff::Never, soft, &mut rec),
        Algorithm::Pvs => crate::pvs::search_observed(game, depth, &mut rec),
    };
    if rec.overflow {
        return Err(bad(format!(
            "the tree has more than {} nodes (pruned moves included); choose a smaller depth",
            LIMITS.tree_nodes
        )));
    }
    let pv = rec.mark_pv();
    rec.mark_bounds();
    // Moves never searched, each once (PVS may prune a move on one visit
    // and search it on another).
    let searched: Vec<bool> = {
        let mut s = vec![false; rec.nodes.len()];
        for (id, n) in rec.nodes.iter().enumerate() {
            if !n.pruned {
                s[rec.first_visit(id)] = true;
            }
        }
        s
    };
    let pruned = (0..rec.nodes.len())
        .filter(|&id| rec.nodes[id].pruned && rec.nodes[id].same_as.is_none() && !searched[id])
        .count();
    if let Some((_, shape)) = text {
        rec.complete_from(shape);
    }
    let total_leaves = text.map(|(leaves, _)| leaves);
    Ok(json!({
        "title": title,
        "text_tree": total_leaves.is_some(),
        "depth": depth,
        "value": out.value,
        "value_text": format_value(out.value),
        "nodes_visited": out.stats.nodes,
        "leaves": out.stats.leaves,
        "distinct_leaves": rec.distinct_leaves(),
        "pruned": pruned,
        "total_leaves": total_leaves,
        "pv": pv,
        "test": if algo.strict { ">" } else { ">=" },
        "pseudocode": algo.text(),
        "nodes": rec.nodes,
        "steps": rec.steps,
    }))
}

/// Evaluation and move order of the textbook searches (`published`: the
/// python-chess code's order and flat mates).
pub fn chess_options_with(eval: Option<&str>, published: bool) -> Result<ChessOptions, ApiError> {
    let eval = match eval.unwrap_or("material") {
        "material" => EvalKind::Material,
        "full" => EvalKind::Full,
        other => return Err(bad(format!("unknown eval '{other}' (material or full)"))),
    };
    Ok(ChessOptions {
        eval,
        order: if published {
            MoveOrder::PythonChess
        } else {
            MoveOrder::Generator
        },
        flat_mate: published,
    })
}

fn chess_options(eval: Option<&str>) -> Result<ChessOptions, ApiError> {
    chess_options_with(eval, false)
}
