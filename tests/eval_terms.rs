//! Endgame knowledge and a few terms, checked by comparing positions that
//! differ only in the feature under test.

use cutoff_engine::board::{Color, fen::parse_fen};
use cutoff_engine::eval::hand::evaluate;

/// White's-view evaluation of a FEN.
fn white(fen: &str) -> i32 {
    let board = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let s = evaluate(&board);
    if board.side_to_move() == Color::White {
        s
    } else {
        -s
    }
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1",
        "8/8/2b1k3/8/8/8/8/4K3 b - - 0 1",
        "8/8/4k3/8/8/2N5/3N4/4K3 w - - 0 1",
    ] {
        assert_eq!(white(fen), 0, "{fen}");
    }
    // ...but a rook is enough to win.
    assert!(white("8/8/4k3/8/8/2R5/8/4K3 w - - 0 1") > 300);
}

#[test]
fn kbnk_drives_the_king_to_the_bishops_corner() {
    // Light-squared bishop (e2): a8 and h1 are the mating corners.
    let right = white("k7/8/8/4K3/8/2N5/4B3/8 w - - 0 1");
    let wrong = white("7k/8/8/4K3/8/2N5/4B3/8 w - - 0 1");
    assert!(right > wrong, "{right} <= {wrong}");
}

#[test]
fn advanced_passed_pawns_are_worth_more() {
    let far = white("k7/8/8/4P3/8/8/8/4K3 w - - 0 1");
    let near = white("k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
    assert!(near > far, "{near} <= {far}");
}

#[test]
fn opposite_coloured_bishops_are_drawish() {
    // Two extra pawns each time; the bishops differ only in square colour.
    let opposite = white("4k3/8/4b3/8/2PP4/8/3B4/4K3 w - - 0 1");
    let same = white("4k3/8/3b4/8/2PP4/8/3B4/4K3 w - - 0 1");
    assert!(
        opposite > 0 && opposite < same * 3 / 4,
        "{opposite} vs {same}"
    );
}

#[test]
fn a_rook_up_without_pawns_against_a_minor_is_scaled_down() {
    let rook_v_bishop = white("4k3/8/3b4/8/8/8/3R4/4K3 w - - 0 1");
    let rook_v_nothing = white("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1");
    assert!(rook_v_bishop < 100, "{rook_v_bishop}");
    assert!(rook_v_nothing > 400, "{rook_v_nothing}");
}
