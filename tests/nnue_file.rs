//! The network file: a truncated or foreign file is refused, other hidden
//! sizes are read only by the trainer, and networks of format versions 1
//! (the embedded one), 2 (output buckets) and 3 (feature sets, king buckets
//! among them) round trip.

use std::path::PathBuf;

use crate::nnue::{random_model, random_model_of, random_model_with};
use cutoff_engine::eval::nnue::{DEFAULT_HIDDEN, FeatureSet, default_network, file};
use cutoff_train::nnue::checkpoint::quantise;

#[test]
fn network_files_are_checked() {
    let net = default_network();
    let bytes = file::to_bytes(&net);
    assert_eq!(file::parse(&bytes).expect("round trip"), *net);
    assert!(
        file::parse(&bytes[..bytes.len() - 2])
            .unwrap_err()
            .contains("bytes")
    );
    assert!(
        file::parse(b"not a network")
            .unwrap_err()
            .contains("CUTOFFNN")
    );
    let mut other = bytes.clone();
    other[12] = 7; // hidden size
    assert!(file::parse(&other).unwrap_err().contains("hidden"));
    assert!(file::load(std::path::Path::new("/no/such/net.nnue")).is_err());
}

/// A network of another hidden size is read by `parse_sized` (the trainer
/// widens it), with the size it has, and refused by `parse`.
#[test]
fn other_hidden_sizes_are_read_only_as_such() {
    let hidden = 4;
    let mut bytes = b"CUTOFFNN".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&(hidden as u32).to_le_bytes());
    let values = 768 * hidden + hidden + 2 * hidden + 1;
    bytes.extend((0..values).flat_map(|i| (i as i16 % 7).to_le_bytes()));
    let net = file::parse_sized(&bytes).expect("a 4-neuron network");
    assert_eq!(net.hidden(), hidden);
    assert_eq!(net.feature_weights.len(), 768 * hidden);
    assert_eq!(net.output_weights[..3], [3, 4, 5]); // values 3076.. mod 7
    assert!(
        file::parse(&bytes)
            .unwrap_err()
            .contains("4 hidden neurons")
    );
    assert!(file::parse_sized(&bytes[..bytes.len() - 2]).is_err());
}

/// The embedded network is of format version 1 (before output buckets): it
/// loads as one bucket and is written back byte for byte.
#[test]
fn version_1_files_load_as_one_bucket() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/eval/nnue/default.nnue");
    let bytes = std::fs::read(path).expect("the embedded network's file");
    assert_eq!(
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
        1
    );
    let net = file::parse(&bytes).expect("version 1 loads");
    assert_eq!(net.buckets(), 1);
    assert_eq!(net, *default_network());
    assert_eq!(file::to_bytes(&net), bytes);
}

/// A network with output buckets: version 2 with the bucket count, round
/// trips, and a wrong length or bucket count is refused.
#[test]
fn bucketed_network_files_round_trip() {
    let net = quantise(&random_model(4, 11)).expect("quantises");
    let bytes = file::to_bytes(&net);
    assert_eq!(
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
        2
    );
    assert_eq!(
        u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]),
        4
    );
    assert_eq!(
        bytes.len(),
        20 + 2 * (768 * DEFAULT_HIDDEN + DEFAULT_HIDDEN + 4 * (2 * DEFAULT_HIDDEN + 1))
    );
    let back = file::parse(&bytes).expect("round trip");
    assert_eq!(back, net);
    assert_eq!(back.buckets(), 4);
    let err = file::parse(&bytes[..bytes.len() - 2]).unwrap_err();
    assert!(err.contains("bytes"), "{err}");
    for bad in [0u8, 40] {
        let mut other = bytes.clone();
        other[16] = bad;
        let err = file::parse(&other).unwrap_err();
        assert!(err.contains("buckets"), "{err}");
    }
    let mut other = bytes.clone();
    other[8] = 4;
    assert!(file::parse(&other).unwrap_err().contains("version 4"));
    let mut other = bytes.clone();
    other[16] = 3; // claims 3 buckets: the length no longer fits
    assert!(file::parse(&other).unwrap_err().contains("bytes"));
}

/// A network of the mirrored feature set: format version 3 with the feature
/// set's id after the bucket count, round trips at another hidden size than
/// the embedded one; an unknown feature set or a size without kernels is
/// refused by the engine, with the reason.
#[test]
fn feature_set_network_files_round_trip() {
    let model = random_model_of(128, 3, 12).with_features(FeatureSet::Mirrored);
    let net = quantise(&model).expect("quantises");
    let bytes = file::to_bytes(&net);
    let word = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    assert_eq!(
        (word(&bytes, 8), word(&bytes, 12), word(&bytes, 16)),
        (3, 128, 3)
    );
    assert_eq!(word(&bytes, 20), FeatureSet::Mirrored.id());
    assert_eq!(bytes.len(), 24 + 2 * (768 * 128 + 128 + 3 * (2 * 128 + 1)));
    let back = file::parse(&bytes).expect("round trip");
    assert_eq!((back.hidden(), back.buckets()), (128, 3));
    assert_eq!(back.features, FeatureSet::Mirrored);
    assert_eq!(back, net);
    assert_eq!(file::to_bytes(&back), bytes);
    let mut unknown = bytes.clone();
    unknown[20] = 9;
    let err = file::parse(&unknown).unwrap_err();
    assert!(err.contains("feature set 9"), "{err}");
    assert!(file::parse(&bytes[..22]).unwrap_err().contains("cut short"));
    // A plain network is still written in the oldest version that holds it.
    let plain = quantise(&random_model_of(128, 1, 13)).expect("quantises");
    assert_eq!(word(&file::to_bytes(&plain), 8), 1);
    // 96 neurons: a file the trainer reads, the engine has no kernels for.
    let odd = quantise(&random_model_of(96, 1, 14)).expect("quantises");
    let odd = file::to_bytes(&odd);
    assert_eq!(file::parse_sized(&odd).expect("read").hidden(), 96);
    let err = file::parse(&odd).unwrap_err();
    assert!(err.contains("96 hidden neurons; this build runs"), "{err}");
}

/// A king-bucketed network: version 3 with feature set 2 and 4 x 768 input
/// rows, round trips; a length of 768 rows is refused.
#[test]
fn king_bucket_network_files_round_trip() {
    let model = random_model_with(FeatureSet::KingBuckets4, 64, 2, 15);
    let net = quantise(&model).expect("quantises");
    assert_eq!(net.feature_weights.len(), 4 * 768 * 64);
    let bytes = file::to_bytes(&net);
    let word = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    assert_eq!(
        (
            word(&bytes, 8),
            word(&bytes, 12),
            word(&bytes, 16),
            word(&bytes, 20)
        ),
        (3, 64, 2, 2)
    );
    assert_eq!(bytes.len(), 24 + 2 * (4 * 768 * 64 + 64 + 2 * (2 * 64 + 1)));
    let back = file::parse(&bytes).expect("round trip");
    assert_eq!(back.features, FeatureSet::KingBuckets4);
    assert_eq!(back, net);
    assert_eq!(file::to_bytes(&back), bytes);
    assert_eq!(
        back.shape(),
        "3072 -> 64 x 2 -> 1, kings4 inputs, 2 output buckets"
    );
    let mut as_mirrored = bytes.clone();
    as_mirrored[20] = FeatureSet::Mirrored.id() as u8;
    let err = file::parse(&as_mirrored).unwrap_err();
    assert!(err.contains("bytes"), "{err}");
    let mut unknown = bytes;
    unknown[20] = 3;
    let err = file::parse(&unknown).unwrap_err();
    assert!(
        err.contains("feature set 3; this build knows 0 (plain), 1 (mirrored) and 2 (kings4)"),
        "{err}"
    );
}
