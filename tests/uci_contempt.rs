//! `Contempt`: a draw by rule scores -Contempt for the engine's side, so a
//! positive value plays on where the engine would repeat; `UCI_AnalyseMode`
//! turns it off, and 0 (the default) is the search without it.

use crate::common;

use common::{Session, field};
use cutoff_engine::engine::Engine;
use cutoff_engine::uci::options;

/// Black to move can repeat the position after 1.e4 Nf6 a third time with
/// ...Ng4-f6; every other move leaves Black a little worse.
const REPEAT: &str = "position startpos moves e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g4 f3g1";
const DRAWING_MOVE: &str = "g4f6";

/// From a new game (an empty table): the last score line of `go depth 10`
/// with these options, and the best move.
fn search(s: &mut Session, contempt: i32, analyse: bool) -> (String, String) {
    s.send("ucinewgame");
    s.send(&format!("setoption name Contempt value {contempt}"));
    s.send(&format!("setoption name UCI_AnalyseMode value {analyse}"));
    s.send(REPEAT);
    s.send("go depth 10");
    let (lines, best) = s.wait_bestmove();
    let last = lines.iter().rev().find(|l| l.contains(" score "));
    (last.expect("a score line").clone(), best)
}

fn cp(line: &str) -> i32 {
    field(line, "cp").expect("cp").parse().expect("centipawns")
}

/// The line without its speed and time, which vary from run to run.
fn search_part(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |w| words.iter().position(|&x| x == w).expect("field");
    [
        &words[..at("nps")],
        &words[at("hashfull")..at("time")],
        &words[at("pv")..],
    ]
    .concat()
    .join(" ")
}

#[test]
fn a_positive_contempt_plays_on_rather_than_repeat() {
    let mut s = Session::start();
    let (plain, best) = search(&mut s, 0, false);
    assert_eq!((best.as_str(), cp(&plain)), (DRAWING_MOVE, 0), "{plain}");
    let (line, best) = search(&mut s, 100, false);
    assert_ne!(best, DRAWING_MOVE, "{line}");
    assert!((-100..0).contains(&cp(&line)), "{line}");
    // Against a stronger opponent a negative value takes the draw, which
    // then scores -Contempt for the engine.
    let (line, best) = search(&mut s, -100, false);
    assert_eq!((best.as_str(), cp(&line)), (DRAWING_MOVE, 100), "{line}");
    // Analysing, the search is the one without contempt.
    let (line, best) = search(&mut s, 100, true);
    assert_eq!(best, DRAWING_MOVE);
    assert_eq!(search_part(&line), search_part(&plain));
}

#[test]
fn contempt_is_listed_with_its_range_and_reaches_the_search() {
    let mut s = Session::start();
    let listed = s.ask("uci");
    let want = "option name Contempt type spin default 0 min -100 max 100";
    assert!(listed.iter().any(|l| l == want), "{listed:?}");
    let mut e = Engine::new();
    assert_eq!(e.options().settings().contempt, 0);
    options::set(&mut e, "contempt", Some("30")).unwrap();
    assert_eq!(e.options().settings().contempt, 30);
    options::set(&mut e, "UCI_AnalyseMode", Some("true")).unwrap();
    assert_eq!(e.options().settings().contempt, 0);
}
