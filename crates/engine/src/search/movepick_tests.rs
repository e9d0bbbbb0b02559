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

/// Quiescence's quiet checks, in the order of the list its picker once
/// built: every legal move in the generator's order (the hash move left
/// out), noisy moves swapped to the front one by one, the checks of what
/// is left after them.
fn checks_of_the_full_list(pos: &Position, tt: Option<Move>) -> Vec<Move> {
    let mut list: Vec<(Move, bool)> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| Some(m) != tt)
        .map(|m| (m, pos.is_tactical(m)))
        .collect();
    let mut noisy_end = 0;
    for i in 0..list.len() {
        if list[i].1 {
            list.swap(i, noisy_end);
            noisy_end += 1;
        }
    }
    let board = pos.board();
    list[noisy_end..]
        .iter()
        .map(|e| e.0)
        .filter(|&m| crate::board::moves::gives_check(board, m))
        .collect()
}

#[test]
fn quiescence_hands_out_quiet_checks_in_the_full_lists_order() {
    let hist = Box::<Histories>::default();
    let (mut with_checks, mut reordered) = (0, 0);
    for pos in positions().iter().filter(|p| !p.in_check()) {
        // No hash move, then each capture as the hash move (a quiet one is
        // refused by the quiescence picker and so changes nothing).
        let legal = pos.legal_moves();
        let hashes = std::iter::once(None).chain(
            legal
                .iter()
                .filter(|&&m| pos.is_tactical(m))
                .map(|&m| Some(m)),
        );
        for tt in hashes {
            let picker = MovePicker::new_quiescence(tt, false, true, Vec::new());
            let got: Vec<Move> = drain(pos, picker, &hist)
                .into_iter()
                .filter(|&m| !pos.is_tactical(m))
                .collect();
            let want = checks_of_the_full_list(pos, tt);
            assert_eq!(got, want, "{} hash move {tt:?}", pos.board());
            with_checks += usize::from(!want.is_empty());
            let generated: Vec<Move> = legal.iter().copied().filter(|m| want.contains(m)).collect();
            reordered += usize::from(generated != want);
        }
    }
    // The suites have positions where the order is not the generator's.
    assert!(
        with_checks > 1000 && reordered > 50,
        "{with_checks} {reordered}"
    );
}
