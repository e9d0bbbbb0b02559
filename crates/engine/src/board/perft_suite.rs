//! Perft suites: EPD files of positions with known leaf counts per depth.
//!
//! One position per line: `<FEN> ;D1 <n> ;D2 <n> ... [;id "<name>"]`, the
//! format of Ethereal's and many other engines' perft files. Blank lines and
//! lines starting with `#` are skipped; fields other than `D<k>` are ignored.

use super::Position;
use super::perft::perft;

/// One line of a perft suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// 1-based line number in the file, for reports.
    pub line: usize,
    pub fen: String,
    pub id: Option<String>,
    /// (depth, expected leaf count), in the order the line lists them.
    pub depths: Vec<(u32, u64)>,
}

impl PerftCase {
    /// A short name for reports: the id if any, else the line number.
    pub fn name(&self) -> String {
        match &self.id {
            Some(id) => format!("line {} ({id})", self.line),
            None => format!("line {}", self.line),
        }
    }
}

/// How one case came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every checked depth matched; `checked` depths, `nodes` leaves counted.
    Pass { checked: usize, nodes: u64 },
    /// The first depth whose count differs.
    Mismatch { depth: u32, expected: u64, got: u64 },
    /// The board library refused the FEN (e.g. an impossible position).
    Refused(String),
}

/// Parses a whole suite, failing on the first malformed line.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(case) = parse_line(line, i + 1)? {
            cases.push(case);
        }
    }
    Ok(cases)
}

/// Parses one line; `Ok(None)` for blank lines and comments.
pub fn parse_line(line: &str, number: usize) -> Result<Option<PerftCase>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split(';').map(str::trim);
    let fen = fields.next().unwrap_or_default().to_string();
    let mut case = PerftCase {
        line: number,
        fen,
        id: None,
        depths: Vec::new(),
    };
    for field in fields.filter(|f| !f.is_empty()) {
        let (key, value) = field.split_once(char::is_whitespace).unwrap_or((field, ""));
        let value = value.trim();
        if key == "id" {
            case.id = Some(value.trim_matches('"').to_string());
        } else if let Some(depth) = key.strip_prefix('D') {
            let bad = || format!("line {number}: bad perft field '{field}'");
            let depth: u32 = depth.parse().map_err(|_| bad())?;
            let nodes: u64 = value.parse().map_err(|_| bad())?;
            case.depths.push((depth, nodes));
        }
    }
    if case.depths.is_empty() {
        return Err(format!("line {number}: no 'D<depth> <nodes>' field"));
    }
    Ok(Some(case))
}

/// Checks a case at every listed depth up to `max_depth` (all if `None`),
/// stopping at the first mismatch.
pub fn check(case: &PerftCase, max_depth: Option<u32>, chess960: bool) -> Outcome {
    let pos = match Position::from_fen(&case.fen, chess960) {
        Ok(pos) => pos,
        Err(e) => return Outcome::Refused(e),
    };
    let mut checked = 0;
    let mut nodes = 0;
    for &(depth, expected) in &case.depths {
        if max_depth.is_some_and(|max| depth > max) {
            continue;
        }
        let got = perft(pos.board(), depth);
        if got != expected {
            return Outcome::Mismatch {
                depth,
                expected,
                got,
            };
        }
        checked += 1;
        nodes += got;
    }
    Outcome::Pass { checked, nodes }
}

/// Totals over a suite run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub positions: usize,
    /// (position, depth) pairs that matched.
    pub checks: usize,
    pub nodes: u64,
    pub mismatches: usize,
    pub refused: usize,
}

impl Summary {
    pub fn add(&mut self, outcome: &Outcome) {
        self.positions += 1;
        match outcome {
            Outcome::Pass { checked, nodes } => {
                self.checks += checked;
                self.nodes += nodes;
            }
            Outcome::Mismatch { .. } => self.mismatches += 1,
            Outcome::Refused(_) => self.refused += 1,
        }
    }
}

/// Runs every case of a suite file, printing each mismatch and refusal as it
/// happens, and returns the totals.
pub fn run_file(path: &str, max_depth: Option<u32>, chess960: bool) -> Result<Summary, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let cases = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut summary = Summary::default();
    for case in &cases {
        let outcome = check(case, max_depth, chess960);
        match &outcome {
            Outcome::Mismatch {
                depth,
                expected,
                got,
            } => println!(
                "MISMATCH {path} {}: D{depth} expected {expected}, got {got}: {}",
                case.name(),
                case.fen
            ),
            Outcome::Refused(e) => {
                println!("REFUSED {path} {}: {e}: {}", case.name(), case.fen)
            }
            Outcome::Pass { .. } => {}
        }
        summary.add(&outcome);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_depths_and_id() {
        let line = "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9 ;id \"kings\"";
        let case = parse_line(line, 7).unwrap().unwrap();
        assert_eq!(case.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(case.depths, vec![(1, 3), (2, 9)]);
        assert_eq!(case.id.as_deref(), Some("kings"));
        assert_eq!(case.name(), "line 7 (kings)");
    }

    #[test]
    fn skips_blank_and_comment_lines() {
        assert_eq!(parse_line("   ", 1).unwrap(), None);
        assert_eq!(parse_line("# header", 2).unwrap(), None);
    }

    #[test]
    fn rejects_malformed_fields() {
        assert!(parse_line("K6k/8/8/8/8/8/8/8 w - - 0 1 ;D1 x", 3).is_err());
        assert!(parse_line("K6k/8/8/8/8/8/8/8 w - - 0 1 ;Dx 3", 3).is_err());
        assert!(parse_line("K6k/8/8/8/8/8/8/8 w - - 0 1", 3).is_err());
    }

    #[test]
    fn reports_the_first_wrong_depth() {
        let case = parse_line("K6k/8/8/8/8/8/8/8 w - - 0 1 ;D1 3 ;D2 10", 1)
            .unwrap()
            .unwrap();
        let outcome = check(&case, None, false);
        assert!(matches!(
            outcome,
            Outcome::Mismatch {
                depth: 2,
                expected: 10,
                ..
            }
        ));
        assert!(matches!(
            check(&case, Some(1), false),
            Outcome::Pass {
                checked: 1,
                nodes: 3
            }
        ));
    }
}
