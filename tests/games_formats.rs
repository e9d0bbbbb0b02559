//! The corpus in the field's tools: PGN games made by fastchess (as an
//! OpenBench datagen workload returns them) imported into game records,
//! replayed and trained on; and game files exported to viriformat and
//! bulletformat, read back with those crates and compared position by
//! position with Cutoff's own reading.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cutoff_engine::board::{Board, Position, fen};
use cutoff_engine::search::score::MATE;
use cutoff_train::datagen::game::Rng;
use cutoff_train::games::export::{self, Format};
use cutoff_train::games::pgn;
use cutoff_train::games::positions::{self, Filter};
use cutoff_train::games::{self, GameRecord, import};

fn data_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Two fastchess PGNs: four games from genfens openings (a `FEN` tag), and
/// one from a PGN opening whose first four moves are `{book}`.
fn fastchess_pgns() -> [PathBuf; 2] {
    [
        data_file("fastchess-genfens.pgn"),
        data_file("fastchess-book.pgn"),
    ]
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-formats-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("cutoff runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The PlyCount tags and the book moves of the two PGNs.
fn plies_in_pgns() -> (usize, usize) {
    let (mut plies, mut book) = (0, 0);
    for file in fastchess_pgns() {
        let text = fs::read_to_string(file).expect("test PGN");
        for game in pgn::Reader::new(&text) {
            plies += game.moves.len();
            assert_eq!(
                game.tag("PlyCount")
                    .map(|c| c.parse::<usize>().expect("count")),
                Some(game.moves.len())
            );
            book += game
                .comments
                .iter()
                .filter(|c| c.as_deref() == Some("book"))
                .count();
        }
    }
    (plies, book)
}

#[test]
fn fastchess_games_import_replay_and_train() {
    let dir = temp_dir("import");
    let out = dir.join("imported.games");
    let [genfens, book] = fastchess_pgns();
    let run = cutoff(&[
        "games",
        "import",
        "--pgn",
        path(&genfens),
        path(&book),
        "--out",
        path(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(text(&run.stderr), "", "no game dropped");
    let (plies, book_plies) = plies_in_pgns();
    assert_eq!(book_plies, 4);
    let summary = text(&run.stdout);
    assert!(
        summary.contains(&format!(
            "imported 5 games ({} positions; 4 book plies moved into the starts) from 2 PGN files",
            plies - book_plies
        )),
        "{summary}"
    );
    assert!(summary.contains("dropped 0 games"), "{summary}");

    // Cutoff reads the file back: every game replays, whole.
    let parsed = games::read(&out).expect("readable");
    assert!(parsed.damage.is_none(), "{:?}", parsed.damage);
    assert_eq!(parsed.games.len(), 5);
    let stored: usize = parsed.games.iter().map(|g| g.plies.len()).sum();
    assert_eq!(stored, plies - book_plies);
    // The first game starts at its FEN tag, and its first score is the
    // PGN's first comment in centipawns from White's view.
    let first_pgn = fs::read_to_string(&genfens).expect("PGN");
    let first = pgn::Reader::new(&first_pgn).next().expect("a game");
    let start = fen::parse_fen(first.tag("FEN").expect("genfens FEN")).expect("FEN");
    assert_eq!(parsed.games[0].start, start);
    let want = match import::parse_comment(first.comments[0].as_deref()) {
        import::Comment::Score(s) => import::white_score(start.side_to_move(), s),
        other => panic!("first comment {other:?}"),
    };
    assert_eq!(parsed.games[0].plies[0].1, want);
    // The book game starts after its four book moves (1. e4 e5 2. Nf3 Nc6).
    assert_eq!(
        fen::to_fen(&parsed.games[4].start, false),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    // Results come from the Result tags; every game ending in mate has a
    // mate score on its last move.
    let results: Vec<u8> = parsed.games.iter().map(|g| g.result).collect();
    let mut tags = Vec::new();
    for file in fastchess_pgns() {
        let text = fs::read_to_string(file).expect("PGN");
        for game in pgn::Reader::new(&text) {
            tags.push(match game.tag("Result") {
                Some("1-0") => 2,
                Some("0-1") => 0,
                _ => 1,
            });
        }
    }
    assert_eq!(results, tags);
    for game in parsed.games.iter().filter(|g| g.result != 1) {
        let last = i32::from(game.plies.last().expect("plies").1);
        assert_eq!(last.abs(), MATE - 1, "mate in one ply");
        assert_eq!(last > 0, game.result == 2);
    }

    // `cutoff games` counts them.
    let listed = cutoff(&["games", path(&out)]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let listed = text(&listed.stdout);
    assert!(
        listed.contains("5 games: kept ") && listed.contains(&format!(" of {stored} positions")),
        "{listed}"
    );

    // And the trainer trains on them for a moment.
    let net_dir = dir.join("net");
    let train = cutoff(&[
        "train",
        "--data",
        path(&out),
        "--dir",
        path(&net_dir),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--threads",
        "1",
        "--validation",
        "0.1",
    ]);
    assert!(train.status.success(), "{}", text(&train.stderr));
    let net = cutoff_engine::eval::nnue::file::load(&net_dir.join("net.nnue"))
        .expect("the engine loads the network");
    assert_eq!(net.buckets(), 1);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_games_are_named_counted_and_skipped() {
    let dir = temp_dir("bad");
    let pgn_file = dir.join("bad.pgn");
    let good = fs::read_to_string(data_file("fastchess-book.pgn")).expect("PGN");
    let bad = "[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} e5 {-0.20/10 0.1s} 2. Ke3 {+0.10/3 0.1s} 1-0\n\n\
               [Result \"*\"]\n\n1. e4 {+0.30/10 0.1s} *\n\n";
    fs::write(&pgn_file, format!("{bad}{good}")).expect("write");
    let out = dir.join("out.games");
    let run = cutoff(&[
        "games",
        "import",
        "--pgn",
        path(&pgn_file),
        "--out",
        path(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let errors = text(&run.stderr);
    let lines: Vec<&str> = errors.lines().collect();
    let name = pgn_file.display();
    assert_eq!(
        lines,
        [
            format!("{name}: game 1: dropped: move 2. Ke3: illegal or unreadable move 'Ke3'"),
            format!("{name}: game 2: dropped: unknown result '*'"),
        ]
    );
    assert!(
        text(&run.stdout).contains("imported 1 games")
            && text(&run.stdout).contains("dropped 2 games"),
        "{}",
        text(&run.stdout)
    );
    let missing = cutoff(&[
        "games",
        "import",
        "--pgn",
        "no-such.pgn",
        "--out",
        path(&out),
    ]);
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("cannot read no-such.pgn"));
    fs::remove_dir_all(&dir).ok();
}

/// Random games from standard and Chess960 starts (castling both ways, en
/// passant, promotions), written as a game file.
fn random_game_file(path: &Path, count: usize) -> Vec<GameRecord> {
    let mut rng = Rng::new(29);
    let mut records = Vec::new();
    for g in 0..count {
        let start = if g % 2 == 0 {
            Board::default()
        } else {
            Board::chess960_startpos(rng.below(960) as u32)
        };
        let mut pos = Position::new(start.clone(), g % 2 == 1);
        let mut plies = Vec::new();
        while plies.len() < 300 && pos.has_legal_move() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            plies.push((mv, (rng.next_u64() % 8001) as i16 - 4000));
            pos.play(mv);
        }
        records.push(GameRecord {
            start,
            result: (g % 3) as u8,
            plies,
        });
    }
    import::write(path, &records).expect("writes");
    records
}

#[test]
fn exports_read_back_with_their_crates_position_by_position() {
    let dir = temp_dir("export");
    let imported = dir.join("imported.games");
    let run = import::run(&fastchess_pgns(), &imported).expect("imports");
    assert!(run.dropped.is_empty());
    let random = dir.join("random.games");
    let records = random_game_file(&random, 30);
    let random_plies: u64 = records.iter().map(|g| g.plies.len() as u64).sum();
    let filter = Filter::default();

    // viriformat: every game whole, every ply.
    let inputs = vec![imported.clone(), random.clone()];
    let viri = dir.join("out.vf");
    let written = export::run(Format::Viriformat, &inputs, &viri, &filter).expect("exports");
    assert_eq!(written.games, 5 + 30);
    assert_eq!(written.positions, run.positions as u64 + random_plies);
    let checked = export::check(Format::Viriformat, &inputs, &viri, &filter).expect("agrees");
    assert_eq!(
        (checked.games, checked.positions),
        (written.games, written.positions)
    );

    // bulletformat: the positions the trainer keeps, from game files and
    // from the 32-byte records of the self-play sample.
    let sample = data_file("selfplay-sample.bin");
    let inputs = vec![imported.clone(), random.clone(), sample.clone()];
    let bullet = dir.join("out.bf");
    let written = export::run(Format::Bulletformat, &inputs, &bullet, &filter).expect("exports");
    let (kept, counts) = positions::load(&inputs, &filter).expect("loads");
    assert_eq!(written.positions, kept.len() as u64);
    assert_eq!(counts.records, 2000);
    assert!(counts.kept > 0 && counts.opening > 0 && counts.noisy > 0);
    assert_eq!(
        fs::metadata(&bullet).expect("written").len(),
        32 * kept.len() as u64
    );
    let checked = export::check(Format::Bulletformat, &inputs, &bullet, &filter).expect("agrees");
    assert_eq!(checked.positions, kept.len() as u64);

    // A damaged export is caught: one flipped score.
    let mut bytes = fs::read(&bullet).expect("read");
    bytes[32 * 5 + 24] ^= 1;
    fs::write(&bullet, bytes).expect("write");
    let err = export::check(Format::Bulletformat, &inputs, &bullet, &filter).unwrap_err();
    assert!(err.contains("position 5 differs"), "{err}");
    // viriformat takes games only.
    let err = export::run(Format::Viriformat, &[sample], &viri, &filter).unwrap_err();
    assert!(err.contains("not games"), "{err}");

    // The command line: export with --check.
    let cli = cutoff(&[
        "games",
        "export",
        "--format",
        "viriformat",
        "--out",
        path(&viri),
        "--check",
        path(&imported),
    ]);
    assert!(cli.status.success(), "{}", text(&cli.stderr));
    let said = text(&cli.stdout);
    assert!(said.contains("checked: 5 games"), "{said}");
    fs::remove_dir_all(&dir).ok();
}

/// A PGN given where game files are read (`games`, `games export`, `train`)
/// is refused with the command that imports it, and a failed export leaves
/// no output file behind.
#[test]
fn pgn_text_is_refused_with_the_import_command() {
    let dir = temp_dir("pgn-refused");
    let pgn = data_file("fastchess-book.pgn");
    let runs: [(&str, Vec<String>); 4] = [
        ("games", vec!["games".into(), path(&pgn).into()]),
        (
            "viriformat",
            vec![
                "games".into(),
                "export".into(),
                "--format".into(),
                "viriformat".into(),
                "--out".into(),
                path(&dir.join("out.vf")).into(),
                path(&pgn).into(),
            ],
        ),
        (
            "bulletformat",
            vec![
                "games".into(),
                "export".into(),
                "--format".into(),
                "bulletformat".into(),
                "--out".into(),
                path(&dir.join("out.bf")).into(),
                path(&pgn).into(),
            ],
        ),
        (
            "train",
            vec![
                "train".into(),
                "--data".into(),
                path(&pgn).into(),
                "--dir".into(),
                path(&dir.join("net")).into(),
                "--epochs".into(),
                "1".into(),
            ],
        ),
    ];
    for (what, args) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = cutoff(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{what}: {err}");
        assert!(
            err.contains("is text") && err.contains("cutoff games import --pgn"),
            "{what}: {err}"
        );
    }
    assert!(!dir.join("out.vf").exists() && !dir.join("out.bf").exists());
}
