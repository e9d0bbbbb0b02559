//! Alpha-beta as engines write it (negamax, fail-soft) with a choice of move
//! ordering, an optional transposition table and iterative deepening, and
//! counters that show how well the ordering works: how often the first move
//! cuts, where the cutting move sits, the mean branching factor.
//!
//! It searches the same tree as the textbook algorithms (no quiescence, no
//! pruning but alpha-beta), and the table only answers for the same remaining
//! depth, so the root value is always the minimax value.

use std::collections::HashMap;

use crate::board::{Move, Piece};

use super::chess::{ChessGame, MATE_BOUND};
use super::game::{Game, INF, Stats, Value, is_leaf};
use super::rng::XorShift;

/// How moves are ordered at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The game's own order (no ordering).
    Generator,
    /// The engine's heuristics: hash move (with the table), captures by
    /// MVV-LVA, promotions, two killers per ply, then the history table.
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
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[[i32; 64]; 64]; 2]>,
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
            killers: vec![[None; 2]; 256],
            history: Box::new([[[0; 64]; 64]; 2]),
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
                self.note_cutoff(game, mv, i, depth);
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

    fn note_cutoff(&mut self, game: &ChessGame, mv: Move, index: usize, depth: u32) {
        self.measure.cutoffs += 1;
        self.measure.cut_index_sum += index as u64 + 1;
        if index == 0 {
            self.measure.first_cutoffs += 1;
        }
        let board = game.position().board();
        if self.policy == Policy::Engine && !game.position().is_noisy(mv) {
            let ply = game.ply().min(self.killers.len() - 1);
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
            let side = board.side_to_move() as usize;
            let h = &mut self.history[side][mv.from as usize][mv.to as usize];
            *h = (*h + (depth * depth) as i32).min(1 << 18);
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
                let killers = self.killers[game.ply().min(self.killers.len() - 1)];
                let side = game.position().side_to_move() as usize;
                moves.sort_by_cached_key(|&mv| {
                    -engine_score(game, mv, hash, &killers, &self.history[side])
                });
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

fn piece_value(p: Piece) -> i32 {
    match p {
        Piece::Pawn => 1,
        Piece::Knight | Piece::Bishop => 3,
        Piece::Rook => 5,
        Piece::Queen => 9,
        Piece::King => 10,
    }
}

/// Higher is tried first.
fn engine_score(
    game: &ChessGame,
    mv: Move,
    hash: Option<Move>,
    killers: &[Option<Move>; 2],
    history: &[[i32; 64]; 64],
) -> i32 {
    if Some(mv) == hash {
        return 1 << 30;
    }
    let pos = game.position();
    let victim = pos.captured(mv).map_or(0, piece_value);
    let promo = mv.promotion.map_or(0, piece_value);
    if victim > 0 || promo > 0 {
        let attacker = pos.board().piece_on(mv.from).map_or(0, piece_value);
        return (1 << 24) + 64 * (victim + promo) - attacker;
    }
    if killers[0] == Some(mv) {
        return 1 << 22;
    }
    if killers[1] == Some(mv) {
        return (1 << 22) - 1;
    }
    history[mv.from as usize][mv.to as usize]
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
