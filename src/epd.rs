//! The EPD test-suite runner (`cutoff epd`): searches each position for a
//! fixed time and checks the best move against the `bm` (best move) and `am`
//! (avoid move) operations, written in SAN.

use cozy_chess::util::parse_san_move;

use crate::board::{Move, Position};
use crate::search::info::Silent;
use crate::search::limits::Limits;
use crate::search::score::{UciScore, is_mate, mate_moves};
use crate::search::{self, Settings, Shared};

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

/// Runs every position of an EPD file; prints failures and `solved k/n`.
pub fn run(
    path: &str,
    movetime: u64,
    threads: usize,
    hash_mb: usize,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    let (mut solved, mut total, mut slowest) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_line(line)?;
        let shared = Shared::with_hash(hash_mb)?;
        // A mate problem ends as soon as a mate that short is found.
        let limits = Limits {
            movetime: Some(movetime),
            mate: case.mate.map(|n| n as u32),
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let mut silent = Silent::default();
        let result = search::run(&case.position, &limits, &settings, &shared, &mut silent);
        let ms = started.elapsed().as_millis() as u64;
        slowest = slowest.max(ms);
        if case.mate.is_some() && ms >= SLOW_MS {
            println!("slow {} {ms} ms", case.id);
        }
        total += 1;
        match result.best {
            Some(mv) if case.solved_by(mv, result.score) => solved += 1,
            other => {
                let played = other.map_or("none".to_string(), |m| case.position.uci(m));
                let wanted: Vec<String> = case.best.iter().map(|&m| case.position.uci(m)).collect();
                let mate = case.mate.map_or(String::new(), |n| format!(" (mate {n})"));
                println!(
                    "failed {} played {played} score {:?} wanted {}{mate}",
                    case.id,
                    UciScore::from(result.score),
                    wanted.join(" ")
                );
            }
        }
    }
    println!("slowest position: {slowest} ms");
    println!("solved {solved}/{total}");
    Ok((solved, total))
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
}
