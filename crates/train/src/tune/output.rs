//! Writes tuned weights as the Rust source of `crates/engine/src/eval/hand/weights.rs`.

use std::fmt::Write;

use cutoff_engine::eval::hand::params::{GROUPS, S};

/// The weights file: one commented line (or row of eight) per group.
pub fn rust_source(weights: &[S], header: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The weights the engine evaluates with, written by `cutoff tune`"
    );
    let _ = writeln!(
        out,
        "//! (see docs/eval.md). Regenerate rather than edit by hand."
    );
    for line in header.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "use super::params::{{NUM_PARAMS, S}};");
    let _ = writeln!(out);
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub static WEIGHTS: [S; NUM_PARAMS] = [");
    for &(name, start, len, _) in GROUPS {
        let _ = writeln!(out, "    // {name}");
        for row in weights[start..start + len].chunks(8) {
            let cells: Vec<String> = row.iter().map(|s| format!("S({}, {})", s.0, s.1)).collect();
            let _ = writeln!(out, "    {},", cells.join(", "));
        }
    }
    let _ = writeln!(out, "];");
    out
}
