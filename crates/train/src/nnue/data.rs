//! Training samples: packed positions ([`crate::games::positions`])
//! decoded straight into the network's input features without building a
//! board.

use crate::games::records::{Packed, unpack};
use cutoff_engine::eval::nnue::FeatureSet;

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
    let rec = unpack(rec)?;
    let pieces = &rec.pieces[..rec.count];
    let mut kings = [0usize; 2];
    for &(sq, color, piece) in pieces {
        if piece == 5 {
            kings[color] = sq ^ flip;
        }
    }
    let mut s = Sample::default();
    for (slot, side) in [rec.stm, 1 - rec.stm].into_iter().enumerate() {
        let view = features.view(side, kings[side]);
        for (out, &(sq, color, piece)) in s.features[slot].iter_mut().zip(pieces) {
            *out = FeatureSet::index(side, view, color, piece, sq ^ flip) as u16;
        }
    }
    s.count = rec.count;
    let white_score = f32::from(rec.score);
    let white_result = f32::from(rec.result) / 2.0;
    (s.score, s.result) = if rec.stm == 0 {
        (white_score, white_result)
    } else {
        (-white_score, 1.0 - white_result)
    };
    Ok(s)
}

/// The trainer's generator for shuffling and initialisation.
pub use cutoff_engine::rng::SplitMix as Rng;
