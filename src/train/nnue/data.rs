//! Training positions: datagen records (plain or `.xz`), decoded straight
//! into the network's input features without building a board.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::train::datagen::format::RECORD_SIZE;

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

/// Reads every record of the files (`.xz` decompressed on the fly), in order.
/// A trailing partial record is dropped; a record with a bad piece or label
/// is an error naming file and record.
pub fn load(paths: &[impl AsRef<Path>]) -> Result<Vec<Packed>, String> {
    let mut out = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut bytes = Vec::new();
        let read = if path.extension().is_some_and(|e| e == "xz") {
            liblzma::read::XzDecoder::new(BufReader::new(file)).read_to_end(&mut bytes)
        } else {
            BufReader::new(file).read_to_end(&mut bytes)
        };
        read.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
            let rec: Packed = chunk.try_into().expect("chunks_exact gives full records");
            decode(&rec).map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
            out.push(rec);
        }
    }
    Ok(out)
}

/// Decodes a record into inputs and side-to-move labels.
pub fn decode(rec: &Packed) -> Result<Sample, String> {
    decode_as(rec, false)
}

/// Decodes a record, with files a..h mirrored to h..a if `mirror`: the
/// inputs know nothing of castling, so the mirrored position is as good a
/// training example as the original, and half as likely to be memorised.
pub fn decode_as(rec: &Packed, mirror: bool) -> Result<Sample, String> {
    let flip = if mirror { 7 } else { 0 };
    let occ = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        return Err("more than 32 pieces".into());
    }
    let stm = rec[27] as usize;
    if stm > 1 {
        return Err(format!("bad side to move {stm}"));
    }
    let mut s = Sample::default();
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
        for (slot, view) in [stm, 1 - stm].into_iter().enumerate() {
            s.features[slot][n] = feature(view, color, piece, sq);
        }
        n += 1;
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

/// The input index, as `eval::nnue::features::index` computes it (a test
/// checks the two agree through the quantised network's output).
fn feature(view: usize, color: usize, piece: usize, sq: usize) -> u16 {
    let side = if color == view { 0 } else { 384 };
    let sq = if view == 0 { sq } else { sq ^ 56 };
    (side + piece * 64 + sq) as u16
}

/// The trainer's generator for shuffling and initialisation.
pub use crate::rng::SplitMix as Rng;
