//! data/matches/README.md lists every file of match games beside it, once,
//! with the number of games the file holds.

use std::collections::BTreeSet;
use std::fs;

use crate::match_records::{load, root};

/// (file names, games each) of every row: a name with `LEVEL` stands for
/// one file per level in the brackets after it ("(1500, 2000)").
fn rows() -> Vec<(Vec<String>, u32)> {
    let readme = fs::read_to_string(root().join("data/matches/README.md")).unwrap();
    readme
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            let name = cells[0].split('`').nth(1).unwrap();
            let names = match cells[0].split_once('(') {
                Some((_, levels)) if name.contains("LEVEL") => levels
                    .trim_end_matches(')')
                    .split(", ")
                    .map(|level| name.replace("LEVEL", level))
                    .collect(),
                _ => vec![name.to_string()],
            };
            let games = cells
                .last()
                .unwrap()
                .trim_end_matches(" each")
                .replace(',', "");
            let games = games.parse().unwrap_or_else(|_| panic!("games of {line}"));
            (names, games)
        })
        .collect()
}

#[test]
fn every_file_of_match_games_has_its_row_with_its_games() {
    let dir = root().join("data/matches");
    let files: BTreeSet<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".pgn.xz"))
        .collect();
    let mut listed = BTreeSet::new();
    for (names, games) in rows() {
        for name in names {
            assert!(
                files.contains(&name),
                "the README lists {name}, which is not there"
            );
            assert!(listed.insert(name.clone()), "{name} is listed twice");
            let held: usize = load(&[dir.join(&name)]).iter().map(Vec::len).sum();
            assert_eq!(held as u32, games, "{name} holds {held} games");
        }
    }
    let missing: Vec<_> = files.difference(&listed).collect();
    assert!(missing.is_empty(), "files without a row: {missing:?}");
    assert!(listed.len() >= 50, "{} files listed", listed.len());
}
