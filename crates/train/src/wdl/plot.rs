//! The fit as SVG: for a few material classes, the observed win, draw and
//! loss rates per score bucket (dots) beside the model's curves (lines).

use std::path::Path;

use plotters::prelude::*;

use super::fit::Cell;
use cutoff_engine::eval::wdl::Model;

/// Material classes drawn, one panel each (inclusive bounds).
const CLASSES: [(i32, i32); 4] = [(0, 12), (13, 28), (29, 55), (56, 78)];
/// Scores drawn, and the width of a bucket of observed rates (centipawns).
const SCORE_RANGE: i32 = 600;
const BUCKET: i32 = 25;
/// Buckets with fewer positions are not drawn (their rates are noise).
const MIN_BUCKET: u64 = 100;

/// Observed rates per bucket: `(bucket centre, [win, draw, loss])`, and the
/// mean material of the class.
fn observed(cells: &[Cell], (lo, hi): (i32, i32)) -> (Vec<(f64, [f64; 3])>, i32) {
    let buckets = (2 * SCORE_RANGE / BUCKET + 1) as usize;
    let mut counts = vec![[0u64; 3]; buckets];
    let (mut weight, mut sum) = (0u64, 0i64);
    for c in cells.iter().filter(|c| (lo..=hi).contains(&c.material)) {
        let n: u64 = c.counts.iter().sum();
        (weight, sum) = (weight + n, sum + i64::from(c.material) * n as i64);
        let at = (c.score + SCORE_RANGE + BUCKET / 2).div_euclid(BUCKET);
        if let Some(bucket) = usize::try_from(at).ok().and_then(|i| counts.get_mut(i)) {
            (0..3).for_each(|k| bucket[k] += c.counts[k]);
        }
    }
    let rates = counts
        .iter()
        .enumerate()
        .filter(|(_, b)| b.iter().sum::<u64>() >= MIN_BUCKET)
        .map(|(i, b)| {
            let n = b.iter().sum::<u64>() as f64;
            let centre = f64::from(i as i32 * BUCKET - SCORE_RANGE);
            (centre, [0, 1, 2].map(|k| b[k] as f64 / n))
        })
        .collect();
    let mean = if weight == 0 {
        (lo + hi) / 2
    } else {
        (sum / weight as i64) as i32
    };
    (rates, mean)
}

const COLOURS: [RGBColor; 3] = [RGBColor(30, 140, 60), RGBColor(120, 120, 120), RED];
const NAMES: [&str; 3] = ["win", "draw", "loss"];

/// Draws one panel per material class into `path`.
pub fn rates(path: &Path, cells: &[Cell], model: &Model) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (960, 720)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(
            "Win/draw/loss of the side to move by score: observed (dots), model (lines)",
            ("sans-serif", 18),
        )
        .map_err(|e| err(&e))?;
    for (area, class) in root.split_evenly((2, 2)).iter().zip(CLASSES) {
        let (rates, mean) = observed(cells, class);
        let range = f64::from(SCORE_RANGE);
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("material {}-{} (curves at {mean})", class.0, class.1),
                ("sans-serif", 15),
            )
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(45)
            .build_cartesian_2d(-range..range, 0.0..1.0)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .x_desc("score (centipawns)")
            .y_desc("rate")
            .draw()
            .map_err(|e| err(&e))?;
        for k in 0..3 {
            let colour = COLOURS[k];
            let curve = (-SCORE_RANGE..=SCORE_RANGE)
                .step_by(10)
                .map(|s| (f64::from(s), model.probabilities(f64::from(s), mean)[k]));
            chart
                .draw_series(LineSeries::new(curve, colour.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(NAMES[k])
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            let dots = rates
                .iter()
                .map(|&(s, r)| Circle::new((s, r[k]), 3, colour));
            chart.draw_series(dots).map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::MiddleRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
