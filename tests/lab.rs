//! The search laboratory against the textbooks' claims and the published numbers.

use cutoff_engine::board::{Position, STARTPOS, perft::perft};
use cutoff_lab::alphabeta::{self, Cutoff};
use cutoff_lab::chess::{ChessGame, ChessOptions, MATE, MoveOrder};
use cutoff_lab::explicit::ExplicitTree;
use cutoff_lab::game::Game;
use cutoff_lab::ordered::{Policy, Searcher};
use cutoff_lab::rng::XorShift;
use cutoff_lab::tictactoe::TicTacToe;
use cutoff_lab::{PUBLISHED_FEN, minimax, scores};

/// Value and number of leaves alpha-beta never evaluated.
fn solve(text: &str) -> (i32, u64) {
    let mut t = ExplicitTree::parse(text).unwrap();
    let depth = t.height();
    let total = t.leaf_count();
    let ab = alphabeta::search(&mut t, depth, Cutoff::Textbook);
    let mm = minimax::search(&mut t, depth);
    assert_eq!(ab.value, mm.value, "{text}");
    assert_eq!(mm.stats.leaves, total, "minimax evaluates every leaf");
    (ab.value, total - ab.stats.leaves)
}

#[test]
fn chapter_example_max_of_mins() {
    // "Optimizing Minimax Search": value 3, the leaf 1 is pruned.
    assert_eq!(solve("max(min(3,5),min(2,1))"), (3, 1));
}

#[test]
fn rival_negamax_example() {
    // Rival's figure: once d answers -4 (for a), c cannot beat b's 3; e is never searched.
    assert_eq!(solve("max(b:3, c:min(d:-4, e:7))"), (3, 1));
}

#[test]
fn chapter_worked_example_a_to_j() {
    // The chapter's tree A..J: value 5. Its trace prunes only F's second leaf,
    // but it skips the test at D after I returns 4 <= alpha = 5; the textbook
    // algorithm (either cut-off test) also prunes J's leaf.
    let tree = "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),\
                D:min(I:max(4),J:max(1)))";
    assert_eq!(solve(tree), (5, 2));
    let mut t = ExplicitTree::parse(tree).unwrap();
    let strict = alphabeta::search(&mut t, 3, Cutoff::Strict);
    assert_eq!((strict.value, 8 - strict.stats.leaves), (5, 2));
}

/// A uniform tree with distinct leaf values, as text, with the children of
/// every node sorted best first (`Some(true)`), worst first (`Some(false)`)
/// or left in random order (`None`).
fn uniform_tree(b: usize, d: usize, rng: &mut XorShift, best_first: Option<bool>) -> String {
    let mut values: Vec<i32> = (0..b.pow(d as u32) as i32).collect();
    rng.shuffle(&mut values);
    let mut next = values.into_iter();
    build(b, d, true, &mut next, best_first).1
}

fn build(
    b: usize,
    d: usize,
    max: bool,
    leaves: &mut impl Iterator<Item = i32>,
    best: Option<bool>,
) -> (i32, String) {
    if d == 0 {
        let v = leaves.next().unwrap();
        return (v, v.to_string());
    }
    let mut kids: Vec<(i32, String)> = (0..b)
        .map(|_| build(b, d - 1, !max, leaves, best))
        .collect();
    let value = if max {
        kids.iter().map(|k| k.0).max()
    } else {
        kids.iter().map(|k| k.0).min()
    };
    if let Some(best) = best {
        // MAX wants high values first, MIN low ones.
        kids.sort_by_key(|(v, _)| if max == best { -v } else { *v });
    }
    let text: Vec<String> = kids.into_iter().map(|(_, t)| t).collect();
    (
        value.unwrap(),
        format!("{}({})", if max { "max" } else { "min" }, text.join(",")),
    )
}

#[test]
fn perfect_ordering_reaches_the_knuth_moore_bound() {
    let mut rng = XorShift::new(7);
    for (b, d) in [(2, 3), (3, 4), (4, 3), (5, 4), (3, 5)] {
        let text = uniform_tree(b, d, &mut rng, Some(true));
        let mut t = ExplicitTree::parse(&text).unwrap();
        let out = alphabeta::search(&mut t, d as u32, Cutoff::Textbook);
        let km = b.pow(d.div_ceil(2) as u32) + b.pow((d / 2) as u32) - 1;
        assert_eq!(out.stats.leaves, km as u64, "b={b} d={d}");
        assert_eq!(
            cutoff_lab::ordering::knuth_moore(b as f64, d as u32),
            km as f64
        );
    }
}

#[test]
fn no_ordering_beats_the_minimal_tree() {
    // Knuth and Moore: with distinct leaf values every alpha-beta search
    // evaluates at least the minimal tree's leaves, whatever the order.
    let mut rng = XorShift::new(8);
    for (b, d) in [(2u32, 4u32), (3, 4), (4, 3), (3, 5)] {
        let km = (b as u64).pow(d.div_ceil(2)) + (b as u64).pow(d / 2) - 1;
        for round in 0..30 {
            let order = [Some(true), Some(false), None][round % 3];
            let text = uniform_tree(b as usize, d as usize, &mut rng, order);
            let mut t = ExplicitTree::parse(&text).unwrap();
            let out = alphabeta::search(&mut t, d, Cutoff::Textbook);
            assert!(
                out.stats.leaves >= km,
                "b={b} d={d}: {} < {km}",
                out.stats.leaves
            );
            assert!(out.stats.leaves <= (b as u64).pow(d));
        }
    }
}

#[test]
fn tic_tac_toe_full_tree_is_a_draw() {
    let mut g = TicTacToe::default();
    let mm = minimax::search(&mut g, 9);
    assert_eq!(mm.value, 0);
    assert_eq!(mm.stats.nodes, 549_946);
    assert_eq!(mm.stats.leaves, 255_168, "the number of possible games");
    let ab = alphabeta::search(&mut g, 9, Cutoff::Textbook);
    assert_eq!(ab.value, 0);
    assert!(ab.stats.nodes < mm.stats.nodes / 10);
}

/// Positions reached by seeded random playouts from the start position.
fn random_positions(count: usize) -> Vec<String> {
    let mut rng = XorShift::new(2024);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::from_fen(STARTPOS, false).unwrap();
        let plies = rng.below(60);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.has_legal_move() {
            out.push(pos.fen());
        }
    }
    out
}

/// True if some position less than `depth` plies from here ends the game.
fn game_ends_inside(g: &mut ChessGame, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    if g.is_over() {
        return true;
    }
    for mv in g.moves() {
        g.play(mv);
        let ends = game_ends_inside(g, depth - 1);
        g.undo();
        if ends {
            return true;
        }
    }
    false
}

#[test]
fn alpha_beta_agrees_with_minimax_on_random_positions() {
    let fens = random_positions(200);
    let mut perft_checked = 0;
    for fen in &fens {
        let mut g = ChessGame::from_fen(fen, ChessOptions::default()).unwrap();
        for depth in 1..=3 {
            let mm = minimax::search(&mut g, depth);
            for rule in [Cutoff::Textbook, Cutoff::Strict] {
                let ab = alphabeta::search(&mut g, depth, rule);
                assert_eq!(ab.value, mm.value, "{fen} depth {depth}");
                assert!(ab.stats.nodes <= mm.stats.nodes, "{fen} depth {depth}");
            }
            if !game_ends_inside(&mut g, depth) {
                let board = g.position().board();
                let tree: u64 = (0..=depth).map(|d| perft(board, d)).sum();
                assert_eq!(mm.stats.nodes, tree, "{fen} depth {depth}");
                perft_checked += 1;
            }
        }
    }
    assert!(
        perft_checked > 500,
        "only {perft_checked} trees without game ends"
    );
}

#[test]
fn ordered_searches_return_the_minimax_value() {
    for fen in random_positions(30) {
        let mut g = ChessGame::from_fen(&fen, ChessOptions::default()).unwrap();
        let policies = [
            Policy::Generator,
            Policy::Engine,
            Policy::Random(3),
            Policy::Oracle,
        ];
        let mut id = Searcher::new(Policy::Engine, true);
        for depth in 1..=3 {
            let mm = minimax::search(&mut g, depth).value;
            assert_eq!(id.search(&mut g, depth).value, mm, "{fen} id depth {depth}");
            for p in policies {
                for tt in [false, true] {
                    let v = Searcher::new(p, tt).search(&mut g, depth).value;
                    assert_eq!(v, mm, "{fen} {p:?} tt {tt} depth {depth}");
                }
            }
        }
    }
}

#[test]
fn published_position_minimax_counts() {
    // The paper's minimax table with its depth-3 entry (printed under alpha-beta).
    let mut g = ChessGame::from_fen(PUBLISHED_FEN, ChessOptions::default()).unwrap();
    let counts: Vec<u64> = (1..=5)
        .map(|d| minimax::search(&mut g, d).stats.nodes)
        .collect();
    assert_eq!(counts, [17, 144, 2_096, 23_152, 353_292]);
}

#[test]
fn published_code_alpha_beta_counts_with_python_chess_order() {
    let published = ChessOptions {
        order: MoveOrder::PythonChess,
        flat_mate: true,
        ..ChessOptions::default()
    };
    let mut g = ChessGame::from_fen(PUBLISHED_FEN, published).unwrap();
    let counts: Vec<u64> = (1..=5)
        .map(|d| alphabeta::search(&mut g, d, Cutoff::Strict).stats.nodes)
        .collect();
    assert_eq!(counts, [17, 130, 988, 2_883, 30_903]);
}

#[test]
fn published_root_move_table() {
    let rows = scores::run(PUBLISHED_FEN, 3, ChessOptions::default(), Cutoff::Textbook).unwrap();
    assert_eq!(rows.len(), 16);
    for r in &rows {
        let expected = match r.mv.as_str() {
            "a1a6" => MATE - 3,
            "a1a7" => -100,
            "a1f1" | "a1c1" | "a1d1" | "a1e1" | "a1h1" | "a1g1" => 0,
            _ => 100,
        };
        assert_eq!(r.score, expected, "{}", r.mv);
    }
    assert!(rows.windows(2).all(|w| w[0].score <= w[1].score), "sorted");
}

#[test]
fn python_chess_move_order() {
    // `[m.uci() for m in chess.Board(fen).legal_moves]` with python-chess 1.11.
    let cases = [
        (
            PUBLISHED_FEN,
            "c8d8 c8d7 a1a7 a1a6 a1a5 a1a4 a1a3 a1a2 a1h1 a1g1 a1f1 a1e1 a1d1 a1c1 a1b1 b6a7",
        ),
        (
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "g8h8 f8f7 f6d5 b5c4 c5c4 d7d5",
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "c8e7 c8a7 c8d6 c8b6 a8c7 a8b6 d7e8 d7e7 d7c7 d7e6 d7d6 d7c6 g2h1q g2h1r \
             g2h1b g2h1n g2f1q g2f1r g2f1b g2f1n g2g1q g2g1r g2g1b g2g1n",
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "e5f7 e5d7 e5g6 e5c6 e5g4 e5c4 e5d3 f3f6 f3h5 f3f5 f3g4 f3f4 f3h3 f3g3 f3e3 \
             f3d3 c3b5 c3a4 c3d1 c3b1 e2a6 e2b5 e2c4 e2d3 e2f1 e2d1 d2h6 d2g5 d2f4 d2e3 \
             d2c1 h1g1 h1f1 e1f1 e1d1 a1d1 a1c1 a1b1 e1g1 e1c1 d5e6 g2h3 d5d6 g2g3 b2b3 \
             a2a3 g2g4 a2a4",
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "g1h3 g1f3 g1e2 f1a6 f1b5 f1c4 f1d3 f1e2 e1e2 d1h5 d1g4 d1f3 d1e2 b1c3 b1a3 \
             e5e6 h2h3 g2g3 f2f3 d2d3 c2c3 b2b3 a2a3 h2h4 g2g4 f2f4 d2d4 c2c4 b2b4 a2a4 e5f6",
        ),
        ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1e2 e1f1 e1d1"),
    ];
    let options = ChessOptions {
        order: MoveOrder::PythonChess,
        ..ChessOptions::default()
    };
    for (fen, expected) in cases {
        let mut g = ChessGame::from_fen(fen, options).unwrap();
        let ours: Vec<String> = g.moves().into_iter().map(|m| g.move_name(m)).collect();
        let theirs: Vec<&str> = expected.split_whitespace().collect();
        assert_eq!(ours, theirs, "{fen}");
    }
}

/// `lab ablate` ends with the search on the hand-crafted evaluation (row
/// `NNUE`), which searches another tree than the network's.
#[test]
fn ablation_includes_the_evaluation() {
    let fens = &cutoff_engine::bench::POSITIONS[..3];
    let rows = cutoff_lab::ablate::run(fens, 5).expect("ablation runs");
    let base = rows.first().expect("rows");
    let hce = rows.last().expect("rows");
    assert_eq!(base.switch, "none");
    assert_eq!(hce.switch, "NNUE");
    assert_ne!(
        hce.nodes, base.nodes,
        "a different evaluation, a different tree"
    );
}
