//! Training positions: game files (filtered as they are read) and the older
//! 32-byte records, plain or `.xz`, packed as 32-byte records and decoded
//! straight into the network's input features without building a board.

use std::path::Path;

use crate::datagen::format::{RECORD_SIZE, encode};
use crate::games::{self, GameRecord};
use cutoff_engine::board::{Board, Move, moves};
use cutoff_engine::eval::nnue::FeatureSet;

/// One datagen record, kept packed until a batch needs it.
pub type Packed = [u8; RECORD_SIZE];

/// A decoded position: active inputs of both perspectives, side to move's
/// first, and its labels from the side to move's view.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// Inputs of the side to move's perspective, then of the other side's.
    pub features: [[u16; 32]; 2],
    pub count: usize,
    /// Search score in centipawns.
    pub score: f32,
    /// Game result: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
}

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
        let path = path.as_ref();
        let bytes = games::file::read_bytes(path)?;
        if games::file::is_game_file(&bytes) {
            let parsed = games::parse(&bytes);
            if let Some(d) = &parsed.damage {
                let name = path.display().to_string();
                counts.damage.push(d.describe(&name, parsed.games.len()));
            }
            for game in &parsed.games {
                keep_positions(game, filter, &mut out, &mut counts);
            }
            continue;
        }
        for (i, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
            let rec: Packed = chunk.try_into().expect("chunks_exact gives full records");
            decode(&rec).map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
            out.push(rec);
            counts.records += 1;
        }
    }
    Ok((out, counts))
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

/// Decodes a record into the plain inputs and side-to-move labels.
pub fn decode(rec: &Packed) -> Result<Sample, String> {
    decode_as(rec, false, FeatureSet::Plain)
}

/// Decodes a record into the inputs of `features`, with files a..h
/// mirrored to h..a first if `mirror`: the inputs know nothing of castling,
/// so the mirrored position is as good a training example as the original,
/// and half as likely to be memorised. (With the mirrored feature set both
/// give the same inputs.)
pub fn decode_as(rec: &Packed, mirror: bool, features: FeatureSet) -> Result<Sample, String> {
    let flip = if mirror { 7 } else { 0 };
    let occ = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        return Err("more than 32 pieces".into());
    }
    let stm = rec[27] as usize;
    if stm > 1 {
        return Err(format!("bad side to move {stm}"));
    }
    // (square, colour, piece) of every piece, and each side's king.
    let mut pieces = [(0usize, 0usize, 0usize); 32];
    let mut kings = [0usize; 2];
    let mut bits = occ;
    let mut n = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize ^ flip;
        bits &= bits - 1;
        let nibble = (rec[8 + n / 2] >> (4 * (n % 2))) & 15;
        let (color, piece) = ((nibble >> 3) as usize, (nibble & 7) as usize);
        if piece > 5 {
            return Err(format!("bad piece code {nibble}"));
        }
        if piece == 5 {
            kings[color] = sq;
        }
        pieces[n] = (sq, color, piece);
        n += 1;
    }
    let mut s = Sample::default();
    for (slot, side) in [stm, 1 - stm].into_iter().enumerate() {
        let view = features.view(side, kings[side]);
        for (out, &(sq, color, piece)) in s.features[slot].iter_mut().zip(&pieces[..n]) {
            *out = FeatureSet::index(side, view, color, piece, sq) as u16;
        }
    }
    s.count = n;
    let white_score = f32::from(i16::from_le_bytes([rec[24], rec[25]]));
    let white_result = match rec[26] {
        r @ 0..=2 => f32::from(r) / 2.0,
        r => return Err(format!("bad result code {r}")),
    };
    (s.score, s.result) = if stm == 0 {
        (white_score, white_result)
    } else {
        (-white_score, 1.0 - white_result)
    };
    Ok(s)
}

/// The trainer's generator for shuffling and initialisation.
pub use cutoff_engine::rng::SplitMix as Rng;
