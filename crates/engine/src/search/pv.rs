//! The triangular principal-variation table: each ply keeps the best line
//! found below it, and a new best move at ply p is prefixed to ply p+1's line.

use super::score::MAX_PLY;
use crate::board::Move;

#[derive(Clone, Debug)]
pub struct PvTable {
    lines: Vec<Vec<Move>>,
}

impl Default for PvTable {
    fn default() -> Self {
        Self {
            lines: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
        }
    }
}

impl PvTable {
    /// Empties every line (at the start of a search).
    pub fn clear_all(&mut self) {
        self.lines.iter_mut().for_each(Vec::clear);
    }

    /// Empties the line at `ply` (on entering a node).
    pub fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// Sets the line at `ply` to `mv` followed by the line at `ply + 1`.
    pub fn update(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply]
    }
}
