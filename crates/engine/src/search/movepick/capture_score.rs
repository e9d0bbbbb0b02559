//! The noisy moves' order: most valuable victim first.

use crate::board::see::see_value;
use crate::board::{Color, Move, Piece};
use crate::search::history::piece_to;
use crate::search::movepick::OrderContext;
use crate::search::params::{capture_history_divisor, mvv_scale};

/// A noisy move's score: the victim's value (and a promotion's), then the
/// capture history, then the lighter attacker.
pub(super) struct CaptureScore {
    stm: Color,
    scale: i32,
    divisor: i32,
}

impl CaptureScore {
    pub(super) fn new(stm: Color) -> Self {
        Self {
            stm,
            scale: mvv_scale(),
            divisor: capture_history_divisor(),
        }
    }

    #[inline(always)]
    pub(super) fn score(&self, ctx: &OrderContext, piece: Piece, mv: Move, victim: Piece) -> i32 {
        let mvv = see_value(victim) * self.scale + mv.promotion.map_or(0, see_value);
        let hist = ctx.hist.capture(piece_to(self.stm, piece, mv.to), victim);
        mvv + hist / self.divisor - piece as i32
    }
}
