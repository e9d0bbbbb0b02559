//! `lab scores`: the value of every root move, each searched `depth` plies
//! below the move (as the published code does), sorted from worst to best.

use serde::Serialize;

use super::alphabeta::{self, Cutoff};
use super::chess::{ChessGame, ChessOptions};
use super::game::{Game, Value};

/// One root move; also the JSON Lines object of `lab scores --json`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveScore {
    #[serde(rename = "move")]
    pub mv: String,
    /// For the side to move at the root; mate as +-(1000000 - plies).
    pub score: Value,
}

/// Scores of all root moves, ascending; equal scores keep the move order.
pub fn run(
    fen: &str,
    depth: u32,
    chess: ChessOptions,
    rule: Cutoff,
) -> Result<Vec<MoveScore>, String> {
    run_observed(ChessGame::from_fen(fen, chess)?, depth, rule, |_, _| {})
}

/// [`run`] on `game` (perhaps with a brake, which ends the run with an
/// error), telling `report` each move's score with the number of moves.
pub fn run_observed(
    mut game: ChessGame,
    depth: u32,
    rule: Cutoff,
    mut report: impl FnMut(&MoveScore, usize),
) -> Result<Vec<MoveScore>, String> {
    let moves = game.moves();
    let mut out = Vec::new();
    for mv in moves.iter().copied() {
        let name = game.move_name(mv);
        game.play(mv);
        let score = alphabeta::search(&mut game, depth, rule).value;
        game.undo();
        if game.braked() {
            return Err(game.brake_reason().to_string());
        }
        out.push(MoveScore { mv: name, score });
        report(&out[out.len() - 1], moves.len());
    }
    out.sort_by_key(|s| s.score);
    Ok(out)
}
