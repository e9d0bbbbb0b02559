//! The network evaluation: incremental accumulators equal a full refresh,
//! the SIMD and scalar paths agree, the network file is checked, and the
//! trainer's float network agrees with the quantised one it exports.

use std::path::PathBuf;

use cutoff::board::{Position, STARTPOS};
use cutoff::eval::nnue::{
    self, Accumulator, AccumulatorStack, HIDDEN, Kernel, default_network, file,
};
use cutoff::train::nnue::checkpoint::quantise;
use cutoff::train::nnue::data::{self, Rng};
use cutoff::train::nnue::model::Model;

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
                    let king = b.piece_on(mv.from) == Some(cutoff::board::Piece::King);
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
            en_passants += (pos.board().piece_on(mv.from) == Some(cutoff::board::Piece::Pawn)
                && mv.from.file() != mv.to.file()
                && pos.board().piece_on(mv.to).is_none()) as usize;
            stack.push(pos.board(), mv);
            pos.play(mv);
            for reply in pos.legal_moves() {
                en_passants +=
                    (pos.board().piece_on(reply.from) == Some(cutoff::board::Piece::Pawn)
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

#[test]
fn simd_and_scalar_evaluations_agree() {
    let net = default_network();
    let kernels: Vec<Kernel> = [Kernel::avx2(), Kernel::avx512()]
        .into_iter()
        .flatten()
        .collect();
    if kernels.is_empty() {
        eprintln!("no AVX2 or AVX-512 on this machine: nothing to compare");
    }
    let records = data::load(&[sample_path()]).expect("sample data");
    for (fast, rec) in kernels
        .iter()
        .flat_map(|&k| records.iter().map(move |r| (k, r)))
    {
        let s = cutoff::train::datagen::format::decode(rec).expect("record");
        let b = &s.board;
        let scalar = Accumulator::refresh(&net, b, Kernel::Scalar);
        let simd = Accumulator::refresh(&net, b, fast);
        assert_eq!(scalar, simd);
        assert_eq!(
            scalar.evaluate(&net, b.side_to_move(), Kernel::Scalar),
            simd.evaluate(&net, b.side_to_move(), fast)
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

/// The exported integer network reproduces the float network within a few
/// centipawns (rounding of weights and the SCReLU products).
#[test]
fn quantised_and_float_networks_agree() {
    let mut model = Model::random(HIDDEN, &mut Rng(3));
    // Scale the output layer up so the evaluations span hundreds of centipawns.
    let (b1, w2) = (model.b1_range(), model.w2_range());
    model.params[b1].iter_mut().for_each(|b| *b = 0.3);
    model.params[w2].iter_mut().for_each(|w| *w *= 25.0);
    model.clip();
    let net = quantise(&model).expect("quantises");
    let (mut worst, mut spread, mut total, mut n) = (0.0f32, 0.0f32, 0.0f32, 0);
    for rec in data::load(&[sample_path()]).expect("sample data") {
        let sample = data::decode(&rec).expect("record");
        let board = cutoff::train::datagen::format::decode(&rec)
            .expect("record")
            .board;
        let float = model.evaluate(&sample);
        let int = nnue::evaluate_board(&net, &board) as f32;
        worst = worst.max((float - int).abs());
        total += (float - int).abs();
        n += 1;
        spread = spread.max(float.abs());
    }
    assert!(spread > 200.0, "evaluations up to {spread} cp");
    let mean = total / n as f32;
    eprintln!("float vs quantised: mean {mean:.2} cp, worst {worst:.1} cp, spread {spread:.0} cp");
    assert!(
        mean <= 25.0 && worst <= 100.0,
        "mean {mean} cp, worst {worst} cp"
    );
}
