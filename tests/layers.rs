//! The layering of the workspace. Crates: the engine (`cutoff-engine`)
//! depends on no other crate of the workspace and on none of the tools'
//! dependencies; the trainer and the lab depend on the engine only. Inside
//! the engine: uci -> engine -> search -> (board, eval, time, tt). A file may import
//! only from its own layer or a lower one, and the files of search/ import
//! each other without cycles and nothing from search/mod.rs (which only
//! names the modules). Inside the trainer: cli -> (nnue, tune, wdl) ->
//! (book, datagen) -> (games, progress), every module in a layer and no
//! cycle between modules, so the record formats (games) use nothing else of
//! the crate. Read from the source text: `crate::x`, `super::x` and
//! `use super::{x, y}`; comments, `pub mod`/`pub use` lines (a module's
//! facade) and `#[cfg(test)]` modules do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Lower number = lower layer. `rng`, `memory` and `tunable` are leaves
/// shared by several layers; `time` (the time plan) sits beside `board`,
/// under the search and the engine that use it. Modules not listed (bench, epd, lib) sit on top of
/// everything and are not checked.
const LAYERS: &[(&str, u8)] = &[
    ("board", 0),
    ("eval", 0),
    ("tablebase", 0),
    ("rng", 0),
    ("memory", 0),
    ("tunable", 0),
    ("time", 0),
    ("tt", 0),
    ("search", 1),
    ("book", 1),
    ("engine", 2),
    ("uci", 3),
];

/// The training crate's top modules, lowest first. Every module is listed
/// (`lib` aside): a new one must be given its place.
const TRAIN_LAYERS: &[(&str, u8)] = &[
    ("games", 0),
    ("progress", 0),
    ("book", 1),
    ("datagen", 1),
    ("nnue", 2),
    ("tune", 2),
    ("wdl", 2),
    ("cli", 3),
];

fn layer(module: &str) -> Option<u8> {
    layer_in(LAYERS, module)
}

fn layer_in(layers: &[(&str, u8)], module: &str) -> Option<u8> {
    layers.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src() -> PathBuf {
    root().join("crates/engine/src")
}

fn train_src() -> PathBuf {
    root().join("crates/train/src")
}

/// The code that counts: no comments, no facade lines, no test module.
fn code_of(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|l| {
            !l.trim_start().starts_with("pub mod") && !l.trim_start().starts_with("pub use")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Identifiers following each `prefix` (`crate::` gives top modules).
fn after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .filter(|(i, _)| {
            *i == 0 || !text[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        })
        .map(|(i, _)| ident_at(text, i + prefix.len()))
        .filter(|s| !s.is_empty())
        .collect()
}

/// (top module, submodule or "") pairs a file of module `top`/`sub` imports.
fn edges(code: &str, top: &str, sub: &str, dir: &Path) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let first = ident_at(code, i + 7);
        let second = code[i + 7 + first.len()..]
            .strip_prefix("::")
            .map(|r| ident_at(r, 0))
            .unwrap_or("");
        let second = if first == top { second } else { "" };
        out.insert((first.to_string(), second.to_string()));
    }
    if !sub.is_empty() && sub != "mod" {
        let mut supers = code.to_string();
        while supers.contains("super::super::") {
            supers = supers.replace("super::super::", "super::");
        }
        for name in after(&supers, "super::") {
            out.insert((top.to_string(), name.to_string()));
        }
        for group in supers.split("use super::{").skip(1) {
            let inner = group.split("};").next().unwrap_or("");
            for part in inner.split(',') {
                let name = ident_at(part.trim_start(), 0);
                if !name.is_empty() {
                    out.insert((top.to_string(), name.to_string()));
                }
            }
        }
    } else if dir.join(top).is_dir() {
        for (i, _) in code.match_indices("::") {
            let before = &code[..i];
            let start = before
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            let name = &before[start..];
            let qualified = before[..start].ends_with("::");
            if !name.is_empty() && !qualified && dir.join(top).join(format!("{name}.rs")).exists() {
                out.insert((top.to_string(), name.to_string()));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file under a crate's `src`: its path, its path from `src`
/// without the extension, and its top module and submodule ("" for none).
struct SourceFile {
    path: PathBuf,
    rel: PathBuf,
    top: String,
    sub: String,
}

/// Every source file under `dir`, in path order.
fn source_files(dir: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let rel = path
                .strip_prefix(dir)
                .expect("under the source folder")
                .with_extension("");
            let mut parts = rel.iter().map(|p| p.to_string_lossy().into_owned());
            let top = parts.next().unwrap_or_default();
            let sub = parts.next().unwrap_or_default();
            SourceFile {
                path,
                rel,
                top,
                sub,
            }
        })
        .collect()
}

/// Problems found in the tree under `dir`, and the number of import edges
/// between files of crates/engine/src/search/ that were read.
fn check(dir: &Path) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for SourceFile {
        path,
        rel,
        top,
        sub,
    } in source_files(dir)
    {
        let (top, sub) = (top.as_str(), sub.as_str());
        let Some(own) = layer(top) else { continue };
        if sub.ends_with("_tests") {
            continue;
        }
        let code = code_of(&fs::read_to_string(&path).expect("readable"));
        for (dep, dep_sub) in edges(&code, top, sub, dir) {
            if layer(&dep).is_some_and(|l| l > own) {
                bad.push(format!("{} imports {dep} (a higher layer)", rel.display()));
            }
            if top == "search" && dep == "search" && !sub.is_empty() {
                let is_file = dir.join("search").join(format!("{dep_sub}.rs")).exists();
                let target = if is_file {
                    dep_sub.clone()
                } else {
                    "mod".to_string()
                };
                // mod.rs only names the modules: nothing is imported from it.
                if target == "mod" && sub != "mod" {
                    bad.push(format!(
                        "{} imports {dep_sub} from search/mod.rs",
                        rel.display()
                    ));
                }
                if target != sub {
                    graph.entry(sub.to_string()).or_default().insert(target);
                }
            }
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        bad.push(format!("search import cycle: {}", cycle.join(" -> ")));
    }
    (bad, graph.values().map(BTreeSet::len).sum())
}

/// Problems found in the training crate's tree under `dir`, and its graph of
/// top modules (module -> the modules it imports).
fn check_train(dir: &Path) -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    let mut bad = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for SourceFile {
        path,
        rel,
        top,
        sub,
    } in source_files(dir)
    {
        let (top, sub) = (top.as_str(), sub.as_str());
        if top == "lib" || sub.ends_with("_tests") {
            continue;
        }
        let Some(own) = layer_in(TRAIN_LAYERS, top) else {
            bad.push(format!("{} is in no layer", rel.display()));
            continue;
        };
        let code = code_of(&fs::read_to_string(&path).expect("readable"));
        let mut deps = edges(&code, top, sub, dir);
        if sub.is_empty() || sub == "mod" {
            // Right under the crate root, `super::x` is `crate::x`.
            deps.extend(
                after(&code, "super::")
                    .iter()
                    .map(|m| (m.to_string(), String::new())),
            );
        }
        for (dep, _) in deps {
            if dep == top {
                continue;
            }
            match layer_in(TRAIN_LAYERS, &dep) {
                Some(l) if l > own => {
                    bad.push(format!("{} imports {dep} (a higher layer)", rel.display()));
                }
                Some(_) => {}
                None => bad.push(format!("{} imports {dep}, in no layer", rel.display())),
            }
            graph.entry(top.to_string()).or_default().insert(dep);
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        bad.push(format!("train import cycle: {}", cycle.join(" -> ")));
    }
    (bad, graph)
}

/// A cycle of the graph, if it has one (depth-first, three colours).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()) {
                Some(1) => {
                    let from = path.iter().position(|p| p == w).unwrap_or(0);
                    let mut cycle = path[from..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(w, graph, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if !state.contains_key(v.as_str())
            && let Some(c) = visit(v, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn every_module_imports_only_its_own_layer_or_lower() {
    let (bad, search_edges) = check(&src());
    assert!(bad.is_empty(), "layering problems:\n{}", bad.join("\n"));
    // The search's files do import each other: a reader that saw nothing
    // would pass for the wrong reason.
    assert!(
        search_edges > 30,
        "only {search_edges} edges read in crates/engine/src/search"
    );
}

/// The check finds what it is for: an upward import, a search cycle and an
/// import from search/mod.rs.
#[test]
fn the_check_catches_an_upward_import_and_a_cycle() {
    let dir = std::env::temp_dir().join(format!("cutoff-layers-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("search")).expect("temp dir");
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).expect("write");
    write("search/a.rs", "use super::b::B;\n// use crate::uci::X;\n");
    write("search/b.rs", "use super::{a::A, c};\n");
    write(
        "search/c.rs",
        "use crate::engine::Engine;\n#[cfg(test)]\nmod tests { use crate::uci::Y; }\n",
    );
    write("search/d.rs", "use super::Shared;\n");
    write(
        "search/mod.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub struct Shared;\n",
    );
    let (bad, _) = check(&dir);
    assert!(
        bad.iter().any(|b| b.contains("search/c imports engine")),
        "{bad:?}"
    );
    assert!(
        !bad.iter().any(|b| b.contains("uci")),
        "comments and tests count: {bad:?}"
    );
    assert!(
        bad.iter()
            .any(|b| b.contains("cycle") && b.contains('a') && b.contains('b')),
        "{bad:?}"
    );
    assert!(
        bad.iter()
            .any(|b| b.contains("search/d imports Shared from search/mod.rs")),
        "{bad:?}"
    );
    assert_eq!(bad.len(), 3, "{bad:?}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_training_crate_builds_on_its_record_formats() {
    let (bad, graph) = check_train(&train_src());
    assert!(bad.is_empty(), "layering problems:\n{}", bad.join("\n"));
    assert!(
        !graph.contains_key("games"),
        "games imports {:?}",
        graph.get("games")
    );
    // Every tool reads the record formats: a reader that saw nothing would
    // pass for the wrong reason.
    for tool in ["book", "datagen", "nnue", "tune", "wdl", "cli"] {
        assert!(
            graph.get(tool).is_some_and(|deps| deps.contains("games")),
            "{tool}: {:?}",
            graph.get(tool)
        );
    }
}

/// The training crate's check finds upward imports (`crate::` and, at the
/// root, `super::`), a cycle between modules of one layer and a module in
/// no layer.
#[test]
fn the_training_check_catches_an_upward_import_and_a_cycle() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-layers-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for sub in ["games", "datagen", "book", "nnue"] {
        fs::create_dir_all(dir.join(sub)).expect("temp dir");
    }
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).expect("write");
    write("lib.rs", "pub mod games;\nuse crate::cli::X;\n");
    write("games/mod.rs", "pub mod file;\nuse file::read;\n");
    write(
        "games/file.rs",
        "use super::GameRecord;\nuse crate::nnue::data::Filter;\n",
    );
    write(
        "games/pack.rs",
        "// use crate::datagen::X;\n#[cfg(test)]\nmod tests { use crate::tune::Y; }\n",
    );
    write(
        "datagen/mod.rs",
        "use crate::book::pgn;\nuse crate::games::file;\n",
    );
    write("book/build.rs", "use crate::datagen::game::Rng;\n");
    write("nnue/data.rs", "use crate::games::records;\n");
    write("extra.rs", "use crate::games::file;\n");
    write(
        "progress.rs",
        "fn f() {\n    super::book::build::run();\n}\n",
    );
    let (bad, _) = check_train(&dir);
    assert!(
        bad.iter()
            .any(|b| b.contains("games/file imports nnue (a higher layer)")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|b| b.contains("train import cycle")
            && b.contains("book")
            && b.contains("datagen")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|b| b.contains("extra is in no layer")),
        "{bad:?}"
    );
    assert!(
        bad.iter()
            .any(|b| b.contains("progress imports book (a higher layer)")),
        "{bad:?}"
    );
    assert_eq!(bad.len(), 4, "comments, tests or lib.rs count: {bad:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// The crates of the workspace and the crates the tools alone may use.
const CRATES: &[(&str, &[&str])] = &[
    ("engine", &[]),
    ("train", &["cutoff-engine"]),
    ("lab", &["cutoff-engine"]),
];
const TOOL_ONLY: &[&str] = &[
    "plotters",
    "indicatif",
    "liblzma",
    "serde",
    "serde_json",
    "sha2",
    "viriformat",
    "bulletformat",
];

/// The names of a manifest's `[dependencies]` (not dev- or build-).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    for (name, allowed) in CRATES {
        let manifest = fs::read_to_string(root().join("crates").join(name).join("Cargo.toml"))
            .expect("the crate's manifest");
        let deps = dependencies(&manifest);
        assert!(deps.len() >= 2, "{name}: only {deps:?} read");
        for dep in &deps {
            if dep.starts_with("cutoff") {
                assert!(allowed.contains(&dep.as_str()), "{name} depends on {dep}");
            }
            if *name == "engine" {
                assert!(
                    !TOOL_ONLY.contains(&dep.as_str()),
                    "the engine depends on {dep}"
                );
            }
        }
        let mut files = Vec::new();
        rust_files(&root().join("crates").join(name).join("src"), &mut files);
        for path in files {
            let code = code_of(&fs::read_to_string(&path).expect("readable"));
            for other in ["cutoff_engine", "cutoff_train", "cutoff_lab"] {
                let allowed = allowed.contains(&other.replace('_', "-").as_str());
                assert!(
                    allowed || !code.contains(&format!("{other}::")),
                    "{} uses {other}",
                    path.display()
                );
            }
        }
    }
}

/// The engine's whole dependency tree (what `cargo tree` prints) has none of
/// the tools' crates.
#[test]
fn the_engine_crate_tree_has_no_tool_dependency() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["tree", "--offline", "-p", "cutoff-engine", "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let crates: BTreeSet<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(crates.contains("cozy-chess"), "{tree}");
    for tool in TOOL_ONLY {
        assert!(!crates.contains(tool), "the engine's tree has {tool}");
    }
}
