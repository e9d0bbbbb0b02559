//! Alpha-beta as engines write it (negamax, fail-soft) with a choice of move
//! ordering, an optional transposition table and iterative deepening, and
//! counters that show how well the ordering works: how often the first move
//! cuts, where the cutting move sits, the mean branching factor.
//!
//! It searches the same tree as the textbook algorithms (no quiescence, no
//! pruning but alpha-beta), and the table only answers for the same remaining
//! depth, so the root value is always the minimax value.

use std::collections::HashMap;

use cutoff_engine::board::{Move, Position};
use cutoff_engine::search::history::Histories;
use cutoff_engine::search::history::{Cutoff, learn_cutoff};
use cutoff_engine::search::movepick::{MovePicker, OrderContext};
use cutoff_engine::search::score::MAX_PLY;

use super::chess::{ChessGame, MATE_BOUND};
use super::game::{Game, INF, Stats, Value, is_leaf};
use super::rng::XorShift;

/// How moves are ordered at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The game's own order (no ordering).
    Generator,
    /// Cutoff's own move picker (`search::movepick::MovePicker`): hash move
    /// (with the table), captures and queen promotions by MVV-LVA and capture
    /// history (losing ones last), killers, quiets by history. The histories
    /// learn from cutoffs as the engine's do (`search::history::learn_cutoff`);
    /// there is no countermove or continuation history (no previous moves
    /// are passed), and the engine's pruning and reductions are absent.
    Engine,
    /// A seeded shuffle.
    Random(u64),
    /// Best move first, from an exact search of every child.
    Oracle,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    pub stats: Stats,
    /// Nodes whose children were searched, and how many moves they had.
    pub interior: u64,
    pub moves: u64,
    /// Fail-high nodes, those where the first move failed high, and the sum
    /// of the 1-based index of the cutting move.
    pub cutoffs: u64,
    pub first_cutoffs: u64,
    pub cut_index_sum: u64,
}

impl Measure {
    pub fn add(&mut self, o: &Measure) {
        self.stats.nodes += o.stats.nodes;
        self.stats.leaves += o.stats.leaves;
        self.interior += o.interior;
        self.moves += o.moves;
        self.cutoffs += o.cutoffs;
        self.first_cutoffs += o.first_cutoffs;
        self.cut_index_sum += o.cut_index_sum;
    }

    /// Mean number of legal moves at searched nodes.
    pub fn branching(&self) -> f64 {
        self.moves as f64 / self.interior.max(1) as f64
    }

    pub fn first_cut_rate(&self) -> f64 {
        self.first_cutoffs as f64 / self.cutoffs.max(1) as f64
    }

    pub fn mean_cut_index(&self) -> f64 {
        self.cut_index_sum as f64 / self.cutoffs.max(1) as f64
    }
}

/// One finished iteration of [`Searcher::iterate`].
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    /// Value for MAX (the side to move at the root).
    pub value: Value,
    pub best: Option<Move>,
    pub measure: Measure,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The searcher with its tables; keep it across iterations.
pub struct Searcher {
    policy: Policy,
    use_tt: bool,
    tt: HashMap<(u64, u32), (Value, Bound)>,
    best_moves: HashMap<u64, Move>,
    /// The engine's killers and histories (`Policy::Engine`).
    hist: Box<Histories>,
    rng: XorShift,
    measure: Measure,
    root_best: Option<Move>,
    oracle: Option<Box<Searcher>>,
    /// All mates score alike (the published convention): no distance to adjust.
    flat_mate: bool,
}

impl Searcher {
    pub fn new(policy: Policy, use_tt: bool) -> Self {
        let seed = if let Policy::Random(s) = policy { s } else { 1 };
        Self {
            policy,
            use_tt,
            tt: HashMap::new(),
            best_moves: HashMap::new(),
            hist: Box::default(),
            rng: XorShift::new(seed),
            measure: Measure::default(),
            root_best: None,
            oracle: (policy == Policy::Oracle)
                .then(|| Box::new(Searcher::new(Policy::Engine, true))),
            flat_mate: false,
        }
    }

    /// One search to `depth` with the full window.
    pub fn search(&mut self, game: &mut ChessGame, depth: u32) -> Iteration {
        self.measure = Measure::default();
        self.root_best = None;
        self.flat_mate = game.options().flat_mate;
        let value = self.negamax(game, depth, -INF, INF);
        Iteration {
            depth,
            value,
            best: self.root_best,
            measure: self.measure,
        }
    }

    /// Iterative deepening: searches depths 1..=depth, keeping the tables.
    pub fn iterate(&mut self, game: &mut ChessGame, depth: u32) -> Vec<Iteration> {
        (1..=depth).map(|d| self.search(game, d)).collect()
    }

    /// Negamax value for the side to move.
    fn negamax(
        &mut self,
        game: &mut ChessGame,
        depth: u32,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        self.measure.stats.nodes += 1;
        let ply = game.ply();
        if is_leaf(game, depth) {
            self.measure.stats.leaves += 1;
            let v = game.evaluate();
            return if game.max_to_move() { v } else { -v };
        }
        let key = game.position().key();
        if self.use_tt
            && ply > 0
            && let Some(v) = self.probe(key, depth, ply, alpha, beta)
        {
            return v;
        }
        let mut moves = game.moves();
        self.order(game, &mut moves, depth, key);
        self.measure.interior += 1;
        self.measure.moves += moves.len() as u64;
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv);
            let v = -self.negamax(game, depth - 1, -beta, -alpha);
            game.undo();
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.note_cutoff(game, mv, i, depth, &moves[..i]);
                break;
            }
        }
        if ply == 0 {
            self.root_best = best_move;
        }
        if self.use_tt {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let stored = self.to_tt(best, ply);
            self.tt.insert((key, depth), (stored, bound));
            if let Some(m) = best_move {
                self.best_moves.insert(key, m);
            }
        }
        best
    }

    /// A value from the table that settles this node, if any.
    fn probe(&self, key: u64, depth: u32, ply: usize, alpha: Value, beta: Value) -> Option<Value> {
        let &(stored, bound) = self.tt.get(&(key, depth))?;
        let v = self.read_tt(stored, ply);
        let settles = match bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        };
        settles.then_some(v)
    }

    fn note_cutoff(
        &mut self,
        game: &ChessGame,
        mv: Move,
        index: usize,
        depth: u32,
        tried: &[Move],
    ) {
        self.measure.cutoffs += 1;
        self.measure.cut_index_sum += index as u64 + 1;
        if index == 0 {
            self.measure.first_cutoffs += 1;
        }
        if self.policy == Policy::Engine {
            let pos = game.position();
            let (noisies, quiets): (Vec<Move>, Vec<Move>) =
                tried.iter().partition(|&&m| pos.is_tactical(m));
            let cut = Cutoff {
                best: mv,
                depth: depth as i32,
                ply: game.ply().min(MAX_PLY),
                prevs: [None; 2],
                threats: pos.threats(),
                quiets: &quiets,
                noisies: &noisies,
            };
            learn_cutoff(&mut self.hist, pos, &cut, true);
        }
    }

    fn order(&mut self, game: &mut ChessGame, moves: &mut [Move], depth: u32, key: u64) {
        match self.policy {
            Policy::Generator => {}
            Policy::Random(_) => self.rng.shuffle(moves),
            Policy::Engine => {
                let hash = if self.use_tt {
                    self.best_moves.get(&key).copied()
                } else {
                    None
                };
                let ply = game.ply().min(MAX_PLY);
                let order = picker_order(game.position(), hash, &self.hist, ply);
                moves.sort_by_key(|m| order.iter().position(|o| o == m).unwrap_or(usize::MAX));
            }
            Policy::Oracle => {
                let oracle = self.oracle.as_mut().expect("oracle searcher");
                moves.sort_by_cached_key(|&mv| {
                    game.play(mv);
                    let v = -oracle.exact(game, depth - 1);
                    game.undo();
                    -v
                });
            }
        }
    }

    /// The exact value of the current position `depth` plies deep, for the
    /// side to move; the table remembers it for the next time.
    fn exact(&mut self, game: &mut ChessGame, depth: u32) -> Value {
        self.flat_mate = game.options().flat_mate;
        let key = game.position().key();
        if let Some(&(v, Bound::Exact)) = self.tt.get(&(key, depth)) {
            return self.read_tt(v, game.ply());
        }
        let v = self.negamax(game, depth, -INF, INF);
        let stored = self.to_tt(v, game.ply());
        self.tt.insert((key, depth), (stored, Bound::Exact));
        v
    }
}

/// The moves of `pos` in the order Cutoff's move picker hands them out.
fn picker_order(pos: &Position, hash: Option<Move>, hist: &Histories, ply: usize) -> Vec<Move> {
    let [k1, k2] = hist.killers(ply);
    let mut picker = MovePicker::new(hash, [k1, k2, None], Vec::new());
    let ctx = OrderContext::standalone(pos, hist);
    std::iter::from_fn(|| picker.next(pos, &ctx)).collect()
}

impl Searcher {
    /// Mates are stored as distances from the node, not from the root.
    fn to_tt(&self, v: Value, ply: usize) -> Value {
        self.shift_mate(v, ply as Value)
    }

    fn read_tt(&self, v: Value, ply: usize) -> Value {
        self.shift_mate(v, -(ply as Value))
    }

    fn shift_mate(&self, v: Value, plies: Value) -> Value {
        if self.flat_mate || v.abs() < MATE_BOUND || v.abs() == INF {
            v
        } else {
            v + v.signum() * plies
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::ChessOptions;

    #[test]
    fn engine_ordering_is_the_pickers_losing_captures_last() {
        // Qxd6 wins a pawn and loses the queen to exd6: the picker tries it
        // after every quiet move (an MVV-LVA ordering would try it first).
        let fen = "4k3/4p3/3p4/8/8/8/8/3QK3 w - - 0 1";
        let mut game = ChessGame::from_fen(fen, ChessOptions::default()).unwrap();
        let mut moves = game.moves();
        let key = game.position().key();
        Searcher::new(Policy::Engine, false).order(&mut game, &mut moves, 2, key);
        let last = moves.last().map(|&m| game.position().uci(m));
        assert_eq!(last.as_deref(), Some("d1d6"));
        assert_eq!(moves.len(), game.moves().len());
    }
}
