//! Tuning positions as sparse linear traces: each position keeps only its
//! non-zero feature coefficients (White minus Black), its phase factors and
//! its label, so an epoch is a sparse dot product per position.

use std::fs;
use std::path::Path;

use crate::games::positions::{self, Filter};
use crate::games::records;
use cutoff_engine::board::{Board, fen};
use cutoff_engine::eval::hand::{LinearTrace, PHASE_MAX, endgame};

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Range of this position's entries in [`Dataset::entries`].
    pub start: u32,
    pub len: u32,
    /// Multipliers of the midgame and endgame weights (phase and scale).
    pub mg: f32,
    pub eg: f32,
    /// Score outside the weights (mop-up), White's view.
    pub fixed: f32,
    /// Game result from White's view: 0, 0.5 or 1.
    pub result: f32,
    /// Search score from White's view, if the data has one.
    pub score: Option<f32>,
}

/// All positions of a tuning run.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// (weight index, coefficient) pairs of every position, back to back.
    pub entries: Vec<(u16, i16)>,
    pub samples: Vec<Sample>,
    /// Positions left out: drawn by scaling (no gradient) or unreadable.
    pub skipped: usize,
}

/// A labelled board before tracing.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub board: Board,
    pub result: f32,
    pub score: Option<f32>,
}

impl Dataset {
    /// Traces `positions` on `threads` threads.
    pub fn build(positions: &[Labelled], threads: usize) -> Dataset {
        let chunk = positions.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<Dataset> = std::thread::scope(|s| {
            let handles: Vec<_> = positions
                .chunks(chunk)
                .map(|part| s.spawn(move || trace_all(part)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut out = Dataset::default();
        for part in parts {
            let base = out.entries.len() as u32;
            out.entries.extend_from_slice(&part.entries);
            out.samples.extend(part.samples.iter().map(|s| Sample {
                start: s.start + base,
                ..*s
            }));
            out.skipped += part.skipped;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    pub fn entries_of(&self, s: &Sample) -> &[(u16, i16)] {
        &self.entries[s.start as usize..(s.start + s.len) as usize]
    }
}

fn trace_all(positions: &[Labelled]) -> Dataset {
    let mut out = Dataset::default();
    for p in positions {
        let t = LinearTrace::new(&p.board);
        if t.scale == 0 {
            out.skipped += 1;
            continue;
        }
        let start = out.entries.len() as u32;
        for i in 0..t.counts.coef.len() {
            let n = t.counts.net(i);
            if n != 0 {
                out.entries.push((i as u16, n.clamp(-32768, 32767) as i16));
            }
        }
        let phase = t.phase as f32 / PHASE_MAX as f32;
        out.samples.push(Sample {
            start,
            len: out.entries.len() as u32 - start,
            mg: phase,
            eg: (1.0 - phase) * t.scale as f32 / endgame::SCALE_NORMAL as f32,
            fixed: (t.mop_up + t.counts.fixed.0) as f32,
            result: p.result,
            score: p.score,
        });
    }
    out
}

/// Loads a game file or 32-byte record file (plain or `.xz`; game files
/// filtered as the network trainer filters them), or a text file of
/// `<FEN> ... "<result>";` lines (EPD as in the Zurichess sets; also
/// `[1.0]`-style results).
pub fn load(path: &Path) -> Result<Vec<Labelled>, String> {
    let text_like = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "epd" | "txt" | "fen"));
    if !text_like {
        let (packed, counts) = positions::load(&[path], &Filter::default())?;
        if let Some(damage) = counts.damage.first() {
            eprintln!("warning: {damage}");
        }
        return packed
            .iter()
            .map(|p| {
                let r = records::decode(p)?;
                Ok(Labelled {
                    board: r.board,
                    result: r.result,
                    score: Some(r.score as f32),
                })
            })
            .collect();
    }
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            parse_line(line).map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))
        })
        .collect()
}

/// Parses `<4-field FEN> ... <result>` where the result is `"1-0"`, `"0-1"`,
/// `"1/2-1/2"` or `[1.0]`, `[0.5]`, `[0.0]`.
pub fn parse_line(line: &str) -> Result<Labelled, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return Err("expected a FEN followed by a result".into());
    }
    let board = fen::parse_fen(&fields[..4].join(" "))?;
    let rest = fields[4..].join(" ");
    let result = if rest.contains("1/2-1/2") || rest.contains("[0.5]") {
        0.5
    } else if rest.contains("1-0") || rest.contains("[1.0]") {
        1.0
    } else if rest.contains("0-1") || rest.contains("[0.0]") {
        0.0
    } else {
        return Err(format!("no result (1-0, 0-1, 1/2-1/2) in '{rest}'"));
    };
    Ok(Labelled {
        board,
        result,
        score: None,
    })
}
