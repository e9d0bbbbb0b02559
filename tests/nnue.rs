//! The network evaluation: incremental accumulators equal a full refresh
//! for every feature set and several hidden sizes, the SIMD and scalar paths
//! agree, the network file is checked, and the trainer's float network
//! agrees with the quantised one it exports, with one output bucket and with
//! several, with plain and with mirrored inputs.

use std::path::PathBuf;

use std::sync::Arc;

use cutoff_engine::board::{Board, Move, Piece, Position, STARTPOS};
use cutoff_engine::eval::nnue::{
    self, Accumulator, AccumulatorStack, DEFAULT_HIDDEN, FeatureSet, Kernel, Network,
    default_network, file, output_bucket,
};
use cutoff_train::nnue::checkpoint::quantise;
use cutoff_train::nnue::data::{self, Rng};
use cutoff_train::nnue::model::Model;

/// Start positions rich in castling, en passant and promotions.
const FENS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn sample_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-sample.bin")
}

/// What kind of move a random walk played, for the counts the test checks.
#[derive(Debug, Default)]
struct Seen {
    short_castles: usize,
    long_castles: usize,
    en_passants: usize,
    promotions: usize,
    captures: usize,
    /// King moves (castling included) from files a-d to e-h or back.
    crossings: usize,
}

impl Seen {
    fn count(&mut self, b: &Board, mv: Move) {
        let piece = b.piece_on(mv.from);
        let own = b.colors(b.side_to_move()).has(mv.to);
        if piece == Some(Piece::King) {
            let to_file = if own {
                // Castling, written as king takes rook: the king ends on g or c.
                if mv.to.file() > mv.from.file() {
                    self.short_castles += 1;
                    6
                } else {
                    self.long_castles += 1;
                    2
                }
            } else {
                mv.to.file() as usize
            };
            self.crossings += ((mv.from.file() as usize >= 4) != (to_file >= 4)) as usize;
        }
        let diagonal = mv.from.file() != mv.to.file();
        if piece == Some(Piece::Pawn) && diagonal && b.piece_on(mv.to).is_none() {
            self.en_passants += 1;
        }
        self.promotions += mv.promotion.is_some() as usize;
        self.captures += (b.piece_on(mv.to).is_some() && !own) as usize;
    }
}

/// Castling, en passant, a promotion or a king crossing the d/e line.
fn is_special(b: &Board, mv: Move) -> bool {
    let mut seen = Seen::default();
    seen.count(b, mv);
    seen.short_castles + seen.long_castles + seen.en_passants + seen.promotions + seen.crossings > 0
}

/// A network of every feature set at several hidden sizes (the embedded one
/// among them): random weights, evaluations spanning hundreds of centipawns.
fn networks() -> Vec<Arc<Network>> {
    let mut nets = vec![default_network()];
    for (i, (features, hidden)) in [
        (FeatureSet::Plain, 128),
        (FeatureSet::Mirrored, 256),
        (FeatureSet::Mirrored, 128),
        (FeatureSet::Mirrored, 384),
    ]
    .into_iter()
    .enumerate()
    {
        let model = random_model_of(hidden, 1, 30 + i as u64).with_features(features);
        nets.push(Arc::new(quantise(&model).expect("quantises")));
    }
    nets
}

/// Random walks that also take moves back and play null moves: after every
/// step the lazily updated accumulators equal ones computed from scratch, for
/// each feature set and hidden size, through captures, castling on both
/// sides, en passant, promotions and kings crossing the d/e line.
#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    for net in networks() {
        random_walks_stay_exact(&net);
    }
}

fn random_walks_stay_exact(net: &Arc<Network>) {
    let mut rng = Rng(42);
    let mut checked = 0;
    let mut seen = Seen::default();
    for fen in FENS {
        for _ in 0..12 {
            let mut pos = Position::from_fen(fen, false).expect("test FEN");
            let mut stack = AccumulatorStack::new(net.clone(), Kernel::best());
            stack.reset(pos.board());
            for _ in 0..150 {
                let moves = pos.legal_moves();
                let r = rng.next_u64() % 10;
                if r == 0 && pos.ply() > 0 {
                    stack.pop();
                    pos.undo();
                } else if r == 1 && !pos.in_check() {
                    stack.push_null();
                    assert!(pos.play_null());
                } else if moves.is_empty() {
                    break;
                } else {
                    // Half the time a special move, if there is one.
                    let special: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| is_special(pos.board(), m))
                        .collect();
                    let pick = if !special.is_empty() && rng.next_u64().is_multiple_of(2) {
                        &special
                    } else {
                        &moves
                    };
                    let mv = pick[(rng.next_u64() % pick.len() as u64) as usize];
                    seen.count(pos.board(), mv);
                    stack.push(pos.board(), mv);
                    pos.play(mv);
                }
                // Evaluate only some plies, so several pushes are caught up at once.
                if rng.next_u64().is_multiple_of(3) {
                    let b = pos.board();
                    let fresh = Accumulator::refresh(net, b, Kernel::Scalar);
                    assert_eq!(
                        stack.current(b),
                        fresh,
                        "{net:?}: after {} plies from {fen}",
                        pos.ply()
                    );
                    assert_eq!(stack.evaluate(b), nnue::evaluate_board(net, b));
                    checked += 1;
                }
            }
        }
    }
    eprintln!("{net:?}: {checked} positions checked, {seen:?}");
    assert!(checked > 2000, "{checked} positions checked");
    assert!(
        seen.short_castles >= 5
            && seen.long_castles >= 5
            && seen.en_passants >= 3
            && seen.promotions >= 10
            && seen.captures >= 100
            && seen.crossings >= 50,
        "{seen:?}"
    );
}

/// With output buckets, the search's stack evaluates every position of
/// random games (captures change the bucket) as a fresh evaluation does.
#[test]
fn bucketed_stack_evaluates_like_a_refresh() {
    let net = std::sync::Arc::new(quantise(&random_model(8, 21)).expect("quantises"));
    let mut rng = Rng(17);
    let mut buckets_seen = std::collections::HashSet::new();
    for _ in 0..20 {
        let mut pos = Position::from_fen(STARTPOS, false).expect("start");
        let mut stack = AccumulatorStack::new(net.clone(), Kernel::best());
        stack.reset(pos.board());
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            stack.push(pos.board(), mv);
            pos.play(mv);
            let b = pos.board();
            buckets_seen.insert(output_bucket(b.occupied().len(), 8));
            assert_eq!(stack.evaluate(b), nnue::evaluate_board(&net, b));
        }
    }
    assert!(buckets_seen.len() >= 6, "buckets {buckets_seen:?}");
}

/// Every move and reply from positions with castling, en passant and
/// promotions available: the update after two moves equals a refresh, for
/// each feature set and hidden size.
#[test]
fn every_special_move_updates_correctly() {
    for net in networks() {
        let mut seen = Seen::default();
        for fen in FENS {
            let mut pos = Position::from_fen(fen, false).expect("test FEN");
            let mut stack = AccumulatorStack::new(net.clone(), Kernel::best());
            stack.reset(pos.board());
            for mv in pos.legal_moves() {
                seen.count(pos.board(), mv);
                stack.push(pos.board(), mv);
                pos.play(mv);
                for reply in pos.legal_moves() {
                    seen.count(pos.board(), reply);
                    stack.push(pos.board(), reply);
                    pos.play(reply);
                    let fresh = Accumulator::refresh(&net, pos.board(), Kernel::Scalar);
                    assert_eq!(
                        stack.current(pos.board()),
                        fresh,
                        "{net:?}, {fen}: {mv} {reply}"
                    );
                    stack.pop();
                    pos.undo();
                }
                // Back at the first move: its accumulator still holds.
                let fresh = Accumulator::refresh(&net, pos.board(), Kernel::Scalar);
                assert_eq!(stack.current(pos.board()), fresh, "{net:?}, {fen}: {mv}");
                stack.pop();
                pos.undo();
            }
        }
        assert!(
            seen.en_passants >= 2
                && seen.long_castles >= 2
                && seen.short_castles >= 2
                && seen.crossings >= 10,
            "{seen:?}"
        );
    }
}

/// A random float network of the embedded size whose evaluations span
/// hundreds of centipawns.
fn random_model(buckets: usize, seed: u64) -> Model {
    random_model_of(DEFAULT_HIDDEN, buckets, seed)
}

/// A random float network of `hidden` neurons whose evaluations span
/// hundreds of centipawns.
fn random_model_of(hidden: usize, buckets: usize, seed: u64) -> Model {
    let mut model = Model::random(hidden, buckets, &mut Rng(seed));
    let (b1, w2) = (model.b1_range(), model.w2_range());
    model.params[b1].iter_mut().for_each(|b| *b = 0.3);
    model.params[w2].iter_mut().for_each(|w| *w *= 25.0);
    model.clip();
    model
}

#[test]
fn simd_and_scalar_evaluations_agree() {
    simd_and_scalar_agree_on(&default_network());
    let bucketed = quantise(&random_model(8, 5)).expect("quantises");
    assert_eq!(bucketed.buckets(), 8);
    simd_and_scalar_agree_on(&bucketed);
    let mirrored = random_model_of(128, 2, 6).with_features(FeatureSet::Mirrored);
    simd_and_scalar_agree_on(&quantise(&mirrored).expect("quantises"));
}

fn simd_and_scalar_agree_on(net: &Network) {
    let kernels: Vec<Kernel> = [Kernel::avx2(), Kernel::avx512()]
        .into_iter()
        .flatten()
        .collect();
    if kernels.is_empty() {
        eprintln!("no AVX2 or AVX-512 on this machine: nothing to compare");
    }
    let records = data::load(&[sample_path()], &data::Filter::default())
        .expect("sample data")
        .0;
    for (fast, rec) in kernels
        .iter()
        .flat_map(|&k| records.iter().map(move |r| (k, r)))
    {
        let s = cutoff_train::datagen::format::decode(rec).expect("record");
        let b = &s.board;
        let scalar = Accumulator::refresh(net, b, Kernel::Scalar);
        let simd = Accumulator::refresh(net, b, fast);
        assert_eq!(scalar, simd);
        assert_eq!(
            scalar.evaluate(net, b, Kernel::Scalar),
            simd.evaluate(net, b, fast)
        );
    }
}

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

/// The exported integer network reproduces the float network within a few
/// centipawns (rounding of weights and the SCReLU products); with buckets,
/// the float network with its buckets shifted by one is far off, so the
/// engine picks the bucket the trainer trained; with mirrored inputs, the
/// float network given plain inputs is far off, so the engine reads the
/// inputs the trainer trained on.
#[test]
fn quantised_and_float_networks_agree() {
    float_and_quantised_agree(random_model(1, 3));
    float_and_quantised_agree(random_model(8, 3));
    float_and_quantised_agree(random_model_of(128, 1, 4).with_features(FeatureSet::Mirrored));
    float_and_quantised_agree(random_model_of(384, 4, 4).with_features(FeatureSet::Mirrored));
}

fn float_and_quantised_agree(model: Model) {
    let (buckets, features) = (model.buckets, model.features);
    let net = quantise(&model).expect("quantises");
    let mut shifted = model.clone();
    shifted.params[model.w2_range()].rotate_left(2 * model.hidden);
    shifted.params[model.b2_range()].rotate_left(1);
    let (mut worst, mut spread, mut total, mut off, mut n) = (0.0f32, 0.0f32, 0.0, 0.0, 0);
    let mut plain_off = 0.0;
    let mut used = vec![false; buckets];
    for rec in data::load(&[sample_path()], &data::Filter::default())
        .expect("sample data")
        .0
    {
        let sample = data::decode_as(&rec, false, features).expect("record");
        plain_off += (model.evaluate(&data::decode(&rec).expect("record"))
            - nnue::evaluate_board(
                &net,
                &cutoff_train::datagen::format::decode(&rec)
                    .expect("record")
                    .board,
            ) as f32)
            .abs();
        let board = cutoff_train::datagen::format::decode(&rec)
            .expect("record")
            .board;
        used[output_bucket(board.occupied().len(), buckets)] = true;
        let float = model.evaluate(&sample);
        let int = nnue::evaluate_board(&net, &board) as f32;
        worst = worst.max((float - int).abs());
        total += (float - int).abs();
        off += (shifted.evaluate(&sample) - int).abs();
        n += 1;
        spread = spread.max(float.abs());
    }
    assert!(spread > 200.0, "evaluations up to {spread} cp");
    let (mean, off, plain_off) = (total / n as f32, off / n as f32, plain_off / n as f32);
    eprintln!(
        "{} neurons, {buckets} buckets, {features} inputs, float vs quantised: mean {mean:.2} cp, \
         worst {worst:.1} cp, spread {spread:.0} cp; buckets shifted: mean {off:.1} cp; \
         plain inputs: mean {plain_off:.1} cp",
        model.hidden
    );
    let used = used.iter().filter(|&&u| u).count();
    assert!(used >= buckets.min(4), "{used} of {buckets} buckets seen");
    // The evaluations reach 2,000 cp: 5% of that is the worst rounding allowed.
    assert!(
        mean <= 25.0 && worst <= 0.05 * spread.max(2000.0),
        "mean {mean} cp, worst {worst} cp"
    );
    if buckets > 1 {
        assert!(off > 5.0 * mean, "shifted buckets: mean {off} cp");
    }
    if features != FeatureSet::Plain {
        assert!(plain_off > 5.0 * mean, "plain inputs: mean {plain_off} cp");
    }
}
