//! The lab's outputs: JSON Lines with the documented keys, SVGs that parse as
//! XML, clear errors on bad input.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use cutoff_lab::chart;

fn lab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("lab")
        .args(args)
        .output()
        .expect("run cutoff");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn keys(line: &str) -> BTreeSet<String> {
    let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object per line");
    v.as_object().expect("object").keys().cloned().collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-lab-{}-{name}", std::process::id()))
}

#[test]
fn compare_json_lines_have_the_documented_keys() {
    let (ok, out, err) = lab(&["compare", "--depth", "2", "--json"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "five algorithms, two depths");
    let expected = set(&[
        "algorithm",
        "depth",
        "nodes",
        "leaves",
        "time_ms",
        "value",
        "best_move",
    ]);
    let mut algorithms = BTreeSet::new();
    for line in lines {
        assert_eq!(keys(line), expected);
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        algorithms.insert(v["algorithm"].as_str().unwrap().to_string());
    }
    let names = [
        "minimax",
        "alphabeta",
        "alphabeta+ordering",
        "alphabeta+ordering+tt+id",
        "engine",
    ];
    assert_eq!(algorithms, set(&names));
}

#[test]
fn scores_json_lines_have_move_and_score() {
    let (ok, out, err) = lab(&["scores", "--depth", "1", "--json"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 16);
    for line in out.lines() {
        assert_eq!(keys(line), set(&["move", "score"]));
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    for args in [
        &["compare", "--fen", "not a fen", "--depth", "2"][..],
        &["compare", "--depth", "0"],
        &[
            "tree",
            "--tree",
            "max(1,",
            "--out",
            "/tmp/never-written.svg",
        ],
        &[
            "tree",
            "--tictactoe",
            "a1 a1",
            "--out",
            "/tmp/never-written.svg",
        ],
        &["ordering", "--positions", "0"],
    ] {
        let (ok, _, err) = lab(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}

/// Parses an SVG file and counts its node shapes (rect + circle, background excluded).
fn parse_svg(path: &PathBuf) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| matches!(n.tag_name().name(), "rect" | "circle"))
        .count()
}

#[test]
fn tree_drawings_are_valid_svg() {
    let explicit = temp("explicit.svg");
    let (ok, out, err) = lab(&[
        "tree",
        "--tree",
        "max(min(3,5),min(2,1))",
        "--out",
        explicit.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("value 3"), "{out}");
    assert!(out.contains("1 of 4 leaves pruned"), "{out}");
    // Background + 7 nodes: root, two MIN nodes, three searched leaves, one pruned.
    assert_eq!(parse_svg(&explicit), 1 + 7);

    let chess = temp("chess.svg");
    let (ok, _, err) = lab(&["tree", "--depth", "2", "--out", chess.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(parse_svg(&chess) > 17);

    let ttt = temp("ttt.svg");
    let (ok, _, err) = lab(&[
        "tree",
        "--tictactoe",
        "b2 a1",
        "--depth",
        "2",
        "--out",
        ttt.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(parse_svg(&ttt) > 7);
    for p in [explicit, chess, ttt] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn chart_is_valid_svg() {
    let path = temp("chart.svg");
    let series = vec![
        ("minimax".to_string(), vec![(1, 17), (2, 144), (3, 2096)]),
        ("alphabeta".to_string(), vec![(1, 17), (2, 41), (3, 341)]),
    ];
    chart::nodes_vs_depth(&series, "test & chart", path.to_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts.iter().any(|t| t.contains("alphabeta")),
        "legend present"
    );
    let _ = std::fs::remove_file(path);
}

/// A drawn tree: its text, and the width of its viewBox and on screen.
fn tree_svg(args: &[&str], name: &str) -> (String, f64, f64) {
    let path = temp(name);
    let (ok, _, err) = lab(&[&["tree"], args, &["--out", path.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(path);
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let root = doc.root_element();
    let view: f64 = root
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    let shown: f64 = root.attribute("width").unwrap().parse().unwrap();
    (text, view, shown)
}

fn number(node: &roxmltree::Node, name: &str) -> f64 {
    node.attribute(name).unwrap().parse().unwrap()
}

const A_TO_J: &str =
    "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";

/// Title and legend (the left-aligned texts) end inside the drawing, at a
/// glyph width of 0.55 em (0.62 em bold) that sans-serif fonts average under.
#[test]
fn tree_title_and_legend_are_not_cut_off() {
    for args in [&["--tree", A_TO_J][..], &["--depth", "2"][..]] {
        let (text, width, _) = tree_svg(args, "title.svg");
        let doc = roxmltree::Document::parse(&text).unwrap();
        let texts = doc.descendants().filter(|n| n.has_tag_name("text"));
        let left: Vec<_> = texts
            .filter(|n| n.attribute("text-anchor").is_none())
            .collect();
        assert!(left.len() >= 2, "title and legend");
        for t in left {
            let em = if t.attribute("font-weight") == Some("bold") {
                0.62
            } else {
                0.55
            };
            let chars = t.text().unwrap_or_default().chars().count() as f64;
            let end = number(&t, "x") + chars * number(&t, "font-size") * em;
            assert!(
                end <= width,
                "{args:?}: '{:?}' ends at {end}, width {width}",
                t.text()
            );
        }
    }
}

/// An edge starts below its parent's [alpha, beta] label, not through it.
#[test]
fn tree_edges_start_below_the_window_labels() {
    let (text, _, _) = tree_svg(&["--tree", A_TO_J], "edges.svg");
    let doc = roxmltree::Document::parse(&text).unwrap();
    let labels: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.starts_with('[')))
        .map(|n| (number(&n, "x"), number(&n, "y")))
        .collect();
    let edges: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("stroke") != Some("#d22"))
        .collect();
    assert_eq!(edges.len(), 16, "one edge per node but the root");
    for e in edges {
        let (x1, y1) = (number(&e, "x1"), number(&e, "y1"));
        // The parent's label: straight above or below the edge's start, the nearest.
        let label_y = labels
            .iter()
            .filter(|(x, _)| (x - x1).abs() < 0.5)
            .map(|&(_, y)| y)
            .min_by(|a, b| (a - y1).abs().total_cmp(&(b - y1).abs()))
            .expect("the parent's label");
        // 3 px for the descenders of the 10 px label.
        assert!(
            y1 >= label_y + 3.0,
            "edge at y {y1} crosses the label at {label_y}"
        );
    }
}

/// The published position at depth 2 used to be 9,946 px wide (one slot per
/// pruned move); several pruned siblings are now one stub. Wider drawings are
/// scaled down to 3,000 px.
#[test]
fn wide_trees_are_capped() {
    let (text, view, shown) = tree_svg(&["--depth", "2"], "wide.svg");
    assert!(
        view <= 3000.0 && shown == view,
        "published depth 2: {view} px"
    );
    assert!(
        text.contains(" pruned</text>"),
        "a stub for several pruned moves"
    );
    let (_, view, shown) = tree_svg(&["--tictactoe", "", "--depth", "3"], "ttt.svg");
    assert!(view > 3000.0, "this drawing is wider than the cap: {view}");
    assert!(shown <= 3000.0, "shown at {shown} px");
}
