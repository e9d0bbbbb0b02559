//! The search laboratory: reruns the classic experiments on game-tree search
//! (minimax against alpha-beta, the effect of move ordering, of each engine
//! technique) on any position, and draws the trees.
//!
//! The textbook algorithms are generic over the small [`game::Game`] trait,
//! implemented for chess, tic-tac-toe and trees written out as text.

pub mod ablate;
pub mod alphabeta;
pub mod chart;
pub mod chess;
pub mod cli;
pub mod compare;
pub mod explicit;
pub mod game;
pub mod minimax;
pub mod ordered;
pub mod ordering;
pub mod published;
pub mod pvs;
pub mod pyorder;
pub mod rng;
pub mod scores;
pub mod serve;
pub mod svg;
pub mod tictactoe;
pub mod tree;
pub mod values;

/// The position of the published minimax/alpha-beta comparison (Ra6 mates in two).
pub const PUBLISHED_FEN: &str = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
