//! The network evaluation: incremental accumulators equal a full refresh
//! for every feature set and several hidden sizes, evaluations equal plain
//! integer code, and the trainer's float network agrees with the quantised one it
//! exports, with one output bucket and with several, with plain, mirrored
//! and king-bucketed inputs. (The network file: `nnue_file.rs`.)

use std::path::PathBuf;

use std::sync::Arc;

use cutoff_engine::board::{Board, Color, Move, Piece, Position, STARTPOS};
use cutoff_engine::eval::nnue::{
    self, Accumulator, AccumulatorStack, DEFAULT_HIDDEN, FeatureSet, Network, QA, QB, SCALE,
    default_network, features, output_bucket,
};
use cutoff_train::games::positions::{self, Filter};
use cutoff_train::nnue::checkpoint::quantise;
use cutoff_train::nnue::data::{self, Rng};
use cutoff_train::nnue::model::Model;

/// Start positions rich in castling, en passant and promotions, and two
/// endings where the kings walk between the king buckets.
const FENS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r1k3/3pp3/8/8/8/8/3PP3/4K1R1 w - - 0 1",
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
    /// King moves (castling included) into another king bucket of
    /// `kings4` (the mirror aside).
    bucket_changes: usize,
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
            let us = b.side_to_move() as usize;
            let to = mv.from.rank() as usize * 8 + to_file;
            let base = |king| FeatureSet::KingBuckets4.view(us, king).base;
            self.bucket_changes += (base(mv.from as usize) != base(to)) as usize;
        }
        let diagonal = mv.from.file() != mv.to.file();
        if piece == Some(Piece::Pawn) && diagonal && b.piece_on(mv.to).is_none() {
            self.en_passants += 1;
        }
        self.promotions += mv.promotion.is_some() as usize;
        self.captures += (b.piece_on(mv.to).is_some() && !own) as usize;
    }
}

/// Castling, en passant, a promotion or a king crossing the d/e line or
/// into another king bucket.
fn is_special(b: &Board, mv: Move) -> bool {
    let mut seen = Seen::default();
    seen.count(b, mv);
    let kings = seen.crossings + seen.bucket_changes;
    seen.short_castles + seen.long_castles + seen.en_passants + seen.promotions + kings > 0
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
        (FeatureSet::KingBuckets4, 256),
        (FeatureSet::KingBuckets4, 128),
    ]
    .into_iter()
    .enumerate()
    {
        let model = random_model_with(features, hidden, 1, 30 + i as u64);
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
            let mut stack = AccumulatorStack::new(net.clone());
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
                    let fresh = Accumulator::refresh(net, b);
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
            && seen.crossings >= 50
            && seen.bucket_changes >= 100,
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
        let mut stack = AccumulatorStack::new(net.clone());
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
            let mut stack = AccumulatorStack::new(net.clone());
            stack.reset(pos.board());
            for mv in pos.legal_moves() {
                seen.count(pos.board(), mv);
                stack.push(pos.board(), mv);
                pos.play(mv);
                for reply in pos.legal_moves() {
                    seen.count(pos.board(), reply);
                    stack.push(pos.board(), reply);
                    pos.play(reply);
                    let fresh = Accumulator::refresh(&net, pos.board());
                    assert_eq!(
                        stack.current(pos.board()),
                        fresh,
                        "{net:?}, {fen}: {mv} {reply}"
                    );
                    stack.pop();
                    pos.undo();
                }
                // Back at the first move: its accumulator still holds.
                let fresh = Accumulator::refresh(&net, pos.board());
                assert_eq!(stack.current(pos.board()), fresh, "{net:?}, {fen}: {mv}");
                stack.pop();
                pos.undo();
            }
        }
        assert!(
            seen.en_passants >= 2
                && seen.long_castles >= 2
                && seen.short_castles >= 2
                && seen.crossings >= 10
                && seen.bucket_changes >= 10,
            "{seen:?}"
        );
    }
}

/// A random float network of the embedded size whose evaluations span
/// hundreds of centipawns.
pub(crate) fn random_model(buckets: usize, seed: u64) -> Model {
    random_model_of(DEFAULT_HIDDEN, buckets, seed)
}

/// A random float network of `hidden` neurons whose evaluations span
/// hundreds of centipawns.
pub(crate) fn random_model_of(hidden: usize, buckets: usize, seed: u64) -> Model {
    let mut model = Model::random(hidden, buckets, &mut Rng(seed));
    let (b1, w2) = (model.b1_range(), model.w2_range());
    model.params[b1].iter_mut().for_each(|b| *b = 0.3);
    model.params[w2].iter_mut().for_each(|w| *w *= 25.0);
    model.clip();
    model
}

/// [`random_model_of`] with inputs of `features`; with king buckets, each
/// bucket's rows random too (as large as the factor rows), so that a wrong
/// bucket is a wrong evaluation.
pub(crate) fn random_model_with(
    features: FeatureSet,
    hidden: usize,
    buckets: usize,
    seed: u64,
) -> Model {
    let mut model = random_model_of(hidden, buckets, seed).with_features(features);
    let mut rng = Rng(seed ^ 0xB0C);
    let w1 = model.w1_range();
    if model.has_factor() {
        let scale = 1.0 / 768f32.sqrt();
        model.params[w1]
            .iter_mut()
            .for_each(|w| *w = scale * rng.symmetric());
    }
    model
}

/// The build's SIMD loops (or its scalar ones) evaluate real positions as
/// plain integer code written from the definition does, for several shapes.
#[test]
fn evaluations_equal_plain_integer_code() {
    evaluates_like_plain_code(&default_network());
    let bucketed = quantise(&random_model(8, 5)).expect("quantises");
    assert_eq!(bucketed.buckets(), 8);
    evaluates_like_plain_code(&bucketed);
    let mirrored = random_model_of(128, 2, 6).with_features(FeatureSet::Mirrored);
    evaluates_like_plain_code(&quantise(&mirrored).expect("quantises"));
    let kings = random_model_with(FeatureSet::KingBuckets4, 64, 1, 7);
    evaluates_like_plain_code(&quantise(&kings).expect("quantises"));
}

fn evaluates_like_plain_code(net: &Network) {
    let records = positions::load(&[sample_path()], &Filter::default())
        .expect("sample data")
        .0;
    for rec in &records {
        let s = cutoff_train::games::records::decode(rec).expect("record");
        let b = &s.board;
        let acc = Accumulator::refresh(net, b);
        let [white, black] = Color::ALL.map(|c| plain_accumulator(net, b, c));
        assert_eq!(acc.values(Color::White), &white[..]);
        assert_eq!(acc.values(Color::Black), &black[..]);
        let (us, them) = match b.side_to_move() {
            Color::White => (&white, &black),
            Color::Black => (&black, &white),
        };
        let pieces = b.occupied().len();
        assert_eq!(acc.evaluate(net, b), plain_output(net, us, them, pieces));
    }
}

/// `perspective`'s accumulator: the biases plus the row of every piece.
fn plain_accumulator(net: &Network, b: &Board, perspective: Color) -> Vec<i16> {
    let h = net.hidden();
    let view = net
        .features
        .view(perspective as usize, b.king(perspective) as usize);
    let mut acc = net.feature_bias.clone();
    for (color, piece, sq) in features::placed(b) {
        let row = features::index(perspective, view, color, piece, sq);
        for (a, w) in acc
            .iter_mut()
            .zip(&net.feature_weights[row * h..(row + 1) * h])
        {
            *a = a.wrapping_add(*w);
        }
    }
    acc
}

/// The output layer: SCReLU with `v * w` kept in 16 bits (training clips
/// the weights so that it fits), then the bucket's bias and the scaling.
fn plain_output(net: &Network, us: &[i16], them: &[i16], pieces: u32) -> i32 {
    let h = net.hidden();
    let bucket = output_bucket(pieces, net.buckets());
    let weights = &net.output_weights[2 * bucket * h..2 * (bucket + 1) * h];
    let mut sum = 0i32;
    for (&a, &w) in us.iter().chain(them).zip(weights) {
        let v = i32::from(a).clamp(0, QA);
        sum = sum.wrapping_add(i32::from((v * i32::from(w)) as i16) * v);
    }
    (sum / QA + i32::from(net.output_bias[bucket])) * SCALE / (QA * QB)
}

/// The exported integer network reproduces the float network within a few
/// centipawns (rounding of weights and the SCReLU products); with buckets,
/// the float network with its buckets shifted by one is far off, so the
/// engine picks the bucket the trainer trained; with mirrored inputs, the
/// float network given plain inputs is far off, and with king buckets, given
/// mirrored inputs (king bucket 0 for every position), so the engine reads
/// the inputs the trainer trained on.
#[test]
fn quantised_and_float_networks_agree() {
    float_and_quantised_agree(random_model(1, 3));
    float_and_quantised_agree(random_model(8, 3));
    float_and_quantised_agree(random_model_of(128, 1, 4).with_features(FeatureSet::Mirrored));
    float_and_quantised_agree(random_model_of(384, 4, 4).with_features(FeatureSet::Mirrored));
    float_and_quantised_agree(random_model_with(FeatureSet::KingBuckets4, 128, 1, 4));
    float_and_quantised_agree(random_model_with(FeatureSet::KingBuckets4, 64, 4, 5));
}

fn float_and_quantised_agree(model: Model) {
    let (buckets, features) = (model.buckets, model.features);
    let net = quantise(&model).expect("quantises");
    let mut shifted = model.clone();
    shifted.params[model.w2_range()].rotate_left(2 * model.hidden);
    shifted.params[model.b2_range()].rotate_left(1);
    let (mut worst, mut spread, mut total, mut off, mut n) = (0.0f32, 0.0f32, 0.0, 0.0, 0);
    // The inputs of the set before this one: plain for mirrored, mirrored
    // (king bucket 0 alone) for king buckets.
    let other = match features {
        FeatureSet::KingBuckets4 => FeatureSet::Mirrored,
        _ => FeatureSet::Plain,
    };
    let mut other_off = 0.0;
    let mut used = vec![false; buckets];
    for rec in positions::load(&[sample_path()], &Filter::default())
        .expect("sample data")
        .0
    {
        let sample = data::decode_as(&rec, false, features).expect("record");
        let board = cutoff_train::games::records::decode(&rec)
            .expect("record")
            .board;
        let misread = data::decode_as(&rec, false, other).expect("record");
        other_off += (model.evaluate(&misread) - nnue::evaluate_board(&net, &board) as f32).abs();
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
    let (mean, off, other_off) = (total / n as f32, off / n as f32, other_off / n as f32);
    eprintln!(
        "{} neurons, {buckets} buckets, {features} inputs, float vs quantised: mean {mean:.2} cp, \
         worst {worst:.1} cp, spread {spread:.0} cp; buckets shifted: mean {off:.1} cp; \
         {other} inputs: mean {other_off:.1} cp",
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
        assert!(
            other_off > 5.0 * mean,
            "{other} inputs: mean {other_off} cp"
        );
    }
}
