//! Perft: counts the leaves of the legal move tree, the standard check of a
//! move generator. At the last ply the moves are counted in bulk, per piece,
//! without being played.

use cozy_chess::{Board, Move};

/// Number of leaf nodes of the legal move tree of depth `depth`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0;
            board.generate_moves(|pm| {
                n += pm.len() as u64;
                false
            });
            n
        }
        _ => {
            let mut n = 0;
            board.generate_moves(|pm| {
                for mv in pm {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    n += perft(&child, depth - 1);
                }
                false
            });
            n
        }
    }
}

/// Perft split by root move ("divide"), in the generator's order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for mv in super::moves::legal_moves(board) {
        let mut child = board.clone();
        child.play_unchecked(mv);
        out.push((mv, perft(&child, depth.saturating_sub(1))));
    }
    out
}
