//! The late move reduction table: base reductions by depth and move number.
//! How they are adjusted per move is in `pruning::reduction`.

use super::params::{LMR_BASE, LMR_DIVISOR};

/// LMR base reductions by depth and move number, from `ln(d) * ln(m)`.
pub struct LmrTable {
    table: Vec<[i32; 64]>,
}

impl Default for LmrTable {
    fn default() -> Self {
        let table = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
                    }
                }
                row
            })
            .collect();
        Self { table }
    }
}

impl LmrTable {
    pub fn get(&self, depth: i32, move_count: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][move_count.min(63)]
    }
}
