//! Textbook minimax: MAX takes the largest child value, MIN the smallest, and
//! every position down to the depth limit (or the end of the game) is visited.

use super::game::{Game, INF, Outcome, Stats, Value, is_leaf};

/// Searches `depth` plies from the current position; the root is MAX or MIN
/// as the game says.
pub fn search<G: Game>(game: &mut G, depth: u32) -> Outcome<G::Move> {
    let mut stats = Stats::default();
    stats.nodes += 1;
    if is_leaf(game, depth) {
        stats.leaves += 1;
        let value = game.evaluate();
        return Outcome {
            value,
            best: None,
            stats,
        };
    }
    let maximizing = game.max_to_move();
    let mut best = None;
    let mut value = if maximizing { -INF } else { INF };
    for mv in game.moves() {
        game.play(mv);
        let v = minimax(game, depth - 1, &mut stats);
        game.undo();
        // Strict comparison: the first of equal moves is kept.
        if best.is_none() || (maximizing && v > value) || (!maximizing && v < value) {
            value = v;
            best = Some(mv);
        }
    }
    Outcome { value, best, stats }
}

/// The value of the current position, `depth` plies deep.
pub fn minimax<G: Game>(game: &mut G, depth: u32, stats: &mut Stats) -> Value {
    stats.nodes += 1;
    if is_leaf(game, depth) {
        stats.leaves += 1;
        return game.evaluate();
    }
    if game.max_to_move() {
        let mut v = -INF;
        for mv in game.moves() {
            game.play(mv);
            v = v.max(minimax(game, depth - 1, stats));
            game.undo();
        }
        v
    } else {
        let mut v = INF;
        for mv in game.moves() {
            game.play(mv);
            v = v.min(minimax(game, depth - 1, stats));
            game.undo();
        }
        v
    }
}
