//! The loss curve: training and validation loss per epoch, as SVG.

use std::path::Path;

use plotters::prelude::*;

/// Draws `(epoch, train, validation)` rows.
pub fn loss_curve(path: &Path, rows: &[(u32, f64, f64)]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let last = rows.last().map_or(1, |r| r.0).max(1);
    let values = rows.iter().flat_map(|r| [r.1, r.2]);
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo < hi { (lo, hi) } else { (0.0, 1.0) };
    let pad = (hi - lo) * 0.1;
    let mut chart = ChartBuilder::on(&root)
        .caption("Network training loss", ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0u32..last + 1, (lo - pad)..(hi + pad))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("mean squared error")
        .draw()
        .map_err(|e| err(&e))?;
    for (name, color, pick) in [("training", BLUE, 1usize), ("validation", RED, 2usize)] {
        let points = rows
            .iter()
            .map(|r| (r.0, if pick == 1 { r.1 } else { r.2 }));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
