//! Nodes against depth on a log scale, one line per algorithm (plotters, SVG).

use plotters::prelude::*;

/// One line of the chart: a name and (depth, nodes) points.
pub type Series = (String, Vec<(u32, u64)>);

const COLOURS: [RGBColor; 6] = [
    RGBColor(200, 30, 30),
    RGBColor(30, 90, 200),
    RGBColor(20, 150, 60),
    RGBColor(200, 120, 0),
    RGBColor(120, 40, 160),
    RGBColor(90, 90, 90),
];

/// Writes the chart to `path`.
pub fn nodes_vs_depth(series: &[Series], title: &str, path: &str) -> Result<(), String> {
    let max_depth = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(d, _)| d))
        .max()
        .unwrap_or(1);
    let max_nodes = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, n)| n))
        .max()
        .unwrap_or(1);
    let root = SVGBackend::new(path, (760, 480)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("chart {path}: {e}");
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(
            0.8f64..max_depth as f64 + 0.2,
            (1f64..max_nodes as f64 * 2.0).log_scale(),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("nodes visited")
        .x_labels(max_depth as usize)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let pts: Vec<(f64, f64)> = points
            .iter()
            .map(|&(d, n)| (d as f64, n.max(1) as f64))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
