//! `cutoff train wdl`: fits the win/draw/loss model of `UCI_ShowWDL`
//! (`eval::wdl`) to the results of self-play games, prints its constants and
//! draws the observed rates beside the fitted curves (docs/wdl.md).

pub mod cli;
pub mod fit;
pub mod plot;

use std::path::PathBuf;

use crate::games::positions::{self, Filter};
use crate::games::records::{Packed, piece_count};
use cutoff_engine::eval::wdl::{FITTED, Model, PIECE_VALUE};
use fit::Cell;

/// Score, material and result (0 win, 1 draw, 2 loss) of a datagen record,
/// from the side to move's view (the record keeps White's; see
/// [`crate::games::records`]).
pub fn sample(rec: &Packed) -> (i32, i32, usize) {
    let pieces = piece_count(rec);
    let material = (0..pieces)
        .map(|n| {
            let code = (rec[8 + n / 2] >> (4 * (n % 2))) & 7;
            PIECE_VALUE.get(usize::from(code)).copied().unwrap_or(0)
        })
        .sum();
    let white_score = i32::from(i16::from_le_bytes([rec[24], rec[25]]));
    let white_result = usize::from(rec[26].min(2)); // 0 Black won .. 2 White won
    if rec[27] == 0 {
        (white_score, material, 2 - white_result)
    } else {
        (-white_score, material, white_result)
    }
}

pub struct Options {
    pub data: Vec<PathBuf>,
    /// Positions scored beyond this (centipawns) are left out.
    pub max_score: i32,
    /// Where to draw the rates and curves (SVG), if anywhere.
    pub out: Option<PathBuf>,
}

/// What the fit found.
pub struct Summary {
    pub positions: u64,
    /// Left out for a score beyond `max_score`.
    pub skipped: u64,
    /// Mean log-loss (nats per position) of the overall frequencies, of a
    /// fit without material, and of the engine's compiled-in model.
    pub constant_loss: f64,
    pub score_only: fit::Fit,
    pub fitted: fit::Fit,
    pub compiled_loss: f64,
    /// The data, counted by score and material.
    pub cells: Vec<Cell>,
}

/// Reads the files, fits, and draws the SVG if asked.
pub fn run(opts: &Options) -> Result<Summary, String> {
    let (records, _) = positions::load(&opts.data, &Filter::default())?;
    let mut skipped = 0;
    let kept = records.iter().map(sample).filter(|&(score, _, _)| {
        let keep = score.abs() <= opts.max_score;
        skipped += u64::from(!keep);
        keep
    });
    let cells: Vec<Cell> = fit::cells(kept);
    if cells.is_empty() {
        return Err("no positions to fit".into());
    }
    let fitted = fit::fit(&cells, 3);
    if let Some(path) = &opts.out {
        plot::rates(path, &cells, &fitted.model)?;
    }
    Ok(Summary {
        positions: fit::positions(&cells),
        skipped,
        constant_loss: fit::constant_loss(&cells),
        score_only: fit::fit(&cells, 0),
        compiled_loss: fit::log_loss(&FITTED, &cells),
        fitted,
        cells,
    })
}

/// The model as Rust source, to paste over `eval::wdl::FITTED`.
pub fn rust_constant(m: &Model) -> String {
    let list = |c: &[f64; 4]| {
        let parts: Vec<String> = c.iter().map(|v| format!("{v:.2}")).collect();
        parts.join(", ")
    };
    format!(
        "pub const FITTED: Model = Model {{\n    a: [{}],\n    b: [{}],\n}};",
        list(&m.a),
        list(&m.b)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::records::encode;
    use cutoff_engine::board::fen::parse_fen;

    #[test]
    fn samples_are_seen_from_the_side_to_move() {
        // White to move, White's score +120, White won: a win at +120.
        let w = parse_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1").expect("FEN");
        assert_eq!(sample(&encode(&w, 120, 2)), (120, 6, 0));
        // Black to move in the same game: a loss at -120.
        let b = parse_fen("4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1").expect("FEN");
        assert_eq!(sample(&encode(&b, 120, 2)), (-120, 6, 2));
        assert_eq!(sample(&encode(&b, -40, 1)), (40, 6, 1));
        let start = parse_fen(cutoff_engine::board::STARTPOS).expect("FEN");
        assert_eq!(sample(&encode(&start, 0, 0)).1, 78);
    }
}
