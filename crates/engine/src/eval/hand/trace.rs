//! The linear trace of an evaluation (feature counts per side, for the tuner
//! and tests) and its readable form for the UCI `eval` command.

use std::fmt::Write;

use super::params::{NUM_PARAMS, S, Term, term_of};
use super::sink::TraceSink;
use super::weights::WEIGHTS;
use super::{PHASE_MAX, endgame, features, phase};
use crate::board::{Board, Color};

/// Everything that makes up one evaluation, as a function of the weights.
#[derive(Clone, Debug)]
pub struct LinearTrace {
    pub counts: TraceSink,
    pub phase: i32,
    /// Endgame scale under the current weights (it depends on the eg sign).
    pub scale: i32,
    /// Mop-up bonus, White's view, outside the weights.
    pub mop_up: i32,
}

impl LinearTrace {
    pub fn new(board: &Board) -> Self {
        let mut sink = TraceSink::default();
        features(&mut sink, board, None);
        let S(_, eg) = sink.score(&WEIGHTS);
        Self {
            counts: sink,
            phase: phase(board),
            scale: endgame::scale(board, eg),
            mop_up: endgame::mop_up(board),
        }
    }

    /// The final score, White's view, under `weights` (same rounding as the engine).
    pub fn white_score(&self, weights: &[S]) -> i32 {
        let S(mg, eg) = self.counts.score(weights);
        if self.scale == 0 {
            return 0;
        }
        let eg_part = eg * (PHASE_MAX - self.phase) * self.scale / endgame::SCALE_NORMAL;
        (mg * self.phase + eg_part) / PHASE_MAX + self.mop_up
    }
}

/// Per-term (mg, eg) sums for one colour.
fn term_sums(sink: &TraceSink, color: Color) -> Vec<S> {
    let mut sums = vec![S(0, 0); Term::ALL.len()];
    for (i, w) in WEIGHTS.iter().enumerate().take(NUM_PARAMS) {
        let n = sink.coef[i][color as usize];
        let t = Term::ALL.iter().position(|&t| t == term_of(i)).unwrap_or(0);
        sums[t].0 += w.0 * n;
        sums[t].1 += w.1 * n;
    }
    sums
}

fn cp(v: i32) -> String {
    format!("{:6.2}", v as f64 / 100.0)
}

/// A readable breakdown of the evaluation (UCI `eval`) in pawns, each term
/// for both sides (midgame, endgame) and blended by phase, ending with the
/// line `Hand-crafted evaluation: <cp> cp (white side)`.
pub fn trace(board: &Board) -> String {
    let t = LinearTrace::new(board);
    let white = term_sums(&t.counts, Color::White);
    let black = term_sums(&t.counts, Color::Black);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "     Term      |    White      |    Black      |    Total      | Blended"
    );
    let _ = writeln!(
        out,
        "               |   MG     EG   |   MG     EG   |   MG     EG   |"
    );
    let _ = writeln!(
        out,
        " --------------+---------------+---------------+---------------+--------"
    );
    for (k, term) in Term::ALL.iter().enumerate() {
        let (w, b) = (white[k], black[k]);
        let (mg, eg) = (w.0 - b.0, w.1 - b.1);
        let _ = writeln!(
            out,
            " {:>13} | {} {} | {} {} | {} {} | {}",
            term.name(),
            cp(w.0),
            cp(w.1),
            cp(b.0),
            cp(b.1),
            cp(mg),
            cp(eg),
            cp(super::taper(mg, eg, t.phase))
        );
    }
    let total = t.counts.score(&WEIGHTS);
    let _ = writeln!(
        out,
        " --------------+---------------+---------------+---------------+--------"
    );
    let _ = writeln!(
        out,
        " {:>13} |               |               | {} {} | {}",
        "Total",
        cp(total.0),
        cp(total.1),
        cp(super::taper(total.0, total.1, t.phase))
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "Phase: {} / {PHASE_MAX}", t.phase);
    let _ = writeln!(
        out,
        "Endgame scale: {} / {}",
        t.scale,
        endgame::SCALE_NORMAL
    );
    let _ = writeln!(out, "Mop-up: {} cp", t.mop_up);
    let _ = write!(
        out,
        "Hand-crafted evaluation: {} cp (white side)",
        t.white_score(&WEIGHTS)
    );
    out
}
