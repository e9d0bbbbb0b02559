//! The stack's lazy, incremental accumulators equal a refresh from the board
//! after random moves, take-backs and null moves, for every feature set (in
//! a debug build `Fixed::evaluate` checks the same at every evaluation).
//! Networks of random integers, made here without the trainer.

use super::*;
use crate::board::{Piece, Position};
use crate::rng::SplitMix;

/// A network of `hidden` neurons with random weights small enough that no
/// sum overflows.
fn random_network(features: FeatureSet, hidden: usize, seed: u64) -> Network {
    let mut rng = SplitMix(seed);
    let mut values = |n: usize, bound: u64| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.next_u64() % (2 * bound + 1)) as i16 - bound as i16)
            .collect()
    };
    Network {
        features,
        feature_weights: values(features.inputs() * hidden, 60),
        feature_bias: values(hidden, 60),
        output_weights: values(2 * hidden, 60),
        output_bias: values(1, 1000),
    }
}

/// Castling both ways, and endings where the kings walk between buckets.
const FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r1k3/3pp3/8/8/8/8/3PP3/4K1R1 w - - 0 1",
];

#[test]
fn random_walks_match_a_refresh_for_every_feature_set() {
    let mut refreshed = Vec::new();
    for (i, features) in FeatureSet::ALL.into_iter().enumerate() {
        let net = Arc::new(random_network(features, 32, 7 + i as u64));
        let mut rng = SplitMix(99);
        let (mut king_moves, mut refreshes, mut checked) = (0, 0, 0);
        for fen in FENS {
            for _ in 0..6 {
                let mut pos = Position::from_fen(fen, false).expect("test FEN");
                let mut stack = AccumulatorStack::new(net.clone());
                stack.reset(pos.board());
                for _ in 0..120 {
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
                        // King moves twice as often as their share.
                        let b = pos.board();
                        let kings: Vec<Move> = moves
                            .iter()
                            .copied()
                            .filter(|m| b.piece_on(m.from) == Some(Piece::King))
                            .collect();
                        let pick = if !kings.is_empty() && rng.next_u64().is_multiple_of(2) {
                            &kings
                        } else {
                            &moves
                        };
                        let mv = pick[(rng.next_u64() % pick.len() as u64) as usize];
                        stack.push(b, mv);
                        let top = &stack.plies[stack.top];
                        king_moves += usize::from(Change::of_move(b, mv).king_to().is_some());
                        refreshes += usize::from(top.refresh.contains(&true));
                        pos.play(mv);
                    }
                    if rng.next_u64().is_multiple_of(2) {
                        let b = pos.board();
                        let fresh = Accumulator::refresh(&net, b);
                        assert_eq!(stack.current(b), fresh, "{features}: {fen}");
                        let eval = fresh.evaluate(&net, b);
                        assert_eq!(stack.evaluate(b), eval);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{features}: {checked} positions");
        assert!(king_moves > 200, "{features}: {king_moves} king moves");
        refreshed.push(refreshes);
    }
    // Plain never refreshes; the kings change bucket more often than they
    // cross the d/e line.
    assert!(
        refreshed[0] == 0 && refreshed[1] > 50 && refreshed[2] > refreshed[1],
        "refreshes: {refreshed:?}"
    );
}

/// The refresh cache gives what a refresh from the board gives, for every
/// view of both perspectives, along random games whose kings come back to
/// views last computed many moves before (and from an empty cache).
#[test]
fn the_refresh_cache_equals_a_refresh() {
    for (i, features) in [FeatureSet::Mirrored, FeatureSet::KingBuckets4]
        .into_iter()
        .enumerate()
    {
        let net = random_network(features, 64, 21 + i as u64);
        let mut cache = RefreshCache::<64>::new(&net);
        let mut rng = SplitMix(5);
        let mut cached = 0;
        for fen in FENS {
            let mut pos = Position::from_fen(fen, false).expect("test FEN");
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                let b = pos.board();
                for color in Color::ALL {
                    let mut fresh = Acc::<64>::ZERO;
                    fresh.refresh(color, &net, b);
                    let mut got = [0; 64];
                    cache.refresh(&mut got, color, &net, b);
                    assert_eq!(got, fresh.vals[color as usize], "{features}: {b}");
                    cached += 1;
                }
            }
        }
        assert!(cached > 500, "{cached}");
    }
    let plain = random_network(FeatureSet::Plain, 32, 3);
    assert!(RefreshCache::<32>::new(&plain).is_empty());
}
