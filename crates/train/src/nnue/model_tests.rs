use super::super::data::{Rng, decode_as};
use super::*;
use crate::games::records::encode;
use cutoff_engine::board::Board;

const KINGS4: FeatureSet = FeatureSet::KingBuckets4;

/// Three positions as inputs of `features`: the start position (kings on
/// e1 and e8: king bucket 1 after the mirror), a middle game with Black to
/// move (the same kings) and an ending with the kings on a5 and h4 (bucket
/// 3 for both).
fn samples_as(features: FeatureSet) -> Vec<Sample> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]
    .iter()
    .zip([35i16, -120, 400])
    .map(|(fen, score)| {
        let board: Board = fen.parse().expect("test FEN");
        decode_as(&encode(&board, score, 2), false, features).expect("decodes")
    })
    .collect()
}

fn samples() -> Vec<Sample> {
    samples_as(FeatureSet::Plain)
}

/// The analytic gradient matches finite differences of the loss, with
/// one output bucket and with three (the samples have 32, 32 and 10
/// pieces: buckets 2, 2 and 0; bucket 1 gets no gradient), and with king
/// buckets and their factor block.
#[test]
fn gradient_matches_finite_differences() {
    gradient_check(1, &[0], FeatureSet::Plain);
    gradient_check(3, &[0, 2], FeatureSet::Plain);
    gradient_check(3, &[0, 2], KINGS4);
}

/// The blocked first layer sums each neuron as a plain loop does (the bias,
/// then the rows in feature order), bit for bit, for sizes with and without
/// a part past the last whole block: a network's bytes do not depend on it.
#[test]
fn blocked_accumulation_is_the_plain_sum() {
    for hidden in [BLOCK, BLOCK + 8, 3 * BLOCK, 4] {
        let model = Model::random(hidden, 1, &mut Rng(9 + hidden as u64));
        let prepared = model.prepare();
        for s in samples() {
            let plain_acc = |side: usize| {
                let mut acc = model.params[model.b1_range()].to_vec();
                for &f in &s.features[side][..s.count] {
                    let row = &model.params[f as usize * hidden..(f as usize + 1) * hidden];
                    acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
                }
                acc
            };
            let mut accs = [vec![0.0; hidden], vec![0.0; hidden]];
            prepared.forward(&s, &mut accs);
            for (side, acc) in accs.iter().enumerate() {
                let expected: Vec<u32> = plain_acc(side).iter().map(|a| a.to_bits()).collect();
                let got: Vec<u32> = acc.iter().map(|a| a.to_bits()).collect();
                assert_eq!(got, expected, "hidden {hidden}, side {side}");
            }
        }
    }
}

/// A one-bucket network split into eight evaluates every sample as
/// before (the samples fall into different buckets), with and without king
/// buckets.
#[test]
fn split_output_keeps_every_evaluation() {
    for features in [FeatureSet::Plain, KINGS4] {
        let mut one = Model::random(8, 1, &mut Rng(3)).with_features(features);
        let b2 = one.b2_range();
        one.params[b2].iter_mut().for_each(|b| *b = 0.25);
        let eight = one.split_output(8);
        assert_eq!(eight.params.len(), Model::len(8, 8, features));
        assert_eq!(
            eight.params[eight.factor_range()],
            one.params[one.factor_range()]
        );
        let buckets: Vec<usize> = samples().iter().map(|s| eight.bucket(s)).collect();
        assert_ne!(buckets[0], buckets[2]);
        for s in samples_as(features) {
            assert_eq!(one.evaluate(&s), eight.evaluate(&s));
        }
    }
}

/// A network widened from 8 to 12 neurons evaluates every sample as
/// before; with king buckets, the new neurons' input weights are in the
/// factor rows and the bucket rows stay zero.
#[test]
fn widen_keeps_every_evaluation() {
    for features in [FeatureSet::Plain, KINGS4] {
        let narrow = Model::random(8, 3, &mut Rng(4)).with_features(features);
        let wide = narrow.widen(12, &mut Rng(5));
        assert_eq!(wide.params.len(), Model::len(12, 3, features));
        for s in samples_as(features) {
            let (a, b) = (narrow.evaluate(&s), wide.evaluate(&s));
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        let rows = wide.rows();
        assert_ne!(rows[8..12], [0.0; 4]);
        if features == KINGS4 {
            assert!(wide.params[wide.w1_range()].iter().all(|&w| w == 0.0));
            assert_ne!(wide.params[wide.factor_range()][8..12], [0.0; 4]);
        }
    }
}

/// To king buckets: the rows become the factor block and the bucket rows
/// start at zero, so a mirrored model evaluates every position exactly as
/// before, and a plain one as it does read mirrored. Other ways are refused.
#[test]
fn king_buckets_start_from_the_mirrored_model() {
    let plain = Model::random(8, 2, &mut Rng(6));
    let mirrored = plain.clone().with_features(FeatureSet::Mirrored);
    for kings in [
        plain.clone().with_features(KINGS4),
        mirrored.clone().with_features(KINGS4),
    ] {
        assert_eq!(kings.params.len(), Model::len(8, 2, KINGS4));
        assert_eq!(
            kings.params[kings.factor_range()],
            plain.params[plain.w1_range()]
        );
        assert!(kings.params[kings.w1_range()].iter().all(|&w| w == 0.0));
        let pairs = samples_as(FeatureSet::Mirrored)
            .into_iter()
            .zip(samples_as(KINGS4));
        for (m, k) in pairs {
            assert_eq!(mirrored.evaluate(&m), kings.evaluate(&k));
        }
    }
    assert!(converts(FeatureSet::Mirrored, KINGS4));
    assert!(!converts(KINGS4, FeatureSet::Mirrored));
    assert!(!converts(FeatureSet::Mirrored, FeatureSet::Plain));
    let back = std::panic::catch_unwind(|| mirrored.with_features(FeatureSet::Plain));
    assert!(back.is_err());
}

/// The forward pass reads bucket row + factor row, clipped as the export
/// clips the sum.
#[test]
fn rows_are_the_clipped_sums() {
    let mut m = Model::random(4, 1, &mut Rng(8)).with_features(KINGS4);
    let (w1, factor) = (m.w1_range(), m.factor_range());
    m.params[w1.start] = 1.5;
    m.params[factor.start] = 1.0;
    m.params[w1.start + 768 * 4] = -0.25;
    let rows = m.rows();
    assert_eq!(rows.len(), 4 * 768 * 4);
    assert_eq!(rows[0], CLIP);
    assert_eq!(rows[768 * 4], 0.75);
    assert_eq!(rows[2 * 768 * 4], 1.0);
}

fn gradient_check(buckets: usize, used: &[usize], features: FeatureSet) {
    let hidden = 4;
    let mut model = Model::random(hidden, buckets, &mut Rng(7)).with_features(features);
    // Biases away from zero so some neurons sit inside (0, 1).
    let b1 = model.b1_range();
    model.params[b1]
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = 0.2 + 0.15 * i as f32);
    // Bucket rows of their own, beside the factor rows.
    let mut rng = Rng(11);
    let w1 = model.w1_range();
    if model.has_factor() {
        model.params[w1]
            .iter_mut()
            .for_each(|w| *w = 0.02 * rng.symmetric());
    }
    let data = samples_as(features);
    let mut scratch = Scratch::new(hidden);
    let total = |m: &Model, scratch: &mut Scratch| -> f64 {
        let p = m.prepare();
        data.iter()
            .map(|s| p.loss(s, 0.5, scratch, None) as f64)
            .sum()
    };
    let mut grad = vec![0.0; model.params.len()];
    let prepared = model.prepare();
    for s in &data {
        prepared.loss(s, 0.5, &mut scratch, Some(&mut grad));
    }
    model.gather_factor(&mut grad);
    let mut checked = if model.has_factor() {
        // Input 12 (own pawn on e2 after the mirror): on in king bucket 1
        // (the first two samples, the pawn on d2 mirrored) and in bucket 3
        // (the ending's e2 pawn); its factor row gathers both.
        let factor_row = model.factor_range().start + 12 * hidden;
        vec![
            (768 + 12) * hidden,
            (3 * 768 + 12) * hidden + 1,
            factor_row,
            factor_row + 1,
        ]
    } else {
        let w1_of_a2_pawn = 8 * hidden; // input 8: own pawn on a2
        vec![w1_of_a2_pawn, w1_of_a2_pawn + 1]
    };
    checked.push(model.b1_range().start + 2);
    for &b in used {
        let w2 = model.w2_bucket(b).start;
        checked.extend([w2 + 1, w2 + hidden + 3, model.b2_index(b)]);
    }
    let eps = 1e-3f32;
    for &i in &checked {
        let mut plus = model.clone();
        plus.params[i] += eps;
        let mut minus = model.clone();
        minus.params[i] -= eps;
        let numeric =
            (total(&plus, &mut scratch) - total(&minus, &mut scratch)) / (2.0 * eps as f64);
        let analytic = grad[i] as f64;
        assert!(
            (numeric - analytic).abs() <= 1e-3 + 0.02 * analytic.abs(),
            "{features}: parameter {i}: numeric {numeric}, analytic {analytic}"
        );
        assert!(analytic.abs() > 1e-6, "parameter {i} has a gradient");
    }
    if model.has_factor() {
        // Bucket 0 (a king on a1 or b1) is in no sample: no gradient.
        let bucket0 = &grad[..768 * hidden];
        assert!(bucket0.iter().all(|&g| g == 0.0), "king bucket 0 untouched");
        let f = model.factor_range().start + 12 * hidden;
        let sum = grad[(768 + 12) * hidden] + grad[(3 * 768 + 12) * hidden];
        assert_eq!(grad[f], sum, "the factor row gathers its bucket rows");
    }
    for b in (0..buckets).filter(|b| !used.contains(b)) {
        let w2 = model.w2_bucket(b);
        assert!(grad[w2].iter().all(|&g| g == 0.0), "bucket {b} untouched");
        assert_eq!(grad[model.b2_index(b)], 0.0);
    }
}
