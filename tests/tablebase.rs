//! Syzygy tablebases: probes of known positions (the tables in
//! tests/data/syzygy: KQvK, KRvK, KPvK, KBvK, KNvK, KBvKP, KRNvK), root
//! move filtering, the search's use of the tables and the UCI side
//! (`tbhits`, a bad `SyzygyPath`).

use crate::common;

use std::sync::Arc;

use common::Session;
use cozy_chess::Board;
use cutoff_engine::board::Position;
use cutoff_engine::search::info::Info;
use cutoff_engine::search::{self, Settings};
use cutoff_engine::tablebase::{Syzygy, Tablebase, Wdl, root};
use cutoff_engine::time::Limits;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

fn tables() -> Arc<Tablebase> {
    Tablebase::open(TABLES).expect("the test tables open")
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).expect("a valid FEN")
}

/// (FEN, WDL, DTZ), checked against python-chess's chess.syzygy.
const KNOWN: [(&str, Wdl, i32); 6] = [
    ("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1", Wdl::Win, 1),
    ("6k1/8/8/3P4/4K3/8/8/8 b - - 0 1", Wdl::Draw, 0),
    ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", Wdl::Win, 11),
    ("k7/8/1K6/8/8/8/8/1Q6 w - - 0 1", Wdl::Win, 3),
    ("8/8/8/8/8/2k5/8/KQ6 b - - 0 1", Wdl::Loss, -14),
    ("8/8/8/8/8/8/K2R4/3R3k b - - 0 1", Wdl::Loss, 0),
];

#[test]
fn known_positions_have_their_wdl_and_dtz() {
    let tb = tables();
    assert_eq!(tb.max_pieces(), 4);
    for (fen, wdl, dtz) in KNOWN {
        let b = board(fen);
        if fen.contains("K2R4") {
            // Two rooks: not in the test tables.
            assert_eq!(tb.probe_wdl(&b), None, "{fen}");
            continue;
        }
        assert_eq!(tb.probe_wdl(&b), Some(wdl), "{fen}");
        assert_eq!(tb.probe_root(&b, 0).map(|r| r.dtz), Some(dtz), "{fen}");
    }
}

#[test]
fn positions_outside_the_tables_are_not_probed() {
    let tb = tables();
    // Castling rights: the tables know none.
    assert_eq!(tb.probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None);
    // KQRvK: not among the test tables.
    assert_eq!(
        tb.probe_wdl(&board("4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1")),
        None
    );
}

#[test]
fn root_filter_keeps_only_the_fastest_winning_moves() {
    let syzygy = Syzygy::new(tables());
    let b = board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    let all: Vec<_> = Position::new(b.clone(), false).legal_moves();
    let (kept, wdl) = root::filter(&syzygy, &b, &all).expect("in the tables");
    assert_eq!(wdl, Wdl::Win);
    // Qe4 is the only move with the least DTZ (python-chess: 10 after it);
    // Qb4, Qd3, Qb3 and Qc2 draw.
    let kept: Vec<String> = kept.iter().map(|m| m.to_string()).collect();
    assert_eq!(kept, vec!["b1e4"]);
}

#[test]
fn root_filter_drops_the_moves_that_lose_the_rook() {
    let syzygy = Syzygy::new(tables());
    // The rook on d1 is attacked and undefended: Ka2, Rc1, Rd2, Rd3 let it go.
    let b = board("8/8/8/8/8/8/2k5/K2R4 w - - 0 1");
    let all = Position::new(b.clone(), false).legal_moves();
    let probe = syzygy.tables.probe_root(&b, 0).expect("in the tables");
    let (kept, wdl) = root::filter(&syzygy, &b, &all).expect("in the tables");
    assert_eq!(wdl, Wdl::Win);
    assert!(!kept.is_empty() && kept.len() < all.len());
    let drawn = ["a1a2", "d1c1", "d1d2", "d1d3"];
    assert!(
        kept.iter()
            .all(|m| !drawn.contains(&m.to_string().as_str()))
    );
    for mv in &kept {
        let e = probe
            .moves
            .iter()
            .find(|e| e.mv == *mv)
            .expect("a legal move");
        assert_eq!(e.wdl, Wdl::Win, "{mv} kept");
    }
}

fn search(fen: &str, syzygy: Option<Syzygy>, depth: u32) -> (search::SearchResult, Vec<Info>) {
    let pos = Position::from_fen(fen, false).expect("a valid FEN");
    let settings = Settings {
        syzygy,
        ..Settings::default()
    };
    let mut infos: Vec<Info> = Vec::new();
    let (r, _) = common::search_on_new_pool(&pos, &Limits::depth(depth), &settings, 1, &mut infos);
    (r, infos)
}

#[test]
fn the_search_plays_a_tablebase_move_and_counts_hits() {
    // Only Kd6 and Kf6 win; Kd5 and Kf5 draw.
    let fen = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
    let (r, infos) = search(fen, Some(Syzygy::new(tables())), 8);
    let tb = tables();
    let b = board(fen);
    let best = r.best.expect("a move");
    let mut after = b.clone();
    after.play(best);
    // The move keeps the win: the opponent is lost after it.
    assert_eq!(tb.probe_wdl(&after), Some(Wdl::Loss), "{best}");
    let last = infos.last().expect("an info line");
    assert!(last.tbhits.is_some_and(|n| n > 0), "{:?}", last.tbhits);
    // Without tables, no tbhits field at all.
    let (_, infos) = search(fen, None, 4);
    assert!(infos.iter().all(|i| i.tbhits.is_none()));
}

#[test]
fn a_capture_into_a_won_ending_scores_as_a_tablebase_win() {
    // Rxb3 leaves KRvK: the probe after the capture scores it as a win
    // below mate, where the evaluation alone would see a rook up.
    let fen = "8/8/8/4k3/8/1n6/8/1R2K3 w - - 0 1";
    let (r, _) = search(fen, Some(Syzygy::new(tables())), 6);
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("b1b3"));
    let s = r.score;
    assert!(
        s > search::score::TB_WIN_BOUND && s < search::score::MATE_BOUND,
        "{s}"
    );
}

#[test]
fn uci_reports_tbhits_and_refuses_a_bad_path_once() {
    let mut s = Session::start();
    s.expect_one_error("setoption name SyzygyPath value /nonexistent/syzygy");
    assert!(
        s.ask(&format!("setoption name SyzygyPath value {TABLES}"))
            .is_empty()
    );
    s.ask("position fen 8/8/8/4k3/8/1n6/8/1R2K3 w - - 0 1");
    s.send("go depth 6");
    let (lines, best) = s.wait_bestmove();
    assert_eq!(best, "b1b3");
    assert!(
        lines.iter().any(|l| l.contains(" tbhits ")),
        "no tbhits in {lines:?}"
    );
    s.expect_one_error("setoption name SyzygyPath value /nonexistent/syzygy");
    s.quit();
}
