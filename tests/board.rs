//! What `Position` adds to cozy-chess: undo, null moves, repetitions, the
//! fifty-move rule, insufficient material, move classification, and FEN
//! round trips in all three castling notations.

use cutoff_engine::board::{Piece, Position, STARTPOS, moves};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, line: &str) {
    for mv in line.split_whitespace() {
        p.play_uci(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn undo_restores_board_key_and_fen() {
    let mut p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let (fen, key) = (p.fen(), p.key());
    play(&mut p, "e1c1 h3g2 d5e6 g2h1q");
    assert_eq!(p.ply(), 4);
    for _ in 0..4 {
        p.undo();
    }
    assert_eq!((p.fen(), p.key(), p.ply()), (fen, key, 0));
    p.undo(); // nothing left to undo: no effect, no panic
    assert_eq!(p.ply(), 0);
}

#[test]
fn the_kept_key_is_the_key_of_the_board_through_moves_nulls_and_undos() {
    // A fixed pseudo-random walk: each step plays a legal move, a null move
    // or takes one back; the key the position keeps must be that of its
    // board read afresh from its FEN.
    let mut p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut draw = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    for step in 0..3000 {
        let moves = p.legal_moves();
        match draw(10) {
            _ if p.ply() > 60 => p.undo(),
            0 | 1 => p.undo(),
            2 => {
                p.play_null();
            }
            _ if moves.is_empty() => p.undo(),
            _ => p.play(moves[draw(moves.len())]),
        }
        let fresh = pos(&p.fen());
        assert_eq!(p.key(), fresh.key(), "step {step}: {}", p.fen());
    }
}

#[test]
fn null_move_passes_the_turn_but_not_in_check() {
    let mut p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let key = p.key();
    assert!(p.play_null());
    assert_ne!(p.key(), key);
    assert!(
        p.fen()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - ")
    );
    p.undo();
    assert_eq!(p.key(), key);

    let mut checked = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(checked.in_check());
    assert!(!checked.play_null());
    assert_eq!(checked.ply(), 0);
}

#[test]
fn repetition_needs_three_occurrences_before_the_root() {
    let mut p = Position::from_fen(STARTPOS, false).expect("startpos");
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    // Second occurrence: a draw only if it happened inside the search.
    assert!(!p.is_repetition(0));
    assert!(p.is_repetition(5));
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    assert!(p.is_repetition(0), "threefold repetition");
    // After pawn moves the count starts again: a second occurrence only.
    play(&mut p, "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
    assert!(!p.is_repetition(0));
}

#[test]
fn a_double_push_that_cannot_be_taken_en_passant_repeats_like_any_move() {
    // After 1. e4 e5 the en passant file is set, but no pawn can take on e6:
    // the knights' shuffles return to the same position twice more.
    let mut p = Position::from_fen(STARTPOS, false).expect("startpos");
    play(&mut p, "e2e4 e7e5");
    let key = p.key();
    play(&mut p, "g1f3 b8c6 f3g1 c6b8");
    assert_eq!(p.key(), key);
    assert!(!p.is_repetition(0));
    play(&mut p, "g1f3 b8c6 f3g1 c6b8");
    assert!(
        p.is_repetition(0),
        "third occurrence, the first after a double push"
    );
}

#[test]
fn en_passant_counts_in_the_key_only_where_it_can_be_played() {
    // White's b5 pawn could take c6 en passant: the file is part of the key.
    let mut p = pos("7k/2p5/8/1P6/8/8/8/K7 b - - 0 1");
    play(&mut p, "c7c5");
    let without = pos("7k/8/8/1Pp5/8/8/8/K7 w - - 0 2");
    assert_ne!(p.key(), without.key());
    // The same capture would leave White's king to the rook on the fifth
    // rank: not legal, so the position is the one without en passant.
    let mut pinned = pos("7k/2p5/8/KP5r/8/8/8/8 b - - 0 1");
    play(&mut pinned, "c7c5");
    assert_eq!(pinned.key(), pos("7k/8/8/KPp4r/8/8/8/8 w - - 0 2").key());
}

#[test]
fn position_keeps_the_game_history_for_repetitions() {
    // As after `position startpos moves ...`: the undo stack is forgotten but
    // the keys of the game stay.
    let mut p = Position::from_fen(STARTPOS, false).expect("startpos");
    play(&mut p, "b1c3 b8c6 c3b1 c6b8 b1c3 b8c6 c3b1 c6b8");
    p.forget_undo();
    assert_eq!(p.ply(), 0);
    assert!(p.is_repetition(0));
}

#[test]
fn fifty_move_rule_but_mate_first() {
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(!p.is_fifty_move_draw());
    play(&mut p, "a1a2");
    assert_eq!(p.halfmove_clock(), 100);
    assert!(p.is_fifty_move_draw());
    // The hundredth half-move gives mate: the mate stands.
    let mut m = pos("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    play(&mut m, "h1h8");
    assert!(!m.has_legal_move() && m.in_check());
    assert!(!m.is_fifty_move_draw());
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true),
        // bishops on squares of one colour (f1 and c8 are both light)
        ("2b5/8/8/4k3/8/8/8/4KB2 w - - 0 1", true),
        // bishops on both colours, two knights, a pawn, a rook: mate is possible
        ("1b6/8/8/4k3/8/8/8/4KB2 w - - 0 1", false),
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", false),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false),
    ] {
        assert_eq!(pos(fen).is_insufficient_material(), dead, "{fen}");
    }
}

#[test]
fn move_classification() {
    let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    let mv = |text: &str| moves::parse_uci(p.board(), text, false).expect(text);
    assert_eq!(p.captured(mv("e5d6")), Some(Piece::Pawn), "en passant");
    assert_eq!(p.captured(mv("b7a8q")), Some(Piece::Rook));
    assert!(p.is_noisy(mv("b7b8n")), "a quiet promotion is noisy");
    assert!(!p.is_capture(mv("b7b8n")));
    assert!(!p.is_capture(mv("e1g1")), "castling takes no piece");
    assert!(!p.is_noisy(mv("a1a7")));
    assert!(moves::gives_check(p.board(), mv("a1a8")));
    assert!(moves::gives_check(p.board(), mv("b7b8q")));
    assert!(!moves::gives_check(p.board(), mv("e5e6")));
}

#[test]
fn fen_round_trips_in_every_castling_notation() {
    for fen in [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "8/8/8/8/8/8/8/K6k b - - 37 102",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    // Chess960: Shredder-FEN (rook files) and X-FEN (KQkq) read the same.
    let shredder = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true);
    let xfen = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", true);
    let (s, x) = (shredder.expect("shredder"), xfen.expect("x-fen"));
    assert_eq!(s.key(), x.key());
    assert_eq!(s.fen(), "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    // An inner rook must be named by its file in X-FEN.
    let inner = Position::from_fen("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", true).expect("inner");
    assert_eq!(inner.fen(), "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1");
    // Without Chess960, such castling rights are refused.
    assert!(Position::from_fen("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", false).is_err());
}
