//! The move picker hands out every legal move exactly once, the hash move
//! first, whatever hash move, killers and countermove it is given (legal,
//! illegal, duplicated), on every position of the perft suites and their
//! children.

use super::{MovePicker, OrderContext};
use crate::board::perft_suite::parse_suite;
use crate::board::{Move, Position, Square};
use crate::search::history::Histories;

const SUITES: [&str; 9] = [
    include_str!("../../../../tests/data/perft/standard.epd"),
    include_str!("../../../../tests/data/perft/standard6.epd"),
    include_str!("../../../../tests/data/perft/tricky.epd"),
    include_str!("../../../../tests/data/perft/special_cases.epd"),
    include_str!("../../../../tests/data/perft/random_sample.epd"),
    include_str!("../../../../tests/data/perft/ferdy_sample.epd"),
    include_str!("../../../../tests/data/perft/chess960_tricky.epd"),
    include_str!("../../../../tests/data/perft/chess960_xfen.epd"),
    include_str!("../../../../tests/data/perft/chess960_shredder.epd"),
];

/// Every suite position the board accepts, and every position one move later.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for suite in SUITES {
        for case in parse_suite(suite).expect("suites parse") {
            let parsed = Position::from_fen(&case.fen, false)
                .or_else(|_| Position::from_fen(&case.fen, true));
            let Ok(pos) = parsed else { continue };
            for mv in pos.legal_moves() {
                let mut child = pos.clone();
                child.play(mv);
                out.push(child);
            }
            out.push(pos);
        }
    }
    out
}

fn drain(pos: &Position, mut picker: MovePicker, hist: &Histories) -> Vec<Move> {
    let ctx = OrderContext::standalone(pos, hist);
    let mut got = Vec::new();
    while let Some(mv) = picker.next(pos, &ctx) {
        got.push(mv);
        assert!(got.len() <= 256, "the picker does not stop");
    }
    got
}

fn assert_each_legal_move_once(pos: &Position, got: &[Move], what: &str) {
    let legal = pos.legal_moves();
    let fen = pos.board().to_string();
    for (i, mv) in got.iter().enumerate() {
        assert!(legal.contains(mv), "{fen} {what}: illegal {mv}");
        assert!(!got[..i].contains(mv), "{fen} {what}: {mv} twice");
    }
    assert_eq!(got.len(), legal.len(), "{fen} {what}: moves missing");
}

/// Moves no position can play, and moves that are legal only elsewhere.
fn illegal_moves(pos: &Position, elsewhere: &[Move]) -> Vec<Move> {
    let legal = pos.legal_moves();
    let junk = Move {
        from: Square::A1,
        to: Square::A1,
        promotion: None,
    };
    let mut out = vec![junk];
    out.extend(elsewhere.iter().filter(|m| !legal.contains(m)).take(3));
    out
}

#[test]
fn picker_returns_every_legal_move_once_and_the_hash_move_first() {
    let hist = Box::<Histories>::default();
    let mut previous: Vec<Move> = Vec::new();
    let all = positions();
    assert!(all.len() > 5000, "{} positions", all.len());
    for (n, pos) in all.iter().enumerate() {
        let legal = pos.legal_moves();
        let illegal = illegal_moves(pos, &previous);
        let picker = MovePicker::new(None, [None; 3], Vec::new());
        assert_each_legal_move_once(pos, &drain(pos, picker, &hist), "no hints");

        // Hash moves: a sample of the legal ones (all of them every 16th
        // position), each with the other legal moves as refutations.
        let step = if n % 16 == 0 { 1 } else { 7 };
        for (i, &tt) in legal.iter().enumerate().step_by(step) {
            let other = |k: usize| legal.get((i + k) % legal.len().max(1)).copied();
            let refutations = [other(1), other(2), Some(tt)];
            let picker = MovePicker::new(Some(tt), refutations, Vec::new());
            let got = drain(pos, picker, &hist);
            assert_eq!(got.first(), Some(&tt), "hash move first");
            assert_each_legal_move_once(pos, &got, "legal hash move");
            let same = [other(1), other(1), other(1)];
            let got = drain(pos, MovePicker::new(Some(tt), same, Vec::new()), &hist);
            assert_each_legal_move_once(pos, &got, "repeated refutation");
        }
        // Illegal hash moves and refutations are never handed out.
        for &bad in &illegal {
            let refutations = [Some(bad), legal.first().copied(), Some(bad)];
            let picker = MovePicker::new(Some(bad), refutations, Vec::new());
            assert_each_legal_move_once(pos, &drain(pos, picker, &hist), "illegal hints");
        }
        // In check, quiescence searches every evasion.
        if pos.in_check() {
            let tt = illegal.last().copied();
            let picker = MovePicker::new_quiescence(tt, true, true, Vec::new());
            assert_each_legal_move_once(pos, &drain(pos, picker, &hist), "evasions");
        }
        previous = legal;
    }
}
