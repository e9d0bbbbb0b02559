//! Strength limiting (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`): a weak setting plays
//! legal, sometimes second-best but never far worse moves within its node
//! budget, reproducibly, whatever the number of threads; off, the search is
//! exactly the unlimited one. `UCI_LimitStrength` wins over `Skill Level`,
//! and `go` says which strength plays.

use crate::common;

use std::time::Duration;

use common::{Session, field, is_legal};
use cutoff_engine::board::Position;
use cutoff_engine::engine::Engine;
use cutoff_engine::search::info::{Info, Reporter};
use cutoff_engine::search::score::UciScore;
use cutoff_engine::search::strength::{MAX_ELO, MIN_ELO, NOISE_TOP_ELO, Strength, skill_elo};
use cutoff_engine::search::{SearchResult, Settings};
use cutoff_engine::time::Limits;
use cutoff_engine::uci::options;

/// Nodes a stopped search may count past its limit while it unwinds.
const SLACK: u64 = 8;

#[derive(Default)]
struct Collect {
    infos: Vec<Info>,
}

impl Reporter for Collect {
    fn info(&mut self, info: &Info) {
        self.infos.push(info.clone());
    }
}

/// Positions of a reproducible pseudo-random walk from the start position,
/// `plies` moves deep, one per walk.
fn walk_positions(count: usize, plies: usize) -> Vec<Position> {
    let mut state = 12345u64;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play(moves[(state >> 33) as usize % moves.len()]);
        }
        if pos.legal_moves().len() > 1 {
            out.push(pos);
        }
    }
    out
}

fn limited(elo: i32) -> Settings {
    Settings {
        strength: Some(Strength::new(elo)),
        ..Settings::default()
    }
}

fn run(pos: &Position, limits: &Limits, settings: &Settings) -> (SearchResult, Vec<Info>) {
    let mut c = Collect::default();
    let (r, _) = common::search_on_new_pool(pos, limits, settings, 16, &mut c);
    (r, c.infos)
}

fn cp(info: &Info) -> i32 {
    match info.score {
        UciScore::Cp(c) => c,
        UciScore::Mate(m) => m.signum() * 100_000,
    }
}

#[test]
fn a_weak_setting_sometimes_plays_a_second_best_move_but_never_a_bad_one() {
    let strength = Strength::new(MIN_ELO);
    let settings = limited(MIN_ELO);
    let mut other = 0;
    let positions = walk_positions(40, 12);
    for pos in &positions {
        let (r, infos) = run(pos, &Limits::default(), &settings);
        let best = r.best.expect("a move");
        assert!(pos.board().is_legal(best), "{}: illegal move", pos.fen());
        // The last line printed is the move played; the one before it the
        // best line of the last completed iteration.
        let [.., top, last] = &infos[..] else {
            panic!("{}: too few info lines: {infos:?}", pos.fen());
        };
        assert_eq!(last.pv[0], pos.uci(best), "{}", pos.fen());
        assert_eq!(last.multipv, 1);
        assert!(cp(last) >= cp(top) - strength.spread(), "{}", pos.fen());
        if last.pv[0] != top.pv[0] {
            other += 1;
        }
        // Depth 1 is always completed, even beyond the budget.
        let budget = strength.node_budget();
        assert!(
            r.nodes <= budget + SLACK || top.depth == 1,
            "{} nodes",
            r.nodes
        );
    }
    assert!(
        (1..positions.len() / 2).contains(&other),
        "{other} of {} moves not the best",
        positions.len()
    );
}

#[test]
fn the_node_budget_grows_with_elo_and_bounds_the_search() {
    let pos = &walk_positions(1, 10)[0];
    let mut last = 0;
    // Below NOISE_TOP_ELO (several lines), then one line.
    for elo in [MIN_ELO, 1800, 2300, NOISE_TOP_ELO] {
        let budget = Strength::new(elo).node_budget();
        assert!(budget > last || elo == NOISE_TOP_ELO, "{elo}: {budget}");
        last = budget;
        let (r, _) = run(pos, &Limits::default(), &limited(elo));
        assert!(
            r.nodes <= budget + SLACK && r.nodes > budget / 2,
            "{elo}: {} nodes, budget {budget}",
            r.nodes
        );
        // `go nodes` below the budget still counts.
        let (r, _) = run(
            pos,
            &Limits {
                nodes: Some(500),
                ..Limits::default()
            },
            &limited(elo),
        );
        assert!(r.nodes <= 500 + SLACK, "{elo}: {}", r.nodes);
    }
}

#[test]
fn a_limited_search_is_reproducible() {
    for pos in walk_positions(6, 9) {
        let (a, _) = run(&pos, &Limits::default(), &limited(1700));
        let (b, _) = run(&pos, &Limits::default(), &limited(1700));
        assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    }
}

#[test]
fn user_multipv_still_shows_its_lines() {
    let settings = Settings {
        multipv: 6,
        ..limited(2000)
    };
    let (r, infos) = run(&Position::default(), &Limits::default(), &settings);
    let depth = infos[infos.len() - 2].depth;
    let shown: Vec<usize> = infos
        .iter()
        .filter(|i| i.depth == depth)
        .map(|i| i.multipv)
        .collect();
    assert!(shown.starts_with(&[1, 2, 3, 4, 5, 6]), "{shown:?}");
    let last = infos.last().unwrap();
    assert_eq!(last.pv[0], Position::default().uci(r.best.unwrap()));
}

#[test]
fn limit_strength_off_is_the_unlimited_search() {
    let mut e = Engine::new();
    assert!(e.options().settings().strength.is_none());
    options::set(&mut e, "UCI_LimitStrength", Some("true")).unwrap();
    options::set(&mut e, "uci_elo", Some("1600")).unwrap();
    assert_eq!(e.options().settings().strength, Some(Strength::new(1600)));
    options::set(&mut e, "UCI_LimitStrength", Some("false")).unwrap();
    assert!(e.options().settings().strength.is_none());
    let pos = &walk_positions(1, 10)[0];
    let (a, _) = run(pos, &Limits::depth(7), &e.options().settings());
    let (b, _) = run(pos, &Limits::depth(7), &Settings::default());
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    for bad in ["1319", "2851", "strong"] {
        assert!(options::set(&mut e, "UCI_Elo", Some(bad)).is_err(), "{bad}");
    }
}

#[test]
fn skill_level_maps_onto_uci_elo_and_limit_strength_comes_first() {
    let mut e = Engine::new();
    for (level, elo) in [
        ("0", Some(MIN_ELO)),
        ("10", Some(2125)),
        ("19", Some(MAX_ELO)),
    ] {
        options::set(&mut e, "skill level", Some(level)).unwrap();
        let want = elo.map(Strength::new);
        assert_eq!(e.options().settings().strength, want, "level {level}");
        assert_eq!(elo, skill_elo(level.parse().unwrap()));
    }
    options::set(&mut e, "Skill Level", Some("20")).unwrap();
    assert!(e.options().settings().strength.is_none());
    options::set(&mut e, "Skill Level", Some("3")).unwrap();
    options::set(&mut e, "UCI_LimitStrength", Some("true")).unwrap();
    options::set(&mut e, "UCI_Elo", Some("2400")).unwrap();
    assert_eq!(e.options().settings().strength, Some(Strength::new(2400)));
    for bad in ["-1", "21", "weak"] {
        assert!(
            options::set(&mut e, "Skill Level", Some(bad)).is_err(),
            "{bad}"
        );
    }
}

/// The nodes of the last `info` line with a count.
fn last_nodes(lines: &[String]) -> u64 {
    let line = lines.iter().rev().find(|l| l.contains(" nodes "));
    line.and_then(|l| field(l, "nodes")?.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {lines:?}"))
}

#[test]
fn over_uci_skill_level_limits_the_search_unless_limit_strength_is_on() {
    /// From a new game: the nodes of `go depth 8`, and whether depth 8 was
    /// reached.
    fn search(s: &mut Session) -> (u64, bool) {
        s.send("ucinewgame");
        s.send("position startpos");
        s.send("go depth 8");
        let (lines, _) = s.wait_bestmove();
        let depth8 = lines.iter().any(|l| l.starts_with("info depth 8 "));
        (last_nodes(&lines), depth8)
    }
    let mut s = Session::start();
    let (full, full_depth8) = search(&mut s);
    assert!(full_depth8);
    s.send("setoption name Skill Level value 20");
    assert_eq!(search(&mut s), (full, true), "level 20 is full strength");
    // Level 0 plays at MIN_ELO: its budget ends the search before depth 8.
    s.send("setoption name Skill Level value 0");
    let budget = Strength::new(MIN_ELO).node_budget();
    let (nodes, depth8) = search(&mut s);
    assert!(
        nodes <= budget + SLACK && !depth8,
        "{nodes} nodes, budget {budget}"
    );
    // `UCI_LimitStrength` with `UCI_Elo` at the top overrides the level.
    s.send("setoption name UCI_LimitStrength value true");
    s.send(&format!("setoption name UCI_Elo value {MAX_ELO}"));
    let (nodes, depth8) = search(&mut s);
    assert!(nodes > budget + SLACK && depth8, "{nodes} nodes");
}

/// The first move of the last `info ... pv` line.
fn last_pv_move(lines: &[String]) -> Option<&str> {
    field(lines.iter().rev().find(|l| l.contains(" pv "))?, "pv")
}

#[test]
fn over_uci_infinite_and_ponder_wait_and_the_last_pv_is_the_bestmove() {
    let mut s = Session::start();
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1400");
    for (go, release) in [("go infinite", "stop"), ("go ponder", "ponderhit")] {
        s.send("position startpos moves e2e4 c7c5");
        s.send(go);
        let mut lines = s.read_until(|l| l.starts_with("info depth"));
        // The budget is spent at once; a correct engine still waits.
        lines.extend(s.lines_within(Duration::from_millis(300)));
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {lines:?}"
        );
        s.send(release);
        let (more, best) = s.wait_bestmove();
        lines.extend(more);
        assert_eq!(last_pv_move(&lines), Some(best.as_str()), "{go}: {lines:?}");
    }
    s.send("setoption name MultiPV value 3");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for fen in [start, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"] {
        s.send(&format!("position fen {fen}"));
        s.send("go wtime 5000 btime 5000");
        let (lines, best) = s.wait_bestmove();
        assert_eq!(last_pv_move(&lines), Some(best.as_str()), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains(" multipv 3 ")), "{lines:?}");
        assert!(is_legal(fen, &best, false), "{best}");
    }
}

/// A new engine given `setup`, then `go`: the `info string strength`
/// line, if any, the last score line and the best move.
fn limited_go(setup: &[String], go: &str) -> (Option<String>, String, String) {
    let mut s = Session::start();
    for line in setup {
        s.send(line);
    }
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    s.send(go);
    let (lines, best) = s.wait_bestmove();
    let strength = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string strength "));
    let last = lines.iter().rev().find(|l| l.contains(" score "));
    (
        strength.map(str::to_string),
        last.expect("a score line").clone(),
        best,
    )
}

#[test]
fn go_names_the_strength_in_force_and_limit_strength_wins_over_skill_level() {
    const SKILL: &str = "setoption name Skill Level value 5";
    const LIMIT: &str = "setoption name UCI_LimitStrength value true";
    const ELO: &str = "setoption name UCI_Elo value 1800";
    const NO_LIMIT: &str = "setoption name UCI_LimitStrength value false";
    let level5 = skill_elo(5).expect("a limited level");
    let both = "UCI_LimitStrength, not Skill Level 5";
    // What a GUI sends, and the Elo that plays with where it comes from.
    type Case<'a> = (&'a [&'a str], Option<(i32, &'a str)>);
    let cases: [Case; 7] = [
        (&[], None),
        (&[SKILL], Some((level5, "Skill Level 5"))),
        (&[LIMIT, ELO], Some((1800, "UCI_LimitStrength"))),
        (&[SKILL, LIMIT, ELO], Some((1800, both))),
        (&[LIMIT, ELO, SKILL], Some((1800, both))),
        // An Elo without `UCI_LimitStrength` is no limit; a level still is.
        (&[ELO, NO_LIMIT], None),
        (
            &[LIMIT, ELO, SKILL, NO_LIMIT],
            Some((level5, "Skill Level 5")),
        ),
    ];
    for (setup, want) in cases {
        let setup: Vec<String> = setup.iter().map(|l| l.to_string()).collect();
        let (strength, last, _) = limited_go(&setup, "go depth 12");
        let depth = field(&last, "depth").expect("depth");
        let nodes: u64 = field(&last, "nodes").expect("nodes").parse().unwrap();
        let Some((elo, from)) = want else {
            assert_eq!((strength, depth), (None, "12"), "{setup:?}: {last}");
            continue;
        };
        // The budget named is the one applied.
        let budget = Strength::new(elo).node_budget();
        let line = format!("UCI_Elo {elo} from {from}, {budget} nodes a move");
        assert_eq!(strength, Some(line), "{setup:?}");
        assert!(
            nodes <= budget + SLACK && depth != "12",
            "{setup:?}: {last}"
        );
    }
}

#[test]
fn a_limited_search_is_the_same_with_two_threads() {
    for elo in [MIN_ELO, 1800, 2400] {
        let setup = |threads: usize| {
            vec![
                format!("setoption name Threads value {threads}"),
                "setoption name UCI_LimitStrength value true".to_string(),
                format!("setoption name UCI_Elo value {elo}"),
            ]
        };
        // The budget ends the search long before depth 30.
        let (_, one, best_one) = limited_go(&setup(1), "go depth 30");
        let (_, two, best_two) = limited_go(&setup(2), "go depth 30");
        let depth = |l: &str| field(l, "depth").unwrap().parse::<u32>().unwrap();
        assert!((2..30).contains(&depth(&one)), "{elo}: {one}");
        let search = |l: &str| (depth(l), field(l, "nodes").map(str::to_string));
        assert_eq!(
            (search(&one), best_one),
            (search(&two), best_two),
            "{elo}: {one} / {two}"
        );
    }
}
