//! The lab's outputs: JSON Lines with the documented keys, SVGs that parse as
//! XML, clear errors on bad input.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use cutoff::lab::chart;

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
