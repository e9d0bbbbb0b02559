//! The evaluation must not care which colour is which: a position and its
//! colour-flipped mirror get the same score for the side to move (so the
//! White's-view scores are negatives of each other). Also checks that the
//! linear trace (tuner, `eval` command) reproduces the fast evaluation.

use cutoff_engine::board::{Board, Position, STARTPOS};
use cutoff_engine::eval::Evaluator;
use cutoff_engine::eval::hand::{self, LinearTrace, weights::WEIGHTS};
use cutoff_engine::eval::nnue::{self, default_network};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Positions from seeded random playouts: varied openings, middlegames and
/// endgames (random games shed material quickly).
fn positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::from_fen(STARTPOS, false).expect("start position");
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || out.len() == count {
                break;
            }
            let mv = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play(mv);
            out.push(pos.board().clone());
        }
    }
    out
}

/// Colour flip: ranks reversed, colours and side to move swapped.
fn mirror(board: &Board) -> Board {
    let fen = format!("{board}");
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let (mut upper, lower): (Vec<char>, Vec<char>) =
            s.chars().partition(|c| c.is_ascii_uppercase());
        upper.extend(lower);
        upper.into_iter().collect()
    };
    let ep = match f[3] {
        "-" => "-".to_string(),
        sq => {
            let rank = if &sq[1..] == "3" { "6" } else { "3" };
            format!("{}{rank}", &sq[..1])
        }
    };
    let text = format!(
        "{} {side} {castling} {ep} {} {}",
        placement.join("/"),
        f[4],
        f[5]
    );
    cutoff_engine::board::fen::parse_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn mirrored_positions_evaluate_the_same() {
    let boards = positions(6000, 0x5EED_0001);
    let mut evaluator = Evaluator::hand_crafted();
    let mut nonzero = 0;
    for board in &boards {
        let m = mirror(board);
        let a = evaluator.evaluate(board);
        let b = evaluator.evaluate(&m);
        assert_eq!(a, b, "side-to-move scores differ: {board} vs {m}");
        let white = |b: &Board, s: i32| {
            if b.side_to_move() == cutoff_engine::board::Color::White {
                s
            } else {
                -s
            }
        };
        assert_eq!(white(board, a), -white(&m, b));
        nonzero += (a != 0) as usize;
    }
    assert!(
        nonzero > boards.len() / 2,
        "the evaluation should see something"
    );
}

/// The network sees each side's position from that side: a position and
/// its colour-flipped mirror give it the same two accumulators, swapped, so
/// the same score for the side to move.
#[test]
fn the_network_evaluates_mirrored_positions_the_same() {
    let net = default_network();
    let mut distinct = std::collections::HashSet::new();
    for board in positions(6000, 0x5EED_0004) {
        let m = mirror(&board);
        let a = nnue::evaluate_board(&net, &board);
        assert_eq!(a, nnue::evaluate_board(&net, &m), "{board} vs {m}");
        distinct.insert(a);
    }
    assert!(distinct.len() > 500, "the network should see something");
}

#[test]
fn trace_reproduces_the_fast_evaluation() {
    let boards = positions(2000, 0x5EED_0002);
    let mut evaluator = Evaluator::hand_crafted();
    for board in &boards {
        let fast = evaluator.evaluate(board);
        let white = if board.side_to_move() == cutoff_engine::board::Color::White {
            fast
        } else {
            -fast
        };
        assert_eq!(
            LinearTrace::new(board).white_score(&WEIGHTS),
            white,
            "{board}"
        );
        assert_eq!(hand::evaluate(board), fast);
    }
}

#[test]
fn eval_command_ends_with_the_white_side_score() {
    for board in positions(50, 0x5EED_0003) {
        let text = hand::trace(&board);
        let last = text.lines().last().expect("trace has lines");
        let cp: i32 = last
            .strip_prefix("Hand-crafted evaluation: ")
            .and_then(|s| s.strip_suffix(" cp (white side)"))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad last line: {last}"));
        let stm = hand::evaluate(&board);
        let white = if board.side_to_move() == cutoff_engine::board::Color::White {
            stm
        } else {
            -stm
        };
        assert_eq!(cp, white);
        assert!(text.contains("King safety") && text.contains("Passed pawns"));
    }
}
