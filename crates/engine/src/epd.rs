//! The EPD test-suite runner (`cutoff epd`): searches each position for a
//! fixed time and checks the best move against the `bm` (best move) and `am`
//! (avoid move) operations, written in SAN.

use cozy_chess::util::parse_san_move;

use crate::board::{Move, Position};
use crate::search::info::Silent;
use crate::search::score::{UciScore, is_mate, mate_moves};
use crate::search::{SearchJob, Settings, Shared, ThreadPool};
use crate::time::Limits;

/// Mate problems taking at least this long are listed.
const SLOW_MS: u64 = 1000;

/// One test position: its FEN and the moves to find or avoid.
#[derive(Clone, Debug)]
pub struct EpdCase {
    pub id: String,
    pub position: Position,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
    /// `dm N`: the side to move mates in exactly N moves.
    pub mate: Option<i32>,
}

/// Parses one EPD line: four FEN fields then `;`-separated operations.
pub fn parse_line(line: &str) -> Result<EpdCase, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("EPD line has fewer than 4 fields: '{line}'"));
    }
    let position = Position::from_fen(&fields[..4].join(" "), false)?;
    let ops = fields[4..].join(" ");
    let mut case = EpdCase {
        id: String::new(),
        position,
        best: Vec::new(),
        avoid: Vec::new(),
        mate: None,
    };
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, args) = op.split_once(' ').unwrap_or((op, ""));
        match name {
            "bm" | "am" => {
                for san in args.split_whitespace() {
                    let mv = parse_san_move(case.position.board(), san)
                        .map_err(|_| format!("bad SAN move '{san}' in '{line}'"))?;
                    if name == "bm" {
                        &mut case.best
                    } else {
                        &mut case.avoid
                    }
                    .push(mv);
                }
            }
            "id" => case.id = args.trim_matches('"').to_string(),
            "dm" => {
                let n = args
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad dm '{args}' in '{line}'"))?;
                case.mate = Some(n);
            }
            _ => {}
        }
    }
    if case.best.is_empty() && case.avoid.is_empty() && case.mate.is_none() {
        return Err(format!("EPD line has no bm, am or dm: '{line}'"));
    }
    Ok(case)
}

impl EpdCase {
    /// Solved: for `dm N`, a reported mate in exactly N (any first move);
    /// otherwise a `bm` move and no `am` move.
    pub fn solved_by(&self, mv: Move, score: i32) -> bool {
        if let Some(n) = self.mate {
            return is_mate(score) && mate_moves(score) == n;
        }
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }
}

/// What a suite run found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub solved: usize,
    /// Positions searched.
    pub total: usize,
    /// Lines that could not be read (reported on stderr, not searched).
    pub skipped: usize,
}

/// A score as people read it, normalised as UCI prints it: `cp 76`,
/// `mate 3`, `mate -2`.
pub fn score_text(score: i32) -> String {
    match UciScore::from(score).normalised() {
        UciScore::Cp(cp) => format!("cp {cp}"),
        UciScore::Mate(m) => format!("mate {m}"),
    }
}

/// The cases of an EPD text, numbered by line (from 1); a bad line is an
/// error for that line only, so one typo does not lose the suite.
pub fn parse_suite(text: &str) -> Vec<(usize, Result<EpdCase, String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, parse_line(l)))
        .collect()
}

/// Runs every position of an EPD file; prints failures and `solved k/n`.
/// Bad lines are reported with their number and skipped; a file with no
/// readable position is an error.
pub fn run(path: &str, movetime: u64, threads: usize, hash_mb: usize) -> Result<Summary, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    let mut summary = Summary {
        solved: 0,
        total: 0,
        skipped: 0,
    };
    let mut slowest = 0;
    let mut cases = Vec::new();
    for (number, case) in parse_suite(&text) {
        match case {
            Ok(case) => cases.push(case),
            Err(e) => {
                eprintln!("{path}: line {number} skipped: {e}");
                summary.skipped += 1;
            }
        }
    }
    if cases.is_empty() {
        return Err(format!("{path}: no position could be read"));
    }
    let pool = ThreadPool::new(settings.threads, Shared::with_hash(hash_mb)?);
    let count = cases.len();
    for (done, case) in cases.into_iter().enumerate() {
        let solved = format!(" searched, {} solved", summary.solved);
        crate::bench::progress::show("epd", done, count, &solved);
        // Each position from a fresh state: an empty table, no histories.
        pool.new_game();
        // A mate problem ends as soon as a mate that short is found.
        let limits = Limits {
            movetime: Some(movetime),
            mate: case.mate.map(|n| n as u32),
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let mut silent = Silent::default();
        let job = SearchJob::new(case.position.clone(), limits, settings.clone());
        let result = pool.search(job, &mut silent);
        let ms = started.elapsed().as_millis() as u64;
        slowest = slowest.max(ms);
        if case.mate.is_some() && ms >= SLOW_MS {
            println!("slow {} {ms} ms", case.id);
        }
        summary.total += 1;
        match result.best {
            Some(mv) if case.solved_by(mv, result.score) => summary.solved += 1,
            other => {
                let played = other.map_or("none".to_string(), |m| case.position.uci(m));
                let wanted: Vec<String> = case.best.iter().map(|&m| case.position.uci(m)).collect();
                let mate = case.mate.map_or(String::new(), |n| format!(" (mate {n})"));
                println!(
                    "failed {} played {played} score {} wanted {}{mate}",
                    case.id,
                    score_text(result.score),
                    wanted.join(" ")
                );
            }
        }
    }
    crate::bench::progress::show("epd", count, count, "");
    println!("slowest position: {slowest} ms");
    let skipped = match summary.skipped {
        0 => String::new(),
        n => format!(" ({n} bad lines skipped)"),
    };
    println!("solved {}/{}{skipped}", summary.solved, summary.total);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bm_am_and_id() {
        let case = parse_line(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        )
        .unwrap();
        assert_eq!(case.id, "WAC.001");
        assert_eq!(case.position.uci(case.best[0]), "g3g6");
        assert!(case.solved_by(case.best[0], 0));
        let am = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - am e3; id \"x\";").unwrap();
        assert!(!am.solved_by(am.avoid[0], 0));
        let dm = parse_line("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"m\";").unwrap();
        assert!(dm.solved_by(dm.position.legal_moves()[0], crate::search::score::MATE - 1));
        assert!(!dm.solved_by(dm.position.legal_moves()[0], crate::search::score::MATE - 3));
        assert!(parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - bm Qh5;").is_err());
    }

    #[test]
    fn a_bad_line_is_numbered_and_the_rest_still_parses() {
        let text = "4k3/8/8/8/8/8/4P3/4K3 w - - bm e3;\n\n\
                    4k3/8/8 w - - bm e3;\n4k3/8/8/8/8/8/4P3/4K3 w - - bm Qh5;\n4k3/8/8/8/8/8/4P3/4K3 w - - am e4;\n";
        let cases = parse_suite(text);
        let lines: Vec<(usize, bool)> = cases.iter().map(|(n, c)| (*n, c.is_ok())).collect();
        assert_eq!(lines, [(1, true), (3, false), (4, false), (5, true)]);
    }

    #[test]
    fn scores_read_as_centipawns_or_mate() {
        use crate::eval::wdl::normalise;
        use crate::search::score::MATE;
        assert_eq!(score_text(76), format!("cp {}", normalise(76)));
        assert_eq!(score_text(-1200), format!("cp {}", normalise(-1200)));
        assert_eq!(score_text(-1200), "cp -1197");
        assert_eq!(score_text(MATE - 5), "mate 3");
        assert_eq!(score_text(-(MATE - 4)), "mate -2");
    }
}

/// `cutoff epd FILE [--need N] [--movetime MS] [--threads T] [--hash MB]`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// The EPD file.
    file: String,
    /// Exit non-zero if fewer than N positions are solved.
    #[arg(long, value_name = "N")]
    need: Option<usize>,
    /// Search time per position, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

pub fn main(a: EpdArgs) -> std::process::ExitCode {
    let need = a.need.unwrap_or(0);
    match run(&a.file, a.movetime, a.threads, a.hash) {
        Ok(s) if s.solved < need => {
            eprintln!("error: solved {}, fewer than --need {need}", s.solved);
            std::process::ExitCode::FAILURE
        }
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
