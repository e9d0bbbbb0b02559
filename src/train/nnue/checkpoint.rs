//! Checkpoints (float weights and optimiser state, after every epoch, so a
//! killed run resumes) and the quantised export the engine loads.

use std::fs;
use std::path::Path;

use super::model::Model;
use super::optim::AdamW;
use crate::eval::nnue::{self, HIDDEN, Network, QA, QB};

const MAGIC: &[u8; 8] = b"CUTOFFCK";

/// Writes the model, optimiser and finished epoch count (atomically: a
/// temporary file renamed over the old one).
pub fn save(path: &Path, model: &Model, opt: &AdamW, epochs_done: u32) -> Result<(), String> {
    let mut out = Vec::with_capacity(32 + 12 * model.params.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(model.hidden as u32).to_le_bytes());
    out.extend_from_slice(&epochs_done.to_le_bytes());
    out.extend_from_slice(&opt.t.to_le_bytes());
    for v in model.params.iter().chain(&opt.m).chain(&opt.v) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, &out).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a checkpoint: the model, the optimiser and the epochs done.
pub fn load(path: &Path) -> Result<(Model, AdamW, u32), String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = || format!("{} is not a checkpoint of this trainer", path.display());
    if bytes.len() < 24 || &bytes[..8] != MAGIC {
        return Err(bad());
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let hidden = u32_at(8) as usize;
    let epochs = u32_at(12);
    let t = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let n = Model::len(hidden);
    if bytes.len() != 24 + 12 * n {
        return Err(bad());
    }
    let floats: Vec<f32> = bytes[24..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let model = Model {
        hidden,
        params: floats[..n].to_vec(),
    };
    let opt = AdamW {
        m: floats[n..2 * n].to_vec(),
        v: floats[2 * n..].to_vec(),
        t,
    };
    Ok((model, opt, epochs))
}

/// The engine's integer network for `model` (which must have `HIDDEN` neurons).
pub fn quantise(model: &Model) -> Result<Network, String> {
    if model.hidden != HIDDEN {
        return Err(format!(
            "the engine is built for {HIDDEN} hidden neurons, the model has {}",
            model.hidden
        ));
    }
    let q = |v: f32, scale: i32| (v * scale as f32).round() as i16;
    let p = &model.params;
    Ok(Network {
        feature_weights: p[model.w1_range()].iter().map(|&v| q(v, QA)).collect(),
        feature_bias: p[model.b1_range()].iter().map(|&v| q(v, QA)).collect(),
        output_weights: p[model.w2_range()].iter().map(|&v| q(v, QB)).collect(),
        output_bias: q(p[model.b2_index()], QA * QB),
    })
}

/// Writes the quantised network file.
pub fn export(path: &Path, model: &Model) -> Result<(), String> {
    let net = quantise(model)?;
    fs::write(path, nnue::file::to_bytes(&net))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
