//! The small interface the textbook algorithms are written against, so that
//! the same minimax and alpha-beta code runs on chess, tic-tac-toe and trees
//! copied out of a textbook.

/// A game value from MAX's point of view. Chess values are centipawns.
pub type Value = i32;

/// Larger than any value a game returns: the textbook's "infinity".
pub const INF: Value = i32::MAX;

/// A two-player game with a MAX and a MIN player.
pub trait Game {
    type Move: Copy;

    /// The legal moves in the game's fixed order; empty when the game is over.
    fn moves(&mut self) -> Vec<Self::Move>;
    /// True when the game has ended here (the tree stops even with depth left).
    fn is_over(&mut self) -> bool;
    /// The value of this position for MAX: exact at the end of the game,
    /// heuristic when the search depth runs out.
    fn evaluate(&mut self) -> Value;
    /// True when MAX is to move.
    fn max_to_move(&self) -> bool;
    fn play(&mut self, mv: Self::Move);
    fn undo(&mut self);
    /// The move's name for tables and drawings (UCI for chess).
    fn move_name(&mut self, mv: Self::Move) -> String;
}

/// What a search cost: positions visited (root included) and leaves evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub leaves: u64,
}

/// The result of a root search.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub value: Value,
    /// The first root move with the best value; `None` at the end of the game.
    pub best: Option<M>,
    pub stats: Stats,
}

/// Whether a node is a leaf: depth used up or the game over.
pub fn is_leaf<G: Game>(game: &mut G, depth: u32) -> bool {
    depth == 0 || game.is_over()
}
