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
    let mut game = ChessGame::from_fen(fen, chess)?;
    let mut out = Vec::new();
    for mv in game.moves() {
        let name = game.move_name(mv);
        game.play(mv);
        let score = alphabeta::search(&mut game, depth, rule).value;
        game.undo();
        out.push(MoveScore { mv: name, score });
    }
    out.sort_by_key(|s| s.score);
    Ok(out)
}
