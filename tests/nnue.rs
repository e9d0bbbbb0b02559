//! The network evaluation: incremental accumulators equal a full refresh,
//! the SIMD and scalar paths agree, the network file is checked, and the
//! trainer's float network agrees with the quantised one it exports, with
//! one output bucket and with several.

use std::path::PathBuf;

use cutoff_engine::board::{Position, STARTPOS};
use cutoff_engine::eval::nnue::{
    self, Accumulator, AccumulatorStack, HIDDEN, Kernel, Network, default_network, file,
    output_bucket,
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

/// Random walks that also take moves back and play null moves: after every
/// step the lazily updated accumulator equals one computed from scratch.
#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    let net = default_network();
    let mut rng = Rng(42);
    let (mut checked, mut castles, mut promotions) = (0, 0, 0);
    for fen in FENS {
        for _ in 0..20 {
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
                    let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                    let b = pos.board();
                    let king = b.piece_on(mv.from) == Some(cutoff_engine::board::Piece::King);
                    castles += (king && b.colors(b.side_to_move()).has(mv.to)) as usize;
                    promotions += mv.promotion.is_some() as usize;
                    stack.push(pos.board(), mv);
                    pos.play(mv);
                }
                // Evaluate only some plies, so several pushes are caught up at once.
                if rng.next_u64().is_multiple_of(3) {
                    let fresh = Accumulator::refresh(&net, pos.board(), Kernel::Scalar);
                    assert_eq!(
                        stack.current(),
                        &fresh,
                        "after {} plies from {fen}",
                        pos.ply()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 3000, "{checked} positions checked");
    assert!(
        castles > 10 && promotions > 10,
        "castles {castles}, promotions {promotions}"
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
/// promotions available: the update after two moves equals a refresh.
#[test]
fn every_special_move_updates_correctly() {
    let net = default_network();
    let mut en_passants = 0;
    for fen in FENS {
        let mut pos = Position::from_fen(fen, false).expect("test FEN");
        let mut stack = AccumulatorStack::new(net.clone(), Kernel::best());
        stack.reset(pos.board());
        for mv in pos.legal_moves() {
            en_passants += (pos.board().piece_on(mv.from)
                == Some(cutoff_engine::board::Piece::Pawn)
                && mv.from.file() != mv.to.file()
                && pos.board().piece_on(mv.to).is_none()) as usize;
            stack.push(pos.board(), mv);
            pos.play(mv);
            for reply in pos.legal_moves() {
                en_passants +=
                    (pos.board().piece_on(reply.from) == Some(cutoff_engine::board::Piece::Pawn)
                        && reply.from.file() != reply.to.file()
                        && pos.board().piece_on(reply.to).is_none()) as usize;
                stack.push(pos.board(), reply);
                pos.play(reply);
                let fresh = Accumulator::refresh(&net, pos.board(), Kernel::Scalar);
                assert_eq!(stack.current(), &fresh, "{fen}: {mv} {reply}");
                stack.pop();
                pos.undo();
            }
            stack.pop();
            pos.undo();
        }
    }
    assert!(en_passants >= 2, "{en_passants} en passant captures");
}

/// A random float network whose evaluations span hundreds of centipawns.
fn random_model(buckets: usize, seed: u64) -> Model {
    let mut model = Model::random(HIDDEN, buckets, &mut Rng(seed));
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
        20 + 2 * (768 * HIDDEN + HIDDEN + 4 * (2 * HIDDEN + 1))
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
    other[8] = 3;
    assert!(file::parse(&other).unwrap_err().contains("version 3"));
    let mut other = bytes.clone();
    other[16] = 3; // claims 3 buckets: the length no longer fits
    assert!(file::parse(&other).unwrap_err().contains("bytes"));
}

/// The exported integer network reproduces the float network within a few
/// centipawns (rounding of weights and the SCReLU products); with buckets,
/// the float network with its buckets shifted by one is far off, so the
/// engine picks the bucket the trainer trained.
#[test]
fn quantised_and_float_networks_agree() {
    float_and_quantised_agree(1);
    float_and_quantised_agree(8);
}

fn float_and_quantised_agree(buckets: usize) {
    let model = random_model(buckets, 3);
    let net = quantise(&model).expect("quantises");
    let mut shifted = model.clone();
    shifted.params[model.w2_range()].rotate_left(2 * HIDDEN);
    shifted.params[model.b2_range()].rotate_left(1);
    let (mut worst, mut spread, mut total, mut off, mut n) = (0.0f32, 0.0f32, 0.0, 0.0, 0);
    let mut used = vec![false; buckets];
    for rec in data::load(&[sample_path()], &data::Filter::default())
        .expect("sample data")
        .0
    {
        let sample = data::decode(&rec).expect("record");
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
    let (mean, off) = (total / n as f32, off / n as f32);
    eprintln!(
        "{buckets} buckets, float vs quantised: mean {mean:.2} cp, worst {worst:.1} cp, \
         spread {spread:.0} cp; buckets shifted: mean {off:.1} cp"
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
}
