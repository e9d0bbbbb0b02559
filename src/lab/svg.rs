//! Draws a recorded alpha-beta tree as a hand-written SVG: MAX nodes as
//! squares, MIN nodes as circles, evaluated leaves rounded, the value inside, the (alpha, beta) window
//! underneath, moves on the edges, cut-offs in red and pruned moves in grey.

use std::fmt::Write;

use super::game::{INF, Value};
use super::tree::TreeNode;
use super::values::format_value;

const SLOT: f64 = 78.0;
const LEVEL: f64 = 110.0;
const SIZE: f64 = 40.0;
const TOP: f64 = 70.0;

/// The whole SVG document for `root`, with `title` on top.
pub fn draw(root: &TreeNode, title: &str) -> String {
    let width = (root.width() as f64 * SLOT + 40.0).max(title.chars().count() as f64 * 9.0 + 40.0);
    let height = root.height() as f64 * LEVEL + TOP;
    let mut body = String::new();
    let mut next_slot = 0.0;
    place(root, 0, &mut next_slot, &mut body);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = width.max(640.0),
        h = height
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="20" y="24" font-size="16" font-weight="bold">{}</text>"#,
        escape(title)
    );
    let _ = writeln!(
        out,
        r##"<text x="20" y="44" font-size="12" fill="#444">square: MAX to move, circle: MIN to move, rounded: leaf evaluated; [alpha, beta] on entry under each node; red: cut-off; grey: pruned</text>"##
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// Draws `node` and its subtree; returns the node's centre x.
fn place(node: &TreeNode, level: usize, next_slot: &mut f64, out: &mut String) -> f64 {
    let y = TOP + level as f64 * LEVEL + SIZE / 2.0;
    let x = if node.children.is_empty() {
        let x = 20.0 + (*next_slot + 0.5) * SLOT;
        *next_slot += 1.0;
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
    let (top, bottom) = (y1 + SIZE / 2.0, y2 - SIZE / 2.0);
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
