//! `UCI_ShowWDL`: with it on, every `info ... score` line carries
//! `wdl W D L` (per mille, summing to 1000, side to move's view) from the
//! engine's model; with it off, none does. Mates, finished games, roots
//! drawn by rule and tablebase results show certain chances. Centipawns
//! are printed normalised, the chances computed from the raw score.

use crate::common;

use common::Session;
use cutoff_engine::board::Position;
use cutoff_engine::eval::wdl;
use cutoff_engine::search::Settings;
use cutoff_engine::search::info::Info;
use cutoff_engine::search::score::UciScore;
use cutoff_engine::time::Limits;

fn score_lines(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.contains(" score ")).collect()
}

/// The `wdl` triple of an info line, checked to follow the score.
fn wdl_of(line: &str) -> [u32; 3] {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "wdl").expect("wdl");
    assert_eq!(words[at - 3], "score", "{line}");
    let n = |i: usize| words[at + i].parse::<u32>().expect("per mille");
    let wdl = [n(1), n(2), n(3)];
    assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    wdl
}

fn search(s: &mut Session, fen: &str, go: &str) -> Vec<String> {
    s.send(&format!("position fen {fen}"));
    s.send(go);
    s.wait_bestmove().0
}

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn wdl_is_shown_only_while_the_option_is_on() {
    let mut s = Session::start();
    let lines = search(&mut s, MIDDLEGAME, "go depth 5");
    assert!(!score_lines(&lines).is_empty());
    assert!(!lines.iter().any(|l| l.contains("wdl")), "{lines:?}");
    s.send("setoption name UCI_ShowWDL value true");
    s.send("setoption name MultiPV value 2");
    let lines = search(&mut s, MIDDLEGAME, "go depth 5");
    let scored = score_lines(&lines);
    assert!(scored.iter().any(|l| l.contains("multipv 2")), "{lines:?}");
    let pos = Position::from_fen(MIDDLEGAME, false).expect("FEN");
    let material = wdl::material(pos.board());
    for line in scored {
        // The chances are the model's of the raw score, which the printed
        // (normalised) one comes from.
        let cp: i32 = common::field(line, "cp").expect("cp").parse().expect("cp");
        let chances = raw_scores_of(cp).map(|raw| {
            let model = wdl::of_cp(raw, material);
            [model.win, model.draw, model.loss]
        });
        assert!(chances.into_iter().any(|c| c == wdl_of(line)), "{line}");
    }
    s.send("setoption name UCI_ShowWDL value false");
    let lines = search(&mut s, MIDDLEGAME, "go depth 3");
    assert!(!lines.iter().any(|l| l.contains("wdl")), "{lines:?}");
}

/// The raw scores that print as `cp` normalised.
fn raw_scores_of(cp: i32) -> impl Iterator<Item = i32> {
    let near = (f64::from(cp) * wdl::FITTED.pawn() / 100.0).round() as i32;
    (near - 2..=near + 2).filter(move |&raw| wdl::normalise(raw) == cp)
}

#[test]
fn uci_prints_normalised_centipawns_and_mates_as_they_are() {
    // White a queen up: raw scores above 1000, which normalising moves.
    let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pos = Position::from_fen(fen, false).expect("FEN");
    let mut raw: Vec<Info> = Vec::new();
    common::search_on_new_pool(&pos, &Limits::depth(8), &Settings::default(), 16, &mut raw);
    let want: Vec<(String, i32)> = raw
        .iter()
        .map(|i| match i.score {
            UciScore::Cp(cp) => (i.depth.to_string(), wdl::normalise(cp)),
            UciScore::Mate(_) => panic!("a mate in {fen}"),
        })
        .collect();
    let moved = raw
        .iter()
        .zip(&want)
        .any(|(i, w)| i.score != UciScore::Cp(w.1));
    assert!(moved, "normalising changed no score: {want:?}");
    let mut s = Session::start();
    let lines = search(&mut s, fen, "go depth 8");
    let printed: Vec<(String, i32)> = score_lines(&lines)
        .iter()
        .map(|l| {
            let cp = common::field(l, "cp").expect("cp").parse().expect("cp");
            (common::field(l, "depth").expect("depth").to_string(), cp)
        })
        .collect();
    assert_eq!(printed, want, "{lines:?}");
    let lines = search(&mut s, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go depth 4");
    let last = score_lines(&lines).last().expect("a score").to_string();
    assert!(last.contains(" score mate 1 "), "{last}");
}

#[test]
fn wdl_is_the_side_to_moves_view() {
    let mut s = Session::start();
    s.send("setoption name UCI_ShowWDL value true");
    for (side, good) in [("w", true), ("b", false)] {
        let fen = format!("4k3/8/8/8/8/8/8/3QK3 {side} - - 0 1");
        let lines = search(&mut s, &fen, "go depth 4");
        let [win, _, loss] = wdl_of(score_lines(&lines).last().expect("a score"));
        let (mine, theirs) = if good { (win, loss) } else { (loss, win) };
        assert!(mine > 900 && theirs == 0, "{fen}: {lines:?}");
    }
}

#[test]
fn mates_and_finished_games_are_certain() {
    let mut s = Session::start();
    s.send("setoption name UCI_ShowWDL value true");
    let lines = search(&mut s, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go depth 4");
    let last = score_lines(&lines).last().expect("a score").to_string();
    assert!(last.contains("score mate 1 wdl 1000 0 0"), "{last}");
    let lines = search(&mut s, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "go depth 4");
    assert!(lines.contains(&"info depth 0 score mate 0 wdl 0 0 1000".to_string()));
    let lines = search(&mut s, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 4");
    assert!(lines.contains(&"info depth 0 score cp 0 wdl 0 1000 0".to_string()));
}

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// Every score line of `go depth 6` from `position`, and the best move.
fn certain_search(s: &mut Session, position: &str) -> (Vec<String>, String) {
    s.send(position);
    s.send("go depth 6");
    let (lines, best) = s.wait_bestmove();
    let scored = score_lines(&lines).into_iter().cloned().collect();
    (scored, best)
}

#[test]
fn roots_drawn_by_rule_or_the_tables_are_certain_draws() {
    let mut s = Session::start();
    s.send("setoption name UCI_ShowWDL value true");
    s.send(&format!("setoption name SyzygyPath value {TABLES}"));
    let drawn = [
        // Bare kings: insufficient material.
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        // Fifty moves without a capture or pawn move, and no mate.
        "position fen r3k3/8/8/8/8/8/8/4K2R w - - 100 80",
        // The start position for the third time.
        "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        // KBvKP, a tablebase draw.
        "position fen 8/4k3/8/p2K4/8/8/2B5/8 w - - 0 1",
    ];
    for position in drawn {
        let (lines, best) = certain_search(&mut s, position);
        assert!(!lines.is_empty() && best != "0000", "{position}: {best}");
        for line in &lines {
            assert!(
                line.contains(" score cp 0 wdl 0 1000 0 "),
                "{position}: {line}"
            );
        }
    }
    // Twice only: the search's own score and the model's chances.
    let (lines, _) = certain_search(
        &mut s,
        "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1",
    );
    let last = lines.last().expect("a score");
    assert!(!last.contains("wdl 0 1000 0"), "{last}");
}

#[test]
fn a_tablebase_win_is_certain() {
    let mut s = Session::start();
    s.send("setoption name UCI_ShowWDL value true");
    s.send(&format!("setoption name SyzygyPath value {TABLES}"));
    for (fen, wdl) in [
        ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", [1000, 0, 0]),
        ("8/8/8/8/8/2k5/8/KQ6 b - - 0 1", [0, 0, 1000]),
    ] {
        let (lines, _) = certain_search(&mut s, &format!("position fen {fen}"));
        assert!(!lines.is_empty(), "{fen}");
        for line in &lines {
            assert_eq!(wdl_of(line), wdl, "{fen}: {line}");
        }
    }
}
