//! Tests of `history`.

use super::*;

#[test]
fn pawn_history_learns_per_pawn_structure() {
    let mut h = Histories {
        pawn: vec![0; PAWN_SLOTS * PIECE_TO],
        ..Histories::default()
    };
    let start = Board::default();
    let e4: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        .parse()
        .unwrap();
    assert_ne!(pawn_slot(&start), pawn_slot(&e4), "two structures, one row");
    let pt = piece_to(Color::White, Piece::Knight, Square::F3);
    h.update_pawn(pawn_slot(&start), pt, 500);
    assert!(h.pawn[pawn_slot(&start) * PIECE_TO + pt] > 0);
    assert_eq!(h.pawn[pawn_slot(&e4) * PIECE_TO + pt], 0);
    // Off by default: not read, so the search is unchanged.
    assert_eq!(h.pawn_row(&start).is_some(), pawn_history_pct() != 0);
}

#[test]
fn gravity_saturates() {
    let mut h = 0i16;
    for _ in 0..1000 {
        gravity(&mut h, 1600);
    }
    let max = history_max();
    assert!(h as i32 <= max && h as i32 > max - 200);
    for _ in 0..1000 {
        gravity(&mut h, -1600);
    }
    assert!(h as i32 >= -max && (h as i32) < -max + 200);
}

#[test]
fn a_move_out_of_an_attack_learns_apart_from_the_same_move_unattacked() {
    let mut h = Histories::default();
    let mv: Move = "e2e4".parse().unwrap();
    let pt = piece_to(Color::White, Piece::Pawn, Square::E4);
    let from_attacked = BitBoard::from(Square::E2);
    h.update_quiet((Color::White, from_attacked), mv, pt, [None; 2], 500);
    assert!(h.butterfly(Color::White, mv, from_attacked) > 0);
    assert_eq!(h.butterfly(Color::White, mv, BitBoard::EMPTY), 0);
    // Attacks elsewhere do not matter.
    let elsewhere = from_attacked | BitBoard::from(Square::A8);
    assert!(h.butterfly(Color::White, mv, elsewhere) > 0);
    assert_eq!(h.butterfly(Color::Black, mv, from_attacked), 0);
}
