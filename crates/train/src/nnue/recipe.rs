//! Recipe files: how a network was trained, so that it can be rebuilt byte
//! for byte. One `flag = value` a line, `#` comments; the flags are those of
//! `cutoff train` (`data = a.games.xz b.games.xz`, `epochs = 20`, `no-mirror
//! = true`, ...), and `sha256 = <hex>` names the network they make. Data
//! paths are relative to the recipe's folder.
//!
//! `init-recipe = other.recipe` starts from the network another recipe
//! makes, rebuilt first: a chain of fine-tunes rebuilds with one command,
//! down to the recipe that starts from random weights.
//!
//! `data-manifest = ../data/selfplay/manifest.tsv 176` names the first 176
//! chunks of a corpus manifest, in its order, instead of listing them: the
//! manifest only grows at the end, so the same rows stay the same data, and
//! each chunk's sha256 is checked against its row before training.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// A recipe as `cutoff train` flags, with the network's expected digest.
#[derive(Clone, Debug, Default)]
pub struct Recipe {
    pub flags: Vec<String>,
    pub sha256: Option<String>,
    /// The recipe whose network this one starts from (`init-recipe`).
    pub init_recipe: Option<PathBuf>,
}

/// Reads a recipe; a malformed line is an error naming it.
pub fn read(path: &Path) -> Result<Recipe, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let folder = path.parent().unwrap_or(Path::new("."));
    parse(&text, folder).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a recipe's text; data paths are joined to `folder`.
pub fn parse(text: &str, folder: &Path) -> Result<Recipe, String> {
    let mut recipe = Recipe::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("line {}: expected `flag = value`", n + 1))?;
        match key {
            "sha256" => recipe.sha256 = Some(value.to_ascii_lowercase()),
            "data" => {
                recipe.flags.push("--data".into());
                for file in value.split_whitespace() {
                    recipe.flags.push(folder.join(file).display().to_string());
                }
            }
            "data-manifest" => {
                recipe.flags.push("--data".into());
                for file in manifest_chunks(value, folder)? {
                    recipe.flags.push(file.display().to_string());
                }
            }
            "init" => {
                recipe.flags.push("--init".into());
                recipe.flags.push(folder.join(value).display().to_string());
            }
            "init-recipe" => recipe.init_recipe = Some(folder.join(value)),
            "dir" | "recipe" | "resume" => {
                return Err(format!("line {}: `{key}` is not a recipe's to set", n + 1));
            }
            _ if value == "true" => recipe.flags.push(format!("--{key}")),
            _ => {
                recipe.flags.push(format!("--{key}"));
                recipe.flags.push(value.to_string());
            }
        }
    }
    if recipe.init_recipe.is_some() && recipe.flags.iter().any(|f| f == "--init") {
        return Err("`init` and `init-recipe` both name a starting network".into());
    }
    Ok(recipe)
}

/// The first `N` chunk files of the manifest `value` (`PATH N`) names,
/// each checked against the manifest's sha256.
fn manifest_chunks(value: &str, folder: &Path) -> Result<Vec<PathBuf>, String> {
    let (path, count) = value
        .rsplit_once(char::is_whitespace)
        .and_then(|(p, n)| Some((folder.join(p.trim()), n.parse::<usize>().ok()?)))
        .filter(|&(_, n)| n > 0)
        .ok_or("data-manifest: expected `MANIFEST COUNT`, COUNT at least 1")?;
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines().map(|l| l.split('\t').collect::<Vec<_>>());
    let header = lines.next().unwrap_or_default();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("{}: no `{name}` column", path.display()))
    };
    let (file_col, sha_col) = (column("file")?, column("sha256")?);
    let rows: Vec<_> = lines.take(count).collect();
    if rows.len() < count {
        return Err(format!(
            "data-manifest: {} lists {} chunks, the recipe asks for {count}",
            path.display(),
            rows.len()
        ));
    }
    let chunks = path.parent().unwrap_or(Path::new("."));
    rows.iter()
        .map(|row| {
            let (name, want) = (row.get(file_col), row.get(sha_col));
            let (Some(name), Some(want)) = (name, want) else {
                return Err(format!("{}: a row lacks a column", path.display()));
            };
            let file = chunks.join(name);
            let got = sha256_file(&file)?;
            if got != *want {
                return Err(format!(
                    "{} has sha256 {got}, {} says {want}",
                    file.display(),
                    path.display()
                ));
            }
            Ok(file)
        })
        .collect()
}

/// The SHA-256 of a file, in lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    let mut file =
        fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
