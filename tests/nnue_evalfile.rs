//! Networks of other shapes than the embedded one, through `EvalFile` in
//! the real binary: the shape is read from the file, so a mirrored network
//! of 128 neurons and a king-bucketed one of 64 (written by the trainer's
//! code from random weights) load and play; a file the build cannot run (an unknown feature set, a hidden
//! size without kernels) gets one error line and the network in use stays.

use std::path::{Path, PathBuf};

use crate::common::{Session, is_legal};
use cutoff_engine::eval::nnue::{FeatureSet, file};
use cutoff_train::nnue::checkpoint::quantise;
use cutoff_train::nnue::data::Rng;
use cutoff_train::nnue::model::Model;

/// A folder of this test's own.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-evalfile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes a network of random weights (evaluations of some hundreds of
/// centipawns) with the given shape to `path`.
fn write_net(path: &Path, hidden: usize, buckets: usize, features: FeatureSet, seed: u64) {
    let mut model = Model::random(hidden, buckets, &mut Rng(seed)).with_features(features);
    // King buckets: rows of their own beside the shared factor rows.
    let w1 = model.w1_range();
    if model.has_factor() {
        let mut rng = Rng(seed + 1);
        model.params[w1]
            .iter_mut()
            .for_each(|w| *w = 0.036 * rng.symmetric());
    }
    let (b1, w2) = (model.b1_range(), model.w2_range());
    model.params[b1].iter_mut().for_each(|b| *b = 0.3);
    model.params[w2].iter_mut().for_each(|w| *w *= 25.0);
    model.clip();
    let net = quantise(&model).expect("quantises");
    std::fs::write(path, file::to_bytes(&net)).expect("writes the network");
}

/// The `NNUE network` and `NNUE evaluation` lines of `eval`.
fn network_lines(s: &mut Session) -> (String, String) {
    let out = s.ask("eval");
    let find = |prefix: &str| {
        out.iter()
            .find(|l| l.starts_with(prefix))
            .cloned()
            .unwrap_or_else(|| panic!("no '{prefix}' line in {out:?}"))
    };
    (find("NNUE network: "), find("NNUE evaluation: "))
}

/// Searches to depth 5 from `fen` and checks the best move is legal.
fn plays_legally(s: &mut Session, fen: &str) {
    plays_legally_to(s, fen, 5);
}

/// Searches to `depth` from `fen` and checks the best move is legal.
fn plays_legally_to(s: &mut Session, fen: &str, depth: u32) {
    s.send(&format!("position fen {fen}"));
    s.send(&format!("go depth {depth}"));
    let (lines, best) = s.wait_bestmove();
    assert!(is_legal(fen, &best, false), "{best} in {fen}: {lines:?}");
    let reached = format!(" depth {depth} ");
    assert!(
        lines.iter().any(|l| l.contains(&reached)),
        "reached depth {depth}: {lines:?}"
    );
}

/// Positions where kings cross the d/e line within a few moves (castling
/// long, kings walking in the endgame), and the start position.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1",
];

#[test]
fn a_mirrored_network_of_128_neurons_loads_and_plays() {
    let dir = temp_dir("mirrored");
    let path = dir.join("mirrored-128.nnue");
    write_net(&path, 128, 1, FeatureSet::Mirrored, 7);
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    let (embedded_shape, embedded_eval) = network_lines(&mut s);
    assert!(
        embedded_shape.contains("768 -> 384 x 2 -> 1, plain inputs"),
        "{embedded_shape}"
    );
    let out = s.ask(&format!("setoption name EvalFile value {}", path.display()));
    assert!(out.is_empty(), "{out:?}");
    let (shape, eval) = network_lines(&mut s);
    assert_eq!(
        shape,
        "NNUE network: 768 -> 128 x 2 -> 1, mirrored inputs, 1 output bucket"
    );
    assert_ne!(eval, embedded_eval, "the new network evaluates");
    for fen in FENS {
        plays_legally(&mut s, fen);
    }
    // And back to the embedded network.
    assert!(s.ask("setoption name EvalFile value <embedded>").is_empty());
    s.send("position startpos moves e2e4");
    assert_eq!(network_lines(&mut s), (embedded_shape, embedded_eval));
    s.quit();
    std::fs::remove_dir_all(dir).ok();
}

/// King buckets (3072 inputs) of 64 neurons: loads in the default build and
/// searches to depth 6 from positions where kings change bucket.
#[test]
fn a_king_bucket_network_of_64_neurons_loads_and_plays() {
    let dir = temp_dir("kings4");
    let path = dir.join("kings4-64.nnue");
    write_net(&path, 64, 1, FeatureSet::KingBuckets4, 11);
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    let (_, embedded_eval) = network_lines(&mut s);
    let out = s.ask(&format!("setoption name EvalFile value {}", path.display()));
    assert!(out.is_empty(), "{out:?}");
    let (shape, eval) = network_lines(&mut s);
    assert_eq!(
        shape,
        "NNUE network: 3072 -> 64 x 2 -> 1, kings4 inputs, 1 output bucket"
    );
    assert_ne!(eval, embedded_eval, "the new network evaluates");
    for fen in FENS {
        plays_legally_to(&mut s, fen, 6);
    }
    s.quit();
    std::fs::remove_dir_all(dir).ok();
}

/// 384 neurons and 8 output buckets, plain inputs: another size, the same way.
#[test]
fn a_bucketed_network_of_384_neurons_loads_and_plays() {
    let dir = temp_dir("h384");
    let path = dir.join("plain-384.nnue");
    write_net(&path, 384, 8, FeatureSet::Plain, 8);
    let mut s = Session::start();
    let out = s.ask(&format!("setoption name EvalFile value {}", path.display()));
    assert!(out.is_empty(), "{out:?}");
    s.send("position startpos");
    let (shape, _) = network_lines(&mut s);
    assert_eq!(
        shape,
        "NNUE network: 768 -> 384 x 2 -> 1, plain inputs, 8 output buckets"
    );
    plays_legally(&mut s, FENS[1]);
    s.quit();
    std::fs::remove_dir_all(dir).ok();
}

/// A file with an unknown feature set, or with a hidden size the build has
/// no kernels for, is refused with one error line naming the reason; the
/// network loaded before stays in use.
#[test]
fn networks_the_build_cannot_run_are_refused_and_the_last_one_stays() {
    let dir = temp_dir("refused");
    let good = dir.join("mirrored-128.nnue");
    write_net(&good, 128, 1, FeatureSet::Mirrored, 9);
    let unknown = dir.join("unknown-features.nnue");
    let mut bytes = std::fs::read(&good).expect("reads");
    assert_eq!(bytes[8], 3, "format version 3");
    bytes[20] = 7; // the feature set's id
    std::fs::write(&unknown, &bytes).expect("writes");
    let odd = dir.join("hidden-96.nnue");
    write_net(&odd, 96, 1, FeatureSet::Plain, 10);

    let mut s = Session::start();
    assert!(
        s.ask(&format!("setoption name EvalFile value {}", good.display()))
            .is_empty()
    );
    s.send("position startpos moves e2e4");
    let before = network_lines(&mut s);
    let err = s.expect_one_error(&format!(
        "setoption name EvalFile value {}",
        unknown.display()
    ));
    assert!(
        err.contains("input feature set 7")
            && err.contains("0 (plain), 1 (mirrored) and 2 (kings4)"),
        "{err}"
    );
    assert_eq!(network_lines(&mut s), before, "the mirrored network stays");
    let err = s.expect_one_error(&format!("setoption name EvalFile value {}", odd.display()));
    assert!(
        err.contains("96 hidden neurons; this build runs") && err.contains("128, 256, 384"),
        "{err}"
    );
    assert_eq!(network_lines(&mut s), before, "the mirrored network stays");
    plays_legally(&mut s, FENS[0]);
    s.quit();
    std::fs::remove_dir_all(dir).ok();
}
