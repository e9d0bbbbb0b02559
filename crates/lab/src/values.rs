//! How values are shown in tables and drawings.

use super::chess::{MATE, MATE_BOUND};
use super::game::{INF, Value};

/// Centipawns as a number; mates as `+M3` / `-M2` (plies from the root);
/// the published code's flat mate as `+inf` / `-inf`.
pub fn format_value(v: Value) -> String {
    if v == INF || v.abs() == MATE {
        return if v > 0 { "+inf" } else { "-inf" }.to_string();
    }
    if v == -INF {
        return "-inf".to_string();
    }
    if v.abs() >= MATE_BOUND {
        let sign = if v > 0 { '+' } else { '-' };
        return format!("{sign}M{}", MATE - v.abs());
    }
    v.to_string()
}
