//! Negamax with principal variation search, in the form Cutoff's engine
//! searches: fail-soft, the first move with the full window, every later
//! move with a null window (alpha, alpha + 1) and searched again with the
//! full window when it fails high inside it. No ordering, no table: the tree
//! of the Tree view, one algorithm among the textbook ones.
//!
//! Values are for the side to move at each node (negamax). The observer sees
//! each node's own window; a re-searched move is entered twice, and every
//! null-window score is reported with whether it asks for a re-search.

use super::alphabeta::Observer;
use super::game::{Game, INF, Outcome, Stats, Value, is_leaf};

struct Ctx<'o, O> {
    stats: Stats,
    observer: &'o mut O,
}

/// PVS from the current position; the outcome's value is for MAX, as the
/// other searches report it.
pub fn search_observed<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    observer: &mut O,
) -> Outcome<G::Move> {
    let mut ctx = Ctx {
        stats: Stats::default(),
        observer,
    };
    let max_root = game.max_to_move();
    let sign = if max_root { 1 } else { -1 };
    let (value, best) = pvs(game, depth, max_root, -INF, INF, &mut ctx);
    Outcome {
        value: sign * value,
        best,
        stats: ctx.stats,
    }
}

/// The value of the current position for the side to move, and the move
/// that gave it. The sides alternate from the root (`max_node`): a text
/// tree's leaves have no side to move of their own.
fn pvs<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    max_node: bool,
    mut alpha: Value,
    beta: Value,
    ctx: &mut Ctx<O>,
) -> (Value, Option<G::Move>) {
    ctx.stats.nodes += 1;
    if O::ACTIVE {
        ctx.observer.enter(alpha, beta, max_node);
    }
    if is_leaf(game, depth) {
        ctx.stats.leaves += 1;
        let v = if max_node {
            game.evaluate()
        } else {
            -game.evaluate()
        };
        if O::ACTIVE {
            ctx.observer.leave(v);
        }
        return (v, None);
    }
    let mut value = -INF;
    let mut best = None;
    let moves = game.moves();
    for (i, &mv) in moves.iter().enumerate() {
        let score = if i == 0 {
            -child(game, mv, depth, max_node, -beta, -alpha, ctx)
        } else {
            let s = -child(game, mv, depth, max_node, -alpha - 1, -alpha, ctx);
            let again = alpha < s && s < beta;
            if O::ACTIVE {
                ctx.observer.research(s, again);
            }
            if again {
                -child(game, mv, depth, max_node, -beta, -alpha, ctx)
            } else {
                s
            }
        };
        if score > value {
            value = score;
            best = Some(mv);
        }
        let cut = value >= beta;
        if !cut {
            alpha = alpha.max(value);
        }
        if O::ACTIVE {
            ctx.observer.update(value, alpha, beta, Some(cut));
        }
        if cut {
            if O::ACTIVE {
                let names = moves[i + 1..].iter().map(|&m| game.move_name(m)).collect();
                ctx.observer.cutoff(names);
            }
            break;
        }
    }
    if O::ACTIVE {
        ctx.observer.leave(value);
    }
    (value, best)
}

fn child<G: Game, O: Observer>(
    game: &mut G,
    mv: G::Move,
    depth: u32,
    parent_max: bool,
    alpha: Value,
    beta: Value,
    ctx: &mut Ctx<O>,
) -> Value {
    if O::ACTIVE {
        let name = game.move_name(mv);
        ctx.observer.edge(name);
    }
    game.play(mv);
    let (v, _) = pvs(game, depth - 1, !parent_max, alpha, beta, ctx);
    game.undo();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::Quiet;
    use crate::explicit::ExplicitTree;
    use crate::minimax;

    #[test]
    fn pvs_finds_the_minimax_value() {
        for text in [
            "max(min(3,5),min(2,1))",
            "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))",
            "min(max(1,8,3),max(7,2),max(-4,9,6))",
        ] {
            let mut t = ExplicitTree::parse(text).unwrap();
            let h = t.height();
            let want = minimax::search(&mut t, h).value;
            assert_eq!(search_observed(&mut t, h, &mut Quiet).value, want, "{text}");
        }
    }
}
