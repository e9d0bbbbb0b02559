//! Checkpoints (float weights and optimiser state, after every epoch, so a
//! killed run resumes) and the quantised export the engine loads.

use std::fs;
use std::path::Path;

use super::model::Model;
use super::optim::AdamW;
use cutoff_engine::eval::nnue::file::MAX_HIDDEN;
use cutoff_engine::eval::nnue::{self, FeatureSet, MAX_OUTPUT_BUCKETS, Network, QA, QB};

/// Before output buckets: hidden, epochs, steps, floats (one bucket, plain).
const MAGIC_V1: &[u8; 8] = b"CUTOFFCK";
/// With output buckets: hidden, buckets, epochs, steps, floats (plain).
const MAGIC_V2: &[u8; 8] = b"CUTOFFC2";
/// With the feature set: hidden, buckets, feature set, epochs, steps, floats.
const MAGIC: &[u8; 8] = b"CUTOFFC3";

/// Writes the model, optimiser and finished epoch count (atomically: a
/// temporary file renamed over the old one).
pub fn save(path: &Path, model: &Model, opt: &AdamW, epochs_done: u32) -> Result<(), String> {
    let mut out = Vec::with_capacity(32 + 12 * model.params.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(model.hidden as u32).to_le_bytes());
    out.extend_from_slice(&(model.buckets as u32).to_le_bytes());
    out.extend_from_slice(&model.features.id().to_le_bytes());
    out.extend_from_slice(&epochs_done.to_le_bytes());
    out.extend_from_slice(&opt.t.to_le_bytes());
    for v in model.params.iter().chain(&opt.m).chain(&opt.v) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, &out).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a checkpoint (either format): the model, the optimiser and the
/// epochs done.
pub fn load(path: &Path) -> Result<(Model, AdamW, u32), String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = || format!("{} is not a checkpoint of this trainer", path.display());
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    // (offset of the epochs, buckets, feature set id)
    let (at, buckets, features) = match bytes.get(..8) {
        Some(m) if m == MAGIC_V1 && bytes.len() >= 24 => (12, 1, 0),
        Some(m) if m == MAGIC_V2 && bytes.len() >= 28 => (16, u32_at(12) as usize, 0),
        Some(m) if m == MAGIC && bytes.len() >= 32 => (20, u32_at(12) as usize, u32_at(16)),
        _ => return Err(bad()),
    };
    let features = FeatureSet::from_id(features).ok_or_else(bad)?;
    let hidden = u32_at(8) as usize;
    let epochs = u32_at(at);
    let t = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("8 bytes"));
    let header = at + 12;
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(bad());
    }
    let n = Model::len(hidden, buckets, features);
    if bytes.len() != header + 12 * n {
        return Err(bad());
    }
    let floats: Vec<f32> = bytes[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let model = Model {
        hidden,
        buckets,
        features,
        params: floats[..n].to_vec(),
    };
    let opt = AdamW {
        m: floats[n..2 * n].to_vec(),
        v: floats[2 * n..].to_vec(),
        t,
    };
    Ok((model, opt, epochs))
}

/// The engine's integer network for `model` (1 to the file format's
/// `MAX_HIDDEN` neurons; the engine runs those of `SUPPORTED_HIDDEN`).
pub fn quantise(model: &Model) -> Result<Network, String> {
    if !(1..=MAX_HIDDEN).contains(&model.hidden) {
        return Err(format!(
            "the network file holds 1 to {MAX_HIDDEN} hidden neurons, the model has {}",
            model.hidden
        ));
    }
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&model.buckets) {
        return Err(format!(
            "the engine reads 1 to {MAX_OUTPUT_BUCKETS} output buckets, the model has {}",
            model.buckets
        ));
    }
    let q = |v: f32, scale: i32| (v * scale as f32).round() as i16;
    let p = &model.params;
    Ok(Network {
        features: model.features,
        // With a factor block, each bucket row plus its factor row.
        feature_weights: model.rows().iter().map(|&v| q(v, QA)).collect(),
        feature_bias: p[model.b1_range()].iter().map(|&v| q(v, QA)).collect(),
        output_weights: p[model.w2_range()].iter().map(|&v| q(v, QB)).collect(),
        output_bias: p[model.b2_range()].iter().map(|&v| q(v, QA * QB)).collect(),
    })
}

/// The float model of an engine network (the inverse of [`quantise`]), so
/// that training can start from a network instead of random weights. With
/// king buckets the file holds the summed rows: they become the bucket rows,
/// and the factor block starts at zero.
pub fn dequantise(net: &Network) -> Model {
    let f = |v: &i16, scale: i32| *v as f32 / scale as f32;
    let mut model = Model {
        hidden: net.hidden(),
        buckets: net.buckets(),
        features: net.features,
        params: (net.feature_weights.iter().map(|v| f(v, QA)))
            .chain(net.feature_bias.iter().map(|v| f(v, QA)))
            .chain(net.output_weights.iter().map(|v| f(v, QB)))
            .chain(net.output_bias.iter().map(|v| f(v, QA * QB)))
            .collect(),
    };
    let factor = model.factor_range().len();
    model.params.extend(std::iter::repeat_n(0.0, factor));
    model
}

/// Writes the quantised network file.
pub fn export(path: &Path, model: &Model) -> Result<(), String> {
    let net = quantise(model)?;
    fs::write(path, nnue::file::to_bytes(&net))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::Rng;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("cutoff-ckpt-{name}-{}.bin", std::process::id()))
    }

    /// The shape, the feature set and every parameter (a factor block
    /// included) and the optimiser's state come back as saved.
    #[test]
    fn checkpoints_keep_the_buckets_and_features() {
        for features in [FeatureSet::Mirrored, FeatureSet::KingBuckets4] {
            let mut model = Model::random(3, 5, &mut Rng(1)).with_features(features);
            let mut rng = Rng(3);
            model.params.iter_mut().for_each(|w| *w += rng.symmetric());
            let mut opt = AdamW::new(model.params.len());
            opt.t = 77;
            opt.m.iter_mut().for_each(|m| *m = rng.symmetric());
            opt.v.iter_mut().for_each(|v| *v = rng.symmetric().abs());
            let path = temp(features.name());
            save(&path, &model, &opt, 9).expect("saves");
            let (back, o, epochs) = load(&path).expect("loads");
            assert_eq!((o.t, epochs, &o.m, &o.v), (77, 9, &opt.m, &opt.v));
            assert_eq!(back, model);
            std::fs::remove_file(path).ok();
        }
    }

    /// A network read back into floats quantises to the same integers; with
    /// king buckets the file holds the summed rows, read back as bucket rows
    /// with a zero factor block.
    #[test]
    fn dequantised_networks_quantise_back_unchanged() {
        let kings = FeatureSet::KingBuckets4;
        for (buckets, features) in [(1, FeatureSet::Plain), (3, FeatureSet::Plain), (2, kings)] {
            let mut model =
                Model::random(nnue::DEFAULT_HIDDEN, buckets, &mut Rng(5)).with_features(features);
            let b2 = model.b2_range();
            model.params[b2].iter_mut().for_each(|b| *b = 0.37);
            let w1 = model.w1_range();
            let mut rng = Rng(6);
            model.params[w1]
                .iter_mut()
                .for_each(|w| *w += 0.1 * rng.symmetric());
            let net = quantise(&model).expect("quantises");
            let back = dequantise(&net);
            assert_eq!((back.hidden, back.buckets), (nnue::DEFAULT_HIDDEN, buckets));
            assert_eq!(back.features, features);
            assert_eq!(back.params.len(), model.params.len());
            assert_ne!(back, model, "the floats were rounded");
            if features == kings {
                let factor = &back.params[back.factor_range()];
                assert!(factor.iter().all(|&f| f == 0.0));
                let rows = model.rows();
                let merged = &back.params[back.w1_range()];
                assert!(
                    rows.iter()
                        .zip(merged)
                        .all(|(a, b)| (a - b).abs() <= 0.5 / QA as f32 + 1e-6)
                );
            }
            let again = quantise(&back).expect("quantises");
            assert_eq!(nnue::file::to_bytes(&again), nnue::file::to_bytes(&net));
        }
    }

    /// A checkpoint written before output buckets resumes as one bucket.
    #[test]
    fn checkpoints_before_buckets_load() {
        let model = Model::random(3, 1, &mut Rng(2));
        let mut bytes = MAGIC_V1.to_vec();
        bytes.extend_from_slice(&3u32.to_le_bytes());
        bytes.extend_from_slice(&4u32.to_le_bytes());
        bytes.extend_from_slice(&12u64.to_le_bytes());
        for _ in 0..3 {
            model
                .params
                .iter()
                .for_each(|v| bytes.extend(v.to_le_bytes()));
        }
        let path = temp("v1");
        fs::write(&path, &bytes).expect("writes");
        let (back, o, epochs) = load(&path).expect("loads");
        assert_eq!((back.buckets, o.t, epochs), (1, 12, 4));
        assert_eq!(back, model);
        fs::write(&path, &bytes[..bytes.len() - 4]).expect("writes");
        assert!(load(&path).is_err(), "a cut file is refused");
        std::fs::remove_file(path).ok();
    }
}
