//! The committed self-play corpus and the recipes that use it: every chunk
//! in `data/selfplay/` is listed once in its manifest with its true size and
//! sha256, the corpus README's totals are the manifest's sums, and every
//! repository file a recipe names exists.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use cutoff_train::nnue::recipe;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The manifest's lines split into fields, and the index of each column.
struct Manifest {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Manifest {
    fn read() -> Self {
        let text = fs::read_to_string(root().join("data/selfplay/manifest.tsv")).unwrap();
        let mut lines = text
            .lines()
            .map(|l| l.split('\t').map(String::from).collect());
        let header = lines.next().unwrap();
        Self {
            header,
            rows: lines.collect(),
        }
    }

    fn col(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap()
    }
}

/// The manifest's rows as file name -> (bytes, sha256).
fn manifest() -> HashMap<String, (u64, String)> {
    let m = Manifest::read();
    let (file, bytes, sha) = (m.col("file"), m.col("bytes"), m.col("sha256"));
    let mut rows = HashMap::new();
    for f in &m.rows {
        let row = (f[bytes].parse().unwrap(), f[sha].clone());
        assert!(
            rows.insert(f[file].clone(), row).is_none(),
            "{} is listed twice",
            f[file]
        );
    }
    rows
}

fn chunks() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root().join("data/selfplay"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".games.xz"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_chunk_is_in_the_manifest_with_its_size_and_sha256() {
    let rows = manifest();
    let names = chunks();
    assert!(!names.is_empty());
    for name in &names {
        let (bytes, sha) = rows
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not listed"));
        let path = root().join("data/selfplay").join(name);
        assert_eq!(fs::metadata(&path).unwrap().len(), *bytes, "{name}: size");
        assert_eq!(&recipe::sha256_file(&path).unwrap(), sha, "{name}: sha256");
    }
    for listed in rows.keys() {
        assert!(names.contains(listed), "{listed} is listed but missing");
    }
}

/// The integers in `text` up to its first `(`, in order ("1,234" is 1234).
fn integers(text: &str) -> Vec<u64> {
    let head = text.split('(').next().unwrap();
    head.split(|c: char| !c.is_ascii_digit() && c != ',')
        .map(|w| w.replace(',', ""))
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn the_corpus_readme_states_the_manifest_totals() {
    let m = Manifest::read();
    let chunks = m.rows.len() as u64;
    let sums = ["games", "positions", "kept", "bytes"].map(|name| {
        let c = m.col(name);
        m.rows
            .iter()
            .map(|f| f[c].parse::<u64>().unwrap())
            .sum::<u64>()
    });
    // "... the corpus is N chunks, G games, P stored positions (K kept by
    // the default filter) in M MB": one sentence, kept by hand.
    let readme = fs::read_to_string(root().join("data/selfplay/README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = readme.find("the corpus is ").expect("the totals sentence");
    let sentence = &readme[at + "the corpus is ".len()..];
    assert_eq!(
        integers(sentence),
        [chunks, sums[0], sums[1]],
        "chunks, games, positions"
    );
    let kept = sentence.split('(').nth(1).unwrap();
    assert_eq!(integers(kept)[0], sums[2], "kept");
    let mb = kept
        .split(") in ")
        .nth(1)
        .unwrap()
        .split(" MB")
        .next()
        .unwrap();
    assert_eq!(mb, format!("{:.1}", sums[3] as f64 / 1e6), "MB");
}

#[test]
fn recipes_name_only_files_that_exist() {
    let nets = root().join("nets");
    let mut recipes = 0;
    for entry in fs::read_dir(&nets).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "recipe") {
            continue;
        }
        recipes += 1;
        // The trainer's own reading: `--data` and `--init` are followed by
        // paths already joined to the recipe's folder.
        let flags = recipe::read(&path).unwrap().flags;
        let mut is_path = false;
        for flag in &flags {
            if flag.starts_with("--") {
                is_path = matches!(flag.as_str(), "--data" | "--init");
                continue;
            }
            // Files outside the repository (generation 0 in the shared
            // data) are not shipped; those inside must be.
            let file = Path::new(flag);
            if is_path && inside_repository(file) {
                assert!(file.exists(), "{}: {flag} does not exist", path.display());
            }
        }
    }
    assert!(recipes > 0);
}

fn inside_repository(path: &Path) -> bool {
    let mut depth = 0i32;
    for part in path.strip_prefix(root()).unwrap().components() {
        match part {
            std::path::Component::ParentDir => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// `data-manifest = M N` in a recipe names the first N chunks of manifest
/// M, in its order, each checked against the manifest's sha256.
#[test]
fn a_recipe_names_the_first_chunks_of_a_manifest() {
    let dir = std::env::temp_dir().join(format!("cutoff-manifest-{}", std::process::id()));
    let chunks = dir.join("chunks");
    fs::create_dir_all(&chunks).unwrap();
    let mut table = String::from("games\tsha256\tfile\n");
    for (name, bytes) in [("a.games.xz", b"first"), ("b.games.xz", b"other")] {
        fs::write(chunks.join(name), bytes).unwrap();
        let sha = recipe::sha256_file(&chunks.join(name)).unwrap();
        table += &format!("1\t{sha}\t{name}\n");
    }
    fs::write(chunks.join("m.tsv"), table).unwrap();
    let flags = |count: &str| {
        recipe::parse(&format!("data-manifest = chunks/m.tsv {count}\n"), &dir).map(|r| r.flags)
    };
    let path = |name: &str| chunks.join(name).display().to_string();
    assert_eq!(flags("1").unwrap(), ["--data".into(), path("a.games.xz")]);
    assert_eq!(
        flags("2").unwrap(),
        ["--data".into(), path("a.games.xz"), path("b.games.xz")]
    );
    let err = flags("3").unwrap_err();
    assert!(err.contains("lists 2 chunks"), "{err}");
    assert!(flags("").unwrap_err().contains("MANIFEST COUNT"));
    assert!(flags("0").unwrap_err().contains("at least 1"));
    fs::write(chunks.join("b.games.xz"), b"changed").unwrap();
    let err = flags("2").unwrap_err();
    assert!(err.contains("b.games.xz has sha256"), "{err}");
    assert!(flags("1").is_ok(), "only the rows named are read");
    fs::remove_dir_all(&dir).ok();
}
