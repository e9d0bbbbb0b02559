//! Training positions: the positions of game files that pass a [`Filter`]
//! (as the files are read) and 32-byte record files, packed as 32-byte
//! records ([`super::records`]).

use std::path::Path;

use super::records::{Packed, RECORD_SIZE, encode, unpack};
use super::{GameRecord, file, parse};
use cutoff_engine::board::{Board, Move, moves};

/// Which stored positions of game files train: the rest are dropped when
/// the data is read, so the games themselves keep every ply.
#[derive(Clone, Debug)]
pub struct Filter {
    /// Skip this many plies at the start of every game.
    pub skip_plies: usize,
    /// Skip positions scored beyond this (centipawns).
    pub max_score: i32,
}

/// Why a position is dropped before its score is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Within the first `skip_plies` of the game.
    Opening,
    InCheck,
    /// A capture or a promotion is played from it.
    Noisy,
}

impl Filter {
    /// Whether the position at `ply`, with `mv` played from it, can be
    /// trained on whatever its score (the score limit aside): the
    /// positions rescoring searches again.
    pub fn unfit(&self, ply: usize, board: &Board, mv: Move) -> Option<Unfit> {
        if ply < self.skip_plies {
            Some(Unfit::Opening)
        } else if !board.checkers().is_empty() {
            Some(Unfit::InCheck)
        } else if mv.promotion.is_some() || moves::is_capture(board, mv) {
            Some(Unfit::Noisy)
        } else {
            None
        }
    }
}

impl Default for Filter {
    fn default() -> Self {
        Self {
            skip_plies: 8,
            max_score: 3000,
        }
    }
}

/// How many positions were kept and why the others were dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions read from 32-byte record files (filtered when generated).
    pub records: u64,
    /// Positions of game files kept.
    pub kept: u64,
    pub opening: u64,
    pub in_check: u64,
    /// The move played (the search's best) was a capture or promotion.
    pub noisy: u64,
    pub score: u64,
    pub games: u64,
    /// Damage found, one line per damaged file (its whole games were read).
    pub damage: Vec<String>,
    /// Positions each file gave, in the order read.
    pub per_file: Vec<usize>,
}

impl Counts {
    /// One line: kept, dropped by reason.
    pub fn describe(&self) -> String {
        let stored = self.kept + self.opening + self.in_check + self.noisy + self.score;
        format!(
            "{} record positions; {} games: kept {} of {stored} positions (dropped: {} opening plies, {} in check, {} capture or promotion played, {} beyond the score limit)",
            self.records,
            self.games,
            self.kept,
            self.opening,
            self.in_check,
            self.noisy,
            self.score
        )
    }
}

/// Reads the files (`.xz` decompressed on the fly), in order: game files
/// (replayed, filtered) and 32-byte record files alike. A record with a bad
/// piece or label is an error naming file and record; a damaged game file
/// keeps the games before the damage and is named in [`Counts::damage`].
pub fn load(paths: &[impl AsRef<Path>], filter: &Filter) -> Result<(Vec<Packed>, Counts), String> {
    let mut out = Vec::new();
    let mut counts = Counts::default();
    for path in paths {
        let before = out.len();
        load_file(path.as_ref(), filter, &mut out, &mut counts)?;
        counts.per_file.push(out.len() - before);
    }
    Ok((out, counts))
}

/// Reads one file's positions into `out`, as [`load`] says.
fn load_file(
    path: &Path,
    filter: &Filter,
    out: &mut Vec<Packed>,
    counts: &mut Counts,
) -> Result<(), String> {
    let bytes = file::read_bytes(path)?;
    if file::is_game_file(&bytes) {
        let parsed = parse(&bytes);
        if let Some(d) = &parsed.damage {
            let name = path.display().to_string();
            counts.damage.push(d.describe(&name, parsed.games.len()));
        }
        for game in &parsed.games {
            keep_positions(game, filter, out, counts);
        }
        return Ok(());
    }
    file::refuse_text(path, &bytes)?;
    for (i, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
        let rec: Packed = chunk.try_into().expect("chunks_exact gives full records");
        unpack(&rec).map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
        out.push(rec);
        counts.records += 1;
    }
    Ok(())
}

/// Packs the positions of `game` that pass `filter`.
fn keep_positions(game: &GameRecord, filter: &Filter, out: &mut Vec<Packed>, counts: &mut Counts) {
    counts.games += 1;
    game.replay(|ply, board, mv, score| {
        let counter = match filter.unfit(ply, board, mv) {
            Some(Unfit::Opening) => &mut counts.opening,
            Some(Unfit::InCheck) => &mut counts.in_check,
            Some(Unfit::Noisy) => &mut counts.noisy,
            None if i32::from(score).abs() > filter.max_score => &mut counts.score,
            None => {
                out.push(encode(board, score, game.result));
                &mut counts.kept
            }
        };
        *counter += 1;
    });
}
