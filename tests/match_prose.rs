//! The match figures written in the prose of docs/nnue.md and
//! docs/strength.md against the games they cite: in every paragraph (or
//! list item) that names files of `data/matches/`, each "w W d D l L" it
//! states is the tally of one side in some of those games (one file, the
//! files of one citation, or all of the paragraph's), and an Elo written
//! beside it ("+1.0 +- 2.0", before or after) is that tally's, as
//! `tools/sprt_pgn.py` computes it. Figures of games not in the repository
//! go in paragraphs that cite none.

use crate::match_records::{Files, Tally, cited_files, load, tally};

const DOCS: [&str; 2] = ["docs/nnue.md", "docs/strength.md"];

/// One stated result: its W, D, L, the Elo and half-width beside it if
/// any, and the text it was read from.
#[derive(Debug)]
struct Claim {
    wdl: [u32; 3],
    elo: Option<(f64, f64)>,
    context: String,
}

/// The paragraphs and list items of `text` (tables left out).
fn blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        let starts_item = t.starts_with("- ") || t.starts_with("* ");
        if t.is_empty() || t.starts_with('|') || starts_item {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if t.is_empty() || t.starts_with('|') {
                continue;
            }
        }
        cur.push_str(t);
        cur.push(' ');
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A number with thousands commas, at the start of `s`: (value, bytes read).
fn number(s: &str) -> Option<(f64, usize)> {
    let len = s
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .unwrap_or(s.len());
    let digits = s[..len].trim_end_matches(['.', ',']);
    let value = digits.replace(',', "").parse().ok()?;
    Some((value, digits.len()))
}

/// An Elo "+a +- b" (or "-a +- b") starting at `s`.
fn elo_at(s: &str) -> Option<(f64, f64)> {
    let s = s.trim_start_matches('*');
    let sign = match s.chars().next()? {
        '+' => 1.0,
        '-' => -1.0,
        _ => return None,
    };
    let (a, n) = number(&s[1..])?;
    let rest = s[1 + n..].strip_prefix(" +- ")?;
    let (b, _) = number(rest)?;
    Some((sign * a, b))
}

/// The last Elo in `s` (the text just before a claim), if nothing but
/// emphasis, brackets and a count of games stands between them
/// ("**+1.0 +- 2.0** (400 games, " or "+1.0 +- 2.0 in 641 games (").
fn elo_before(s: &str) -> Option<(f64, f64)> {
    let at = s.rfind(" +- ")?;
    let start = s[..at].rfind(['+', '-'])?;
    let (elo, half) = elo_at(&s[start..])?;
    let tail = s[at + 4..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let between = tail
        .split(|c: char| c.is_whitespace() || "*(,".contains(c))
        .all(|w| w.is_empty() || w == "in" || w == "games" || number(w).is_some());
    between.then_some((elo, half))
}

/// Every "w W d D l L" of a block, with the Elo beside it.
fn claims(block: &str) -> Vec<Claim> {
    let words: Vec<(usize, &str)> = block
        .split(' ')
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .collect();
    let mut out = Vec::new();
    for i in 0..words.len().saturating_sub(5) {
        let w = |k: usize| words[i + k].1;
        // "(147": a claim may open a parenthesis.
        let int = |k: usize| -> Option<u32> {
            w(k).trim_start_matches('(').replace(',', "").parse().ok()
        };
        let is = |k: usize, letter: &str| w(k).trim_end_matches([',', ')', ';']) == letter;
        if !(is(1, "W") && is(3, "D") && is(5, "L")) {
            continue;
        }
        let (Some(win), Some(draw), Some(loss)) = (int(0), int(2), int(4)) else {
            continue;
        };
        let start = words[i].0;
        let end = words[i + 5].0 + words[i + 5].1.len();
        let after = block[end..]
            .trim_start_matches([',', ')', ';'])
            .trim_start();
        let elo = elo_at(after).or_else(|| elo_before(&block[back(block, start, 60)..start]));
        out.push(Claim {
            wdl: [win, draw, loss],
            elo,
            context: block[back(block, start, 80)..ahead(block, end, 40)].to_string(),
        });
    }
    out
}

/// The byte index about `n` bytes before `at` in `s`, on a character's start.
fn back(s: &str, at: usize, n: usize) -> usize {
    (0..=at.saturating_sub(n))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

/// The byte index about `n` bytes after `at` in `s`, on a character's start.
fn ahead(s: &str, at: usize, n: usize) -> usize {
    ((at + n).min(s.len())..=s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len())
}

/// Both sides' tallies of `files`.
fn sides(files: &Files) -> [Tally; 2] {
    let first = files
        .iter()
        .flatten()
        .next()
        .map(|g| g["White"].clone())
        .unwrap_or_default();
    [tally(files, |w| w == first), tally(files, |w| w != first)]
}

/// Whether some tally of the block's games gives the claim.
fn holds(claim: &Claim, candidates: &[Tally]) -> bool {
    candidates.iter().any(|t| {
        t.wdl == claim.wdl
            && claim.elo.is_none_or(|(elo, half)| {
                let (e, h) = t.elo();
                (e - elo).abs() < 0.051 && (h - half).abs() < 0.051
            })
    })
}

/// The files each code span of `block` names (`data/matches/NAME`, alone
/// or within a command such as `tools/sprt_pgn.py ... data/matches/A
/// data/matches/B`), one group per span.
fn citations(block: &str) -> Vec<Vec<std::path::PathBuf>> {
    block
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.contains("data/matches/"))
        .map(|span| {
            span.split_whitespace()
                .filter(|w| w.starts_with("data/matches/"))
                .flat_map(|w| cited_files(&format!("`{w}`")))
                .collect()
        })
        .collect()
}

/// The tallies a claim of `block` may state: each cited file, the files of
/// each citation, and all of them.
fn candidates(block: &str) -> Vec<Tally> {
    let cites = citations(block);
    let all: Vec<_> = cites.iter().flatten().cloned().collect();
    let mut sets: Vec<Vec<_>> = all.iter().map(|f| vec![f.clone()]).collect();
    sets.extend(cites.iter().cloned());
    sets.push(all);
    sets.iter().flat_map(|s| sides(&load(s))).collect()
}

#[test]
fn the_figures_in_the_docs_prose_are_those_of_their_games() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for doc in DOCS {
        let text = std::fs::read_to_string(crate::match_records::root().join(doc)).unwrap();
        for block in blocks(&text) {
            if !block.contains("data/matches/") {
                continue;
            }
            let found = claims(&block);
            if found.is_empty() {
                continue;
            }
            let cands = candidates(&block);
            for c in found {
                checked += 1;
                if !holds(&c, &cands) {
                    wrong.push(format!(
                        "{doc}: {:?} {:?} in ...{}...",
                        c.wdl, c.elo, c.context
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 35, "claims checked: {checked}");
}

#[test]
fn a_misstated_figure_in_prose_is_caught() {
    let ok = "games in `data/matches/ttpv-10k.pgn.xz`: 354 W 481 D 365 L, -3.2 +- 14.9.";
    let check = |block: &str| {
        let found = claims(block);
        assert_eq!(found.len(), 1, "{block}");
        holds(&found[0], &candidates(block))
    };
    assert!(check(ok));
    assert!(check(&ok.replace("-3.2 +- 14.9", "**-3.2 +- 14.9**")));
    assert!(!check(&ok.replace("354 W", "355 W")), "one win too many");
    assert!(!check(&ok.replace("-3.2", "-3.3")), "an Elo 0.1 off");
    let before = "`data/matches/ttpv-10k.pgn.xz`: **-3.2 +- 14.8** (354 W 481 D 365 L)";
    assert!(!check(before), "an interval 0.1 off, written before");
    assert!(check(&before.replace("14.8", "14.9")));
}

#[test]
fn claims_near_characters_of_several_bytes_are_read() {
    let block = "ééééééééééééééééééééééééééééééééééééééééé **+1.0 +- 2.0** (1 W 2 D 3 L) ééééééééééééééééééééé";
    let found = claims(block);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].wdl, [1, 2, 3]);
    assert_eq!(found[0].elo, Some((1.0, 2.0)));
}
