//! Draws a recorded alpha-beta tree as a hand-written SVG: MAX nodes as
//! squares, MIN nodes as circles, evaluated leaves rounded, the value inside, the (alpha, beta) window
//! underneath, moves on the edges, cut-offs in red and pruned moves in grey.
//! A node's unsearched moves are drawn as one stub (`N pruned`) when there are
//! several, and drawings wider than `MAX_WIDTH` are scaled down to it.

use std::fmt::Write;

use super::game::{INF, Value};
use super::tree::TreeNode;
use super::values::format_value;

const SLOT: f64 = 78.0;
/// A pruned stub has no window label: it needs less room (in slots).
const STUB_SLOT: f64 = 0.75;
const LEVEL: f64 = 110.0;
const SIZE: f64 = 40.0;
const TOP: f64 = 86.0;
/// The [alpha, beta] label under a node ends this far below its centre;
/// edges start there so they do not cross it.
const LABEL_BOTTOM: f64 = SIZE / 2.0 + 16.0;
/// Widest drawing in pixels; wider ones are scaled down (the viewBox keeps
/// every detail for zooming).
pub const MAX_WIDTH: f64 = 3000.0;
/// Upper bounds on the average glyph width of sans-serif text, per pixel of
/// font size, so that text is never cut off at the right edge.
const BOLD_EM: f64 = 0.68;
const EM: f64 = 0.6;

const LEGEND: [&str; 2] = [
    "square: MAX to move, circle: MIN to move, rounded: leaf evaluated; [alpha, beta] on entry under each node",
    "red: cut-off; grey, dashed, barred: moves never searched (several in one stub: N pruned)",
];

/// The whole SVG document for `root`, with `title` on top.
pub fn draw(root: &TreeNode, title: &str) -> String {
    let root = &collapse_pruned(root);
    let text_width = (title.chars().count() as f64 * 16.0 * BOLD_EM).max(
        LEGEND
            .iter()
            .map(|l| l.chars().count() as f64 * 12.0 * EM)
            .fold(0.0, f64::max),
    );
    let width = (slots(root) * SLOT).max(text_width).max(600.0) + 40.0;
    let height = root.height() as f64 * LEVEL + TOP;
    let scale = (MAX_WIDTH / width).min(1.0);
    let mut body = String::new();
    let mut next_slot = 0.0;
    place(root, 0, &mut next_slot, &mut body);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#,
        width * scale,
        height * scale,
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="20" y="24" font-size="16" font-weight="bold">{}</text>"#,
        escape(title)
    );
    for (i, line) in LEGEND.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text x="20" y="{}" font-size="12" fill="#444">{}</text>"##,
            46 + 16 * i,
            escape(line)
        );
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// A copy of the tree where several pruned siblings are one stub: a chess
/// node can have dozens, and one slot each made drawings 10,000 px wide.
fn collapse_pruned(node: &TreeNode) -> TreeNode {
    let pruned = node.children.iter().filter(|c| c.pruned).count();
    let mut children: Vec<TreeNode> = node
        .children
        .iter()
        .filter(|c| !c.pruned || pruned == 1)
        .map(collapse_pruned)
        .collect();
    if pruned > 1 {
        children.push(TreeNode {
            edge: format!("{pruned} pruned"),
            max: !node.max,
            pruned: true,
            ..TreeNode::default()
        });
    }
    TreeNode {
        edge: node.edge.clone(),
        children,
        ..*node
    }
}

/// The width of the subtree in slots.
fn slots(node: &TreeNode) -> f64 {
    match (node.children.is_empty(), node.pruned) {
        (true, true) => STUB_SLOT,
        (true, false) => 1.0,
        _ => node.children.iter().map(slots).sum(),
    }
}

/// Draws `node` and its subtree; returns the node's centre x.
fn place(node: &TreeNode, level: usize, next_slot: &mut f64, out: &mut String) -> f64 {
    let y = TOP + level as f64 * LEVEL + SIZE / 2.0;
    let x = if node.children.is_empty() {
        let own = slots(node);
        let x = 20.0 + (*next_slot + own / 2.0) * SLOT;
        *next_slot += own;
        x
    } else {
        let xs: Vec<f64> = node
            .children
            .iter()
            .map(|c| place(c, level + 1, next_slot, out))
            .collect();
        let x = (xs[0] + xs[xs.len() - 1]) / 2.0;
        for (child, cx) in node.children.iter().zip(&xs) {
            edge(x, y, *cx, y + LEVEL, child, out);
        }
        x
    };
    shape(node, x, y, out);
    x
}

fn edge(x1: f64, y1: f64, x2: f64, y2: f64, child: &TreeNode, out: &mut String) {
    let (top, bottom) = (y1 + LABEL_BOTTOM, y2 - SIZE / 2.0);
    let style = if child.pruned {
        r##"stroke="#bbb" stroke-dasharray="4 3""##
    } else {
        r##"stroke="#333""##
    };
    let _ = writeln!(
        out,
        r#"<line x1="{x1:.1}" y1="{top:.1}" x2="{x2:.1}" y2="{bottom:.1}" {style}/>"#
    );
    // The move name sits near the child end of the edge.
    let (lx, ly) = (x1 + (x2 - x1) * 0.7, top + (bottom - top) * 0.7);
    let colour = if child.pruned { "#999" } else { "#1a4d8f" };
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="11" fill="{colour}" text-anchor="middle" paint-order="stroke" stroke="white" stroke-width="3">{}</text>"#,
        lx,
        ly,
        escape(&child.edge)
    );
    if child.pruned {
        // A short red bar across the edge: this move was cut off.
        let (mx, my) = (x1 + (x2 - x1) * 0.35, top + (bottom - top) * 0.35);
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d22" stroke-width="2"/>"##,
            mx - 7.0,
            my - 4.0,
            mx + 7.0,
            my + 4.0
        );
    }
}

fn shape(node: &TreeNode, x: f64, y: f64, out: &mut String) {
    let (fill, stroke, ink) = if node.pruned {
        ("#e6e6e6", "#aaa", "#999")
    } else if node.cutoff {
        ("#fff0f0", "#d22", "#000")
    } else {
        ("#ffffff", "#333", "#000")
    };
    let h = SIZE / 2.0;
    let leaf = node.children.is_empty() && !node.pruned;
    if leaf {
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{SIZE}" height="{SIZE}" rx="12" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            x - h,
            y - h
        );
    } else if node.max {
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{SIZE}" height="{SIZE}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            x - h,
            y - h
        );
    } else {
        let _ = writeln!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{h}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
        );
    }
    let label = node.value.map_or("?".to_string(), format_value);
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="{ink}">{}</text>"#,
        y + 4.0,
        escape(&label)
    );
    if !node.pruned {
        let _ = writeln!(
            out,
            r##"<text x="{x:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#555" paint-order="stroke" stroke="white" stroke-width="3">[{}, {}]</text>"##,
            y + h + 12.0,
            escape(&bound(node.alpha)),
            escape(&bound(node.beta))
        );
    }
}

fn bound(v: Value) -> String {
    match v {
        INF => "+∞".to_string(),
        v if v == -INF => "-∞".to_string(),
        v => format_value(v),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
