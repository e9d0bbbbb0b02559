//! `cutoff spsa-params` (every build): OpenBench's SPSA input, one line per
//! tunable (the search's and the time manager's), and the table of them in
//! docs/search.md.

use std::collections::HashSet;
use std::process::Command;

use cutoff_engine::search::params;

fn spsa_params() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("spsa-params")
        .output()
        .expect("run cutoff");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn spsa_params_lines_parse_as_openbench_input() {
    let text = spsa_params();
    let mut names = HashSet::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(", ").collect();
        assert_eq!(f.len(), 7, "'{line}'");
        assert!(
            f[0].chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "'{line}'"
        );
        assert!(names.insert(f[0].to_ascii_lowercase()), "{} twice", f[0]);
        assert_eq!(f[1], "int", "'{line}'");
        let int = |s: &str| s.parse::<i64>().unwrap_or_else(|_| panic!("'{line}'"));
        let (value, min, max) = (int(f[2]), int(f[3]), int(f[4]));
        assert!(min <= value && value <= max, "'{line}'");
        let real = |s: &str| s.parse::<f64>().unwrap_or_else(|_| panic!("'{line}'"));
        let (c_end, r_end) = (real(f[5]), real(f[6]));
        assert!(c_end > 0.0 && c_end <= (max - min) as f64, "'{line}'");
        assert!(r_end > 0.0 && r_end < 1.0, "'{line}'");
    }
    assert_eq!(names.len(), params::all().count());
    assert!(names.len() > 50, "only {} tunables", names.len());
}

/// docs/search.md has one row `| name | default | min..max | step |` per
/// tunable, as declared.
#[test]
fn spsa_table_in_the_docs_matches_the_declaration() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/search.md");
    let doc = std::fs::read_to_string(path).expect("docs/search.md");
    for t in params::all() {
        let row = format!(
            "| `{}` | {} | {}..{} | {} |",
            t.name, t.default, t.min, t.max, t.step
        );
        assert!(doc.contains(&row), "docs/search.md lacks '{row}'");
    }
}

/// OpenBench builds an engine with `make -j EXE=<name> [EVALFILE=<net>]` in
/// the folder its configuration names; in `spsa/` that is the tunable build.
/// A dry run (`make -n`) shows the commands without building.
#[test]
fn openbench_builds_the_tunable_engine_in_the_spsa_folder() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new("make")
        .args(["-n", "-j", "EXE=cutoff-x", "EVALFILE=../nets/net6.nnue"])
        .current_dir(root.join("spsa"))
        .output();
    let Ok(out) = run else {
        eprintln!("make is not installed: the dry run is skipped");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let evalfile = root.join("nets/net6.nnue");
    assert!(
        text.contains(&format!(
            "CUTOFF_EVALFILE=\"{}\" cargo build --release --features spsa",
            evalfile.display()
        )),
        "{text}"
    );
    let exe = root.join("spsa/cutoff-x");
    assert!(
        text.contains(&format!("cp target/release/cutoff {}", exe.display())),
        "{text}"
    );
}
