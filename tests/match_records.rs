//! The tables of match results against the games they cite: each row of
//! the README's strength table, of its history in docs/strength.md, and
//! of docs/search.md's table of changes tried, that names its games in
//! `data/matches/` gives the games, wins,
//! draws and losses those files hold, and the Elo and 95% interval their
//! game pairs give, computed as `tools/sprt_pgn.py` computes them. The
//! figures are copied into the tables by hand; this keeps them true to the
//! records.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One row of the table: the figures it states and the files it cites.
struct Row {
    line: String,
    /// The first cell: the opponent, or the change tried.
    name: String,
    wdl: [u32; 3],
    games: u32,
    elo: f64,
    half_width: f64,
    files: Vec<PathBuf>,
}

/// Where a table keeps each figure: its number of cells and the cell of
/// the games, of the wins (draws and losses follow), of the Elo and of the
/// cited files.
struct Layout {
    cells: usize,
    games: usize,
    wins: usize,
    elo: usize,
    files: usize,
}

/// The strength table (the README's, and its history in docs/strength.md):
/// opponent, games, W, D, L, Elo, games' files.
const STRENGTH: Layout = Layout {
    cells: 7,
    games: 1,
    wins: 2,
    elo: 5,
    files: 6,
};

/// docs/search.md's changes: change (citing its games), control, games,
/// W, D, L, Elo, result.
const SEARCH: Layout = Layout {
    cells: 8,
    games: 2,
    wins: 3,
    elo: 6,
    files: 0,
};

/// The text of `file` (from the repository's root) after `marker`.
fn text_after(file: &str, marker: &str) -> String {
    let text = fs::read_to_string(root().join(file)).unwrap();
    let (_, after) = text
        .split_once(marker)
        .unwrap_or_else(|| panic!("{file} has no {marker:?}"));
    after.to_string()
}

/// The front page's strength table, under "## How strong".
const FRONT: (&str, &str) = ("README.md", "## How strong");

/// The rows that left the front page, newer results having replaced them.
const HISTORY: (&str, &str) = ("docs/strength.md", "## History of the front page's table");

/// The rows of the strength table in the section `(file, heading)`.
fn table_rows((file, heading): (&str, &str)) -> Vec<Row> {
    let section = text_after(file, heading);
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| opponent") && !l.starts_with("| ---"))
        .map(|l| parse_row(l, &STRENGTH))
        .collect()
}

/// The rows of docs/search.md's table of changes that cite their games.
fn search_rows() -> Vec<Row> {
    let table = text_after("docs/search.md", "\n| change | TC | games | W | D | L |");
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| l.split(" | ").next().unwrap().contains("`data/matches/"))
        .map(|l| parse_row(l, &SEARCH))
        .collect()
}

fn parse_row(line: &str, layout: &Layout) -> Row {
    let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
    assert_eq!(
        cells.len(),
        layout.cells,
        "a row of {} cells: {line}",
        layout.cells
    );
    let num = |i: usize| -> u32 {
        cells[i]
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{line}"))
    };
    // The row's own figure comes first ("**+1.0 +- 2.0** (nElo ...)").
    let elo_cell = cells[layout.elo].trim_start_matches("**");
    let (elo, rest) = elo_cell
        .split_once(" +- ")
        .unwrap_or_else(|| panic!("{line}"));
    let half_width: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let w = layout.wins;
    Row {
        line: line.to_string(),
        name: cells[0].to_string(),
        games: num(layout.games),
        wdl: [num(w), num(w + 1), num(w + 2)],
        elo: elo.parse().unwrap_or_else(|_| panic!("{line}")),
        half_width: half_width.parse().unwrap_or_else(|_| panic!("{line}")),
        files: cited_files(cells[layout.files]),
    }
}

/// The files of every `data/matches/NAME` in `text`; NAME may hold one `*`.
pub(crate) fn cited_files(text: &str) -> Vec<PathBuf> {
    let dir = root().join("data/matches");
    let mut files = Vec::new();
    for cite in text.split('`').filter(|c| c.starts_with("data/matches/")) {
        let name = &cite["data/matches/".len()..];
        let (head, tail) = name.split_once('*').unwrap_or((name, ""));
        let mut found: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|f| {
                if name.contains('*') {
                    f.len() >= head.len() + tail.len() && f.starts_with(head) && f.ends_with(tail)
                } else {
                    f == name
                }
            })
            .map(|f| dir.join(f))
            .collect();
        assert!(!found.is_empty(), "no file matches data/matches/{name}");
        found.sort();
        files.append(&mut found);
    }
    files
}

/// The tags of each game in a PGN file (plain or xz).
fn games(path: &Path) -> Vec<HashMap<String, String>> {
    let mut bytes = Vec::new();
    let file = fs::File::open(path).unwrap();
    if path.extension().is_some_and(|e| e == "xz") {
        liblzma::read::XzDecoder::new(file)
            .read_to_end(&mut bytes)
            .unwrap();
    } else {
        std::io::BufReader::new(file)
            .read_to_end(&mut bytes)
            .unwrap();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut all = Vec::new();
    let mut tags = HashMap::new();
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix("\"]")) {
            if let Some((k, v)) = tag.split_once(" \"") {
                tags.insert(k.to_string(), v.to_string());
            }
        } else if !tags.is_empty() && !line.trim().is_empty() {
            all.push(std::mem::take(&mut tags));
        }
    }
    if !tags.is_empty() {
        all.push(tags);
    }
    all
}

/// One side's results: wins, draws, losses and the pentanomial of its
/// game pairs (a pair is one opening played with each colour).
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) wdl: [u32; 3],
    penta: [u32; 5],
    open: HashMap<String, f64>,
}

impl Tally {
    fn add(&mut self, pair: String, score: f64) {
        self.wdl[(2.0 - 2.0 * score) as usize] += 1;
        match self.open.remove(&pair) {
            Some(first) => self.penta[(2.0 * (first + score)) as usize] += 1,
            None => {
                self.open.insert(pair, score);
            }
        }
    }

    /// Logistic Elo of the mean pair score and its 95% half-width.
    pub(crate) fn elo(&self) -> (f64, f64) {
        let pairs: f64 = self.penta.iter().map(|&c| c as f64).sum();
        let at = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| at(i) * self.penta[i] as f64).sum::<f64>() / pairs;
        let var = (0..5)
            .map(|i| self.penta[i] as f64 * (at(i) - mean).powi(2))
            .sum::<f64>()
            / pairs;
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let se = 1.959964 * (var / pairs).sqrt();
        let half = (elo((mean + se).min(1.0 - 1e-9)) - elo((mean - se).max(1e-9))) / 2.0;
        (elo(mean), half)
    }
}

/// The games of each file, in order.
pub(crate) type Files = Vec<Vec<HashMap<String, String>>>;

pub(crate) fn load(files: &[PathBuf]) -> Files {
    files.iter().map(|f| games(f)).collect()
}

/// The tally of the player `side` picks in each game: `side(white)` is
/// true when White is the one counted.
pub(crate) fn tally(files: &Files, side: impl Fn(&str) -> bool) -> Tally {
    let mut t = Tally::default();
    for (n, file) in files.iter().enumerate() {
        for g in file {
            let white = match g.get("Result").map(String::as_str) {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => continue,
            };
            let (w, b) = (&g["White"], &g["Black"]);
            let score = if side(w) { white } else { 1.0 - white };
            // match.py numbers games (rounds 2k-1 and 2k are a pair),
            // fastchess numbers pairs.
            let round = &g["Round"];
            let pair = if g.contains_key("TerminationDetails") {
                format!("{n} {}", round.parse::<u32>().unwrap().div_ceil(2))
            } else {
                let (lo, hi) = if w < b { (w, b) } else { (b, w) };
                format!("{n} {round} {} {lo} {hi}", g.get("FEN").map_or("", |f| f))
            };
            t.add(pair, score);
        }
    }
    t
}

/// The tally of the side a row speaks for: the engine named `cutoff...`
/// (against another engine) or `new` (a change against its base), or in
/// other games of Cutoff against itself whichever side gives the row's
/// figures.
fn cutoff_tally(row: &Row, files: &Files) -> Tally {
    let is_cutoff = |name: &str| name.starts_with("cutoff") || name == "new";
    let named = files
        .iter()
        .flatten()
        .any(|g| is_cutoff(&g["White"]) || is_cutoff(&g["Black"]));
    if named {
        return tally(files, is_cutoff);
    }
    let one = files[0][0]["White"].clone();
    let by_one = tally(files, |w| w == one);
    if matches(row, &by_one) {
        by_one
    } else {
        tally(files, |w| w != one)
    }
}

fn matches(row: &Row, t: &Tally) -> bool {
    let (elo, half) = t.elo();
    t.wdl == row.wdl && (elo - row.elo).abs() < 0.051 && (half - row.half_width).abs() < 0.051
}

/// Checks every row that cites games; returns how many did. A row of the
/// strength table without games must say so.
fn check(rows: &[Row]) -> usize {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for row in rows {
        if row.files.is_empty() {
            assert!(row.line.contains("not in the repository"), "{}", row.line);
            continue;
        }
        assert_eq!(row.wdl.iter().sum::<u32>(), row.games, "{}", row.line);
        let t = cutoff_tally(row, &load(&row.files));
        let (elo, half) = t.elo();
        if !matches(row, &t) {
            wrong.push(format!(
                "{}\nthe games hold W D L {:?}, Elo {elo:+.1} +- {half:.1}",
                row.line, t.wdl
            ));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    checked
}

/// The dates (`YYYY-MM-DD`) a row names, latest last.
fn dates(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let shape = |w: &[u8]| {
        w.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
    };
    let mut found: Vec<&str> = (0..b.len().saturating_sub(9))
        .filter(|&i| shape(&b[i..i + 10]))
        .map(|i| &line[i..i + 10])
        .collect();
    found.sort();
    found
}

#[test]
fn the_strength_table_states_what_its_games_hold() {
    let rows = table_rows(FRONT);
    assert!(rows.len() >= 4, "the table has its rows");
    let checked = check(&rows);
    assert!(checked >= 4, "rows with games checked: {checked}");
}

#[test]
fn the_history_of_the_strength_table_states_what_its_games_hold() {
    let rows = table_rows(HISTORY);
    assert!(rows.len() >= 10, "the history has its rows");
    let checked = check(&rows);
    assert!(checked >= 9, "rows with games checked: {checked}");
}

/// The front page keeps one row per opponent, the latest: every row of
/// the history names an opponent of the front page, measured before it.
#[test]
fn the_front_page_keeps_the_latest_row_of_each_opponent() {
    let front = table_rows(FRONT);
    for (i, row) in front.iter().enumerate() {
        let again = front[..i].iter().any(|r| r.name == row.name);
        assert!(!again, "two rows against {} on the front page", row.name);
    }
    for old in table_rows(HISTORY) {
        let now = front
            .iter()
            .find(|r| r.name == old.name)
            .unwrap_or_else(|| panic!("no front-page row against {}", old.name));
        let (then, latest) = (dates(&old.line), dates(&now.line));
        assert!(!latest.is_empty(), "a dated row: {}", now.line);
        assert!(
            then.last() <= latest.last(),
            "the history's row is newer than the front page's:\n{}\n{}",
            old.line,
            now.line
        );
    }
}

#[test]
fn the_table_of_changes_states_what_its_games_hold() {
    let rows = search_rows();
    let checked = check(&rows);
    assert!(checked >= 10, "rows with games checked: {checked}");
}

#[test]
fn a_row_that_misstates_its_games_is_caught() {
    for table in [FRONT, HISTORY] {
        let rows = table_rows(table);
        let row = rows.iter().find(|r| !r.files.is_empty()).unwrap();
        let t = cutoff_tally(row, &load(&row.files));
        let mut wrong = Row {
            line: row.line.clone(),
            name: row.name.clone(),
            wdl: row.wdl,
            games: row.games,
            elo: row.elo + 0.1,
            half_width: row.half_width,
            files: row.files.clone(),
        };
        assert!(!matches(&wrong, &t), "an Elo 0.1 off");
        wrong.elo = row.elo;
        wrong.half_width = row.half_width + 0.1;
        assert!(!matches(&wrong, &t), "an interval 0.1 off");
        wrong.half_width = row.half_width;
        wrong.wdl[0] += 1;
        assert!(!matches(&wrong, &t), "one win too many");
    }
}
