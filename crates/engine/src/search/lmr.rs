//! The late move reduction table: base reductions by depth and move number.
//! How they are adjusted per move is in `pruning::reduction`.

use super::params::{lmr_base_pct, lmr_divisor_pct};

/// LMR base reductions by depth and move number, from `ln(d) * ln(m)`.
pub struct LmrTable {
    table: Vec<[i32; 64]>,
    /// The (base, divisor) it was built from: a `spsa` build rebuilds it
    /// when `setoption` changes them.
    #[cfg(feature = "spsa")]
    built_from: (i32, i32),
}

/// The table of `base_pct / 100 + ln(d) * ln(m) / (divisor_pct / 100)`,
/// truncated. Hundredths divided as `f64` are the nearest doubles to the
/// decimals (0.75, 2.25), so the defaults give the table they always gave.
fn build(base_pct: i32, divisor_pct: i32) -> Vec<[i32; 64]> {
    let base = base_pct as f64 / 100.0;
    let divisor = divisor_pct as f64 / 100.0;
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

impl Default for LmrTable {
    fn default() -> Self {
        Self {
            table: build(lmr_base_pct(), lmr_divisor_pct()),
            #[cfg(feature = "spsa")]
            built_from: (lmr_base_pct(), lmr_divisor_pct()),
        }
    }
}

impl LmrTable {
    pub fn get(&self, depth: i32, move_count: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][move_count.min(63)]
    }

    /// Before a search: rebuilds the table if its parameters changed since
    /// (only a `spsa` build can change them).
    #[inline]
    pub fn refresh(&mut self) {
        #[cfg(feature = "spsa")]
        if self.built_from != (lmr_base_pct(), lmr_divisor_pct()) {
            *self = Self::default();
        }
    }
}

#[cfg(test)]
#[path = "lmr_tests.rs"]
mod tests;
