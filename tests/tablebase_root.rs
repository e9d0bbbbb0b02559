//! A root in the tables, over UCI: the score shown is the tablebase's (a
//! draw `cp 0`, a win or loss in the tablebase range, a mate when the
//! search proves one) at every depth, and with MultiPV each line carries
//! its own move's result, best result first.

use crate::common;

use common::Session;
use cozy_chess::Board;
use cutoff_engine::search::score::{MATE_BOUND, TB_WIN_BOUND};
use cutoff_engine::tablebase::{Tablebase, Wdl};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
/// KBvKP, a tablebase draw (the evaluation sees a bishop up).
const DRAWN: &str = "8/4k3/8/p2K4/8/8/2B5/8 w - - 0 1";
/// KvKRN, lost for White (the evaluation sees little).
const LOST: &str = "K6k/8/1r6/8/6n1/8/8/8 w - - 0 1";
/// KPvK: Kd6 and Kf6 win, Kd5 and Kf5 draw.
const MIXED: &str = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";

/// The result for the side to move after `mv` is played from `fen`.
fn result_after(fen: &str, mv: &str) -> Wdl {
    let mut board = Board::from_fen(fen, false).expect("FEN");
    let mv = cutoff_engine::board::moves::parse_uci(&board, mv, false).expect("a legal move");
    board.play(mv);
    let tb = Tablebase::open(TABLES).expect("the test tables open");
    tb.probe_wdl(&board).expect("in the tables")
}

/// The `info` lines with a score, and the best move, of `go depth D`.
fn search(s: &mut Session, fen: &str, depth: u32) -> (Vec<String>, String) {
    s.send(&format!("position fen {fen}"));
    s.send(&format!("go depth {depth}"));
    let (lines, best) = s.wait_bestmove();
    let scored = lines
        .into_iter()
        .filter(|l| l.contains(" score "))
        .collect();
    (scored, best)
}

fn with_tables(multipv: usize) -> Session {
    let mut s = Session::start();
    s.send(&format!("setoption name SyzygyPath value {TABLES}"));
    s.send(&format!("setoption name MultiPV value {multipv}"));
    s
}

/// A score of an `info` line: `cp N` or `mate N`.
fn score(line: &str) -> (&str, i32) {
    let kind = common::field(line, "score").expect("a score");
    let value = common::field(line, kind).expect("a value");
    (kind, value.parse().expect("a number"))
}

/// A win (or loss) shown as the tables' or as a proven mate.
fn is_tb_win(line: &str, sign: i32) -> bool {
    match score(line) {
        ("cp", cp) => (TB_WIN_BOUND..MATE_BOUND).contains(&(cp * sign)),
        ("mate", m) => m * sign > 0,
        _ => false,
    }
}

#[test]
fn a_drawn_root_shows_cp_0_at_every_depth() {
    let mut s = with_tables(1);
    for depth in [2, 10] {
        let (lines, best) = search(&mut s, DRAWN, depth);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info depth {depth} ")))
        );
        for line in &lines {
            assert_eq!(score(line), ("cp", 0), "{line}");
        }
        assert_eq!(result_after(DRAWN, &best), Wdl::Draw, "{best}");
    }
}

#[test]
fn a_lost_root_shows_a_tablebase_loss_at_every_depth() {
    let mut s = with_tables(1);
    for depth in [2, 10] {
        let (lines, best) = search(&mut s, LOST, depth);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info depth {depth} ")))
        );
        for line in &lines {
            assert!(is_tb_win(line, -1), "{line}");
        }
        assert_eq!(result_after(LOST, &best), Wdl::Win, "{best}");
    }
}

#[test]
fn multipv_lines_carry_their_own_moves_results_best_first() {
    let mut s = with_tables(3);
    for depth in [2, 10] {
        let (lines, best) = search(&mut s, MIXED, depth);
        let last: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")))
            .collect();
        assert_eq!(last.len(), 3, "{lines:?}");
        for (i, line) in last.iter().enumerate() {
            let n = (i + 1).to_string();
            assert_eq!(common::field(line, "multipv"), Some(n.as_str()), "{line}");
            let mv = common::field(line, "pv").expect("a move");
            // The opponent's result after the move: lost means a win here.
            match result_after(MIXED, mv) {
                Wdl::Loss => assert!(i < 2 && is_tb_win(line, 1), "{line}"),
                Wdl::Draw => assert!(i == 2 && score(line) == ("cp", 0), "{line}"),
                other => panic!("{mv}: {other:?}"),
            }
        }
        assert_eq!(result_after(MIXED, &best), Wdl::Loss, "{best}");
    }
}
