//! Tests of `correction`.

use super::*;

#[test]
fn learns_towards_the_search_result_and_stays_bounded() {
    let board = Board::default();
    let mut c = CorrectionHistory::default();
    assert_eq!(c.correct(&board, 10), 10);
    for _ in 0..50 {
        c.update(&board, 10, 10, 40);
    }
    let learned = c.correct(&board, 10);
    assert!(learned > 30 && learned <= 40, "{learned}");
    for _ in 0..500 {
        c.update(&board, 20, 0, 5000);
    }
    // Integer averaging settles just under the bound, never above it.
    let saturated = c.correct(&board, 0);
    assert!(
        (correction_max_cp() - 1..=correction_max_cp()).contains(&saturated),
        "{saturated}"
    );
    for _ in 0..500 {
        c.update(&board, 20, 0, -5000);
    }
    let saturated = c.correct(&board, 0);
    assert!(
        (-correction_max_cp()..=-correction_max_cp() + 1).contains(&saturated),
        "{saturated}"
    );
    // The other side to move has its own entry.
    let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(c.correct(&black, 0), 0);
}

#[test]
fn nonpawn_entries_separate_piece_placements_and_sides() {
    let a: Board = "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1".parse().unwrap();
    let b: Board = "4k3/8/8/8/8/8/4P3/1R2K3 w - - 0 1".parse().unwrap();
    let a_black: Board = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1".parse().unwrap();
    assert_ne!(
        nonpawn_index(&a, Color::White),
        nonpawn_index(&b, Color::White)
    );
    assert_eq!(
        nonpawn_index(&a, Color::Black),
        nonpawn_index(&b, Color::Black)
    );
    assert_ne!(
        nonpawn_index(&a, Color::White),
        nonpawn_index(&a_black, Color::White)
    );
    // Same pawns: one pawn-structure entry for both.
    assert_eq!(index(&a), index(&b));
}
