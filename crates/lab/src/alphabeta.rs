//! Textbook alpha-beta, in the MAX-VALUE / MIN-VALUE form of the classic
//! pseudocode: no move ordering, no transposition table, nothing but the
//! (alpha, beta) window, and the same move order as minimax.
//!
//! An [`Observer`] sees every node (for the tree drawings); with [`Quiet`] the
//! hooks compile away.

use super::game::{Game, INF, Outcome, Stats, Value, is_leaf};

/// When a node stops searching its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cutoff {
    /// The textbook test: MAX stops at `v >= beta`, MIN at `v <= alpha`.
    #[default]
    Textbook,
    /// Strict comparisons (`v > beta`, `v < alpha`), as in the published
    /// python-chess code: equal values do not cut, so more nodes are visited.
    Strict,
    /// No cutoff at all: every node is searched, as minimax does (the window
    /// is still kept, but never used).
    Never,
}

/// What a node returns: fail-soft returns the best value found, which may
/// lie outside the window; fail-hard clamps it to the window (beta at a
/// cutoff of MAX, alpha at one of MIN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bounds {
    #[default]
    Soft,
    Hard,
}

/// Receives the tree as the search walks it.
pub trait Observer {
    /// False for observers that ignore everything (the hooks are skipped).
    const ACTIVE: bool;
    /// The next node entered is reached by this move.
    fn edge(&mut self, name: String);
    /// A node is entered with this window.
    fn enter(&mut self, alpha: Value, beta: Value, max_node: bool);
    /// The current node returns this value.
    fn leave(&mut self, value: Value);
    /// The current node took in a child's value: its best value so far, its
    /// window now (after the cut-off test, before the next child) and the
    /// test's outcome (`None`: the search has no test, as minimax).
    fn update(&mut self, _value: Value, _alpha: Value, _beta: Value, _test: Option<bool>) {}
    /// PVS: a later child's null-window score, and whether it lies inside
    /// the window, so that the child is searched again.
    fn research(&mut self, _score: Value, _again: bool) {}
    /// The current node cut off; these moves are never searched (none when
    /// the cutoff came at the last move).
    fn cutoff(&mut self, pruned: Vec<String>);
}

/// The observer that records nothing.
pub struct Quiet;

impl Observer for Quiet {
    const ACTIVE: bool = false;
    fn edge(&mut self, _: String) {}
    fn enter(&mut self, _: Value, _: Value, _: bool) {}
    fn leave(&mut self, _: Value) {}
    fn cutoff(&mut self, _: Vec<String>) {}
}

struct Ctx<'o, O> {
    stats: Stats,
    rule: Cutoff,
    bounds: Bounds,
    observer: &'o mut O,
}

/// Alpha-beta from the current position with the window (-inf, +inf).
pub fn search<G: Game>(game: &mut G, depth: u32, rule: Cutoff) -> Outcome<G::Move> {
    search_observed(game, depth, rule, &mut Quiet)
}

/// [`search`], reporting every node to `observer`.
pub fn search_observed<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    rule: Cutoff,
    observer: &mut O,
) -> Outcome<G::Move> {
    search_with(game, depth, rule, Bounds::Soft, observer)
}

/// [`search_observed`] with fail-soft or fail-hard returns.
pub fn search_with<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    rule: Cutoff,
    bounds: Bounds,
    observer: &mut O,
) -> Outcome<G::Move> {
    let mut ctx = Ctx {
        stats: Stats::default(),
        rule,
        bounds,
        observer,
    };
    let (value, best) = root(game, depth, &mut ctx);
    Outcome {
        value,
        best,
        stats: ctx.stats,
    }
}

/// The root: the same loop as MAX-VALUE or MIN-VALUE, remembering which move
/// gave the value (the first of equal moves).
fn root<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    ctx: &mut Ctx<O>,
) -> (Value, Option<G::Move>) {
    ctx.stats.nodes += 1;
    let maximizing = game.max_to_move();
    if O::ACTIVE {
        ctx.observer.enter(-INF, INF, maximizing);
    }
    if is_leaf(game, depth) {
        ctx.stats.leaves += 1;
        let v = game.evaluate();
        if O::ACTIVE {
            ctx.observer.leave(v);
        }
        return (v, None);
    }
    let (mut alpha, mut beta) = (-INF, INF);
    let mut best = None;
    let mut value = if maximizing { -INF } else { INF };
    for mv in game.moves() {
        let v = child(game, mv, depth, alpha, beta, ctx);
        if best.is_none() || (maximizing && v > value) || (!maximizing && v < value) {
            value = v;
            best = Some(mv);
        }
        if maximizing {
            alpha = alpha.max(value);
        } else {
            beta = beta.min(value);
        }
        if O::ACTIVE {
            // The root's window is (-inf, +inf): its test never holds.
            let test = (ctx.rule != Cutoff::Never).then_some(false);
            // Fail-hard takes each child's value, as max_value and min_value do.
            let shown = if ctx.bounds == Bounds::Hard { v } else { value };
            ctx.observer.update(shown, alpha, beta, test);
        }
    }
    if O::ACTIVE {
        ctx.observer.leave(value);
    }
    (value, best)
}

/// Plays `mv`, searches the position reached, and takes the move back.
fn child<G: Game, O: Observer>(
    game: &mut G,
    mv: G::Move,
    depth: u32,
    alpha: Value,
    beta: Value,
    ctx: &mut Ctx<O>,
) -> Value {
    if O::ACTIVE {
        let name = game.move_name(mv);
        ctx.observer.edge(name);
    }
    game.play(mv);
    let v = value(game, depth - 1, alpha, beta, ctx);
    game.undo();
    v
}

/// One node: the terminal test, then MAX-VALUE or MIN-VALUE.
fn value<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    alpha: Value,
    beta: Value,
    ctx: &mut Ctx<O>,
) -> Value {
    ctx.stats.nodes += 1;
    let maximizing = game.max_to_move();
    if O::ACTIVE {
        ctx.observer.enter(alpha, beta, maximizing);
    }
    let v = if is_leaf(game, depth) {
        ctx.stats.leaves += 1;
        game.evaluate()
    } else if maximizing {
        max_value(game, depth, alpha, beta, ctx)
    } else {
        min_value(game, depth, alpha, beta, ctx)
    };
    if O::ACTIVE {
        ctx.observer.leave(v);
    }
    v
}

fn max_value<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    mut alpha: Value,
    beta: Value,
    ctx: &mut Ctx<O>,
) -> Value {
    let hard = ctx.bounds == Bounds::Hard;
    let mut v = -INF;
    let moves = game.moves();
    for (i, &mv) in moves.iter().enumerate() {
        let c = child(game, mv, depth, alpha, beta, ctx);
        // Fail-hard keeps each child's value, the best lives in alpha.
        v = if hard { c } else { v.max(c) };
        let cut = match ctx.rule {
            Cutoff::Textbook => v >= beta,
            Cutoff::Strict => v > beta,
            Cutoff::Never => false,
        };
        if !cut {
            alpha = alpha.max(v);
        }
        if O::ACTIVE {
            let test = (ctx.rule != Cutoff::Never).then_some(cut);
            ctx.observer.update(v, alpha, beta, test);
        }
        if cut {
            report_cutoff(game, &moves[i + 1..], ctx);
            // beta cutoff: MIN will never let the game come here
            return if hard { beta } else { v };
        }
    }
    if hard { alpha } else { v }
}

fn min_value<G: Game, O: Observer>(
    game: &mut G,
    depth: u32,
    alpha: Value,
    mut beta: Value,
    ctx: &mut Ctx<O>,
) -> Value {
    let hard = ctx.bounds == Bounds::Hard;
    let mut v = INF;
    let moves = game.moves();
    for (i, &mv) in moves.iter().enumerate() {
        let c = child(game, mv, depth, alpha, beta, ctx);
        v = if hard { c } else { v.min(c) };
        let cut = match ctx.rule {
            Cutoff::Textbook => v <= alpha,
            Cutoff::Strict => v < alpha,
            Cutoff::Never => false,
        };
        if !cut {
            beta = beta.min(v);
        }
        if O::ACTIVE {
            let test = (ctx.rule != Cutoff::Never).then_some(cut);
            ctx.observer.update(v, alpha, beta, test);
        }
        if cut {
            report_cutoff(game, &moves[i + 1..], ctx);
            // alpha cutoff: MAX already has something better
            return if hard { alpha } else { v };
        }
    }
    if hard { beta } else { v }
}

fn report_cutoff<G: Game, O: Observer>(game: &mut G, rest: &[G::Move], ctx: &mut Ctx<O>) {
    if O::ACTIVE {
        let names = rest.iter().map(|&m| game.move_name(m)).collect();
        ctx.observer.cutoff(names);
    }
}
