//! Game files and datagen: every position reads back as it was written, in
//! either format version, the same command gives the same bytes with one
//! thread or two and when resumed after a cut (a file of the old version is
//! finished in that version), damage is named by file and byte offset with
//! the games before it kept, and the trainer's filters drop what they say.

use std::fs;
use std::path::{Path, PathBuf};

use cutoff_engine::board::{Board, Position, fen};
use cutoff_engine::search::{Shared, ThreadPool};
use cutoff_train::datagen::game::{self, GameConfig, OnPool, Rng};
use cutoff_train::datagen::{self, Options};
use cutoff_train::games::positions::{self, Counts, Filter};
use cutoff_train::games::{self, GameRecord};

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("cutoff-{name}-{}.games", std::process::id()));
    let _ = fs::remove_file(&path);
    path
}

fn options(out: &Path, threads: usize) -> Options {
    Options {
        out: out.to_path_buf(),
        games: 4,
        threads,
        seed: 3,
        openings: None,
        game: GameConfig {
            soft_nodes: 300,
            hard_nodes: 3000,
            random_plies: 8,
            verify_depth: 3,
            chess960: false,
            hand_crafted: false,
        },
    }
}

/// Random games (standard and Chess960 starts, so castling, en passant and
/// promotions occur) with the FEN of every position, as written.
fn random_games(count: usize) -> (Vec<GameRecord>, Vec<Vec<String>>) {
    let mut rng = Rng::new(11);
    let (mut records, mut fens) = (Vec::new(), Vec::new());
    for g in 0..count {
        let start = if g % 2 == 0 {
            Board::default()
        } else {
            Board::chess960_startpos(rng.below(960) as u32)
        };
        let mut pos = Position::new(start.clone(), g % 2 == 1);
        let (mut plies, mut seen) = (Vec::new(), Vec::new());
        while plies.len() < 300 && pos.has_legal_move() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            seen.push(fen::to_fen(pos.board(), true));
            plies.push((mv, (rng.next_u64() % 4001) as i16 - 2000));
            pos.play(mv);
        }
        records.push(GameRecord {
            start,
            result: (g % 3) as u8,
            plies,
        });
        fens.push(seen);
    }
    (records, fens)
}

fn file_of(records: &[GameRecord]) -> Vec<u8> {
    file_in(records, games::VERSION)
}

/// A file of `records` in format `version`.
fn file_in(records: &[GameRecord], version: u8) -> Vec<u8> {
    let mut bytes = header_in(version);
    for r in records {
        bytes.extend(r.encode_in(version));
    }
    bytes
}

fn header_in(version: u8) -> Vec<u8> {
    let mut header = games::header().to_vec();
    header[games::HEADER_BYTES - 1] = version;
    header
}

#[test]
fn every_position_reads_back_fen_identical() {
    let (records, fens) = random_games(40);
    for version in games::VERSIONS {
        let parsed = games::parse(&file_in(&records, version));
        assert!(parsed.damage.is_none(), "{:?}", parsed.damage);
        assert_eq!(
            (parsed.games.as_slice(), parsed.version),
            (records.as_slice(), version)
        );
    }
    // The new version is the smaller: a byte a move instead of two, and
    // these random scores' changes mostly take two bytes (real games' one).
    assert!(file_of(&records).len() * 5 < file_in(&records, 1).len() * 4);
    let parsed = games::parse(&file_of(&records));
    let mut special = [0; 3]; // castling, en passant, promotion
    for (game, want) in parsed.games.iter().zip(&fens) {
        let mut got = Vec::new();
        game.replay(|_, board, mv, _| {
            got.push(fen::to_fen(board, true));
            special[0] += usize::from(board.colors(board.side_to_move()).has(mv.to));
            special[1] += usize::from(board.en_passant().is_some());
            special[2] += usize::from(mv.promotion.is_some());
        });
        assert_eq!(&got, want);
    }
    assert!(
        special.iter().all(|&n| n > 0),
        "castling, ep, promotion: {special:?}"
    );
}

/// Any byte changed, in either version, is read as damage or as other
/// legal games, never a panic; whatever is read replays.
#[test]
fn changed_bytes_never_panic_the_reader() {
    let (records, _) = random_games(4);
    let mut rng = Rng::new(5);
    for version in games::VERSIONS {
        let bytes = file_in(&records, version);
        for _ in 0..400 {
            let mut bad = bytes.clone();
            for _ in 0..1 + rng.below(3) {
                let at = games::HEADER_BYTES + rng.below(bad.len() - games::HEADER_BYTES);
                bad[at] = rng.next_u64() as u8;
            }
            let parsed = games::parse(&bad);
            for game in &parsed.games {
                game.replay(|_, board, mv, _| assert!(board.is_legal(mv)));
            }
        }
    }
}

#[test]
fn damage_names_the_byte_offset_and_keeps_the_games_before() {
    let (records, _) = random_games(3);
    // The second game's first move becomes a1-a2 (not legal at the start) in
    // version 1, a move beyond the start position's 20 in version 2.
    let v1 = file_in(&records, 1);
    let second = games::HEADER_BYTES + records[0].encode_in(1).len();
    let mut bad = v1.clone();
    bad[second + 32..second + 34].copy_from_slice(&(8u16 << 6).to_le_bytes());
    let parsed = games::parse(&bad);
    assert_eq!(parsed.games, records[..1]);
    let damage = parsed.damage.expect("damage found");
    assert_eq!((damage.offset, damage.truncated), (second + 32, false));
    let bytes = file_of(&records);
    let second = games::HEADER_BYTES + records[0].encode().len();
    let mut bad = bytes.clone();
    bad[second + 32] = 20;
    let parsed = games::parse(&bad);
    assert_eq!(parsed.games, records[..1]);
    let damage = parsed.damage.expect("damage found");
    assert_eq!((damage.offset, damage.truncated), (second + 32, false));
    assert!(damage.why.contains("index 20"), "{}", damage.why);

    let cut = games::parse(&bytes[..bytes.len() - 3]);
    assert_eq!(cut.games.len(), 2);
    assert!(cut.damage.expect("cut found").truncated);

    // The trainer reads the whole games and names file and offset.
    let path = temp_file("damaged");
    fs::write(&path, &bad).expect("write");
    let (_, counts) = positions::load(&[&path], &Filter::default()).expect("reads");
    assert_eq!(counts.games, 1);
    let text = &counts.damage[0];
    assert!(text.contains(&path.display().to_string()), "{text}");
    assert!(
        text.contains(&format!("byte offset {}", second + 32)),
        "{text}"
    );
    fs::write(&path, b"CUTOFFG\x09").expect("write");
    let (_, counts) = positions::load(&[&path], &Filter::default()).expect("reads");
    assert!(counts.damage[0].contains("version 9"), "{counts:?}");
    let _ = fs::remove_file(&path);
}

#[test]
fn datagen_gives_the_same_bytes_with_any_thread_count_and_when_resumed() {
    let (one, two, resumed) = (temp_file("dg1"), temp_file("dg2"), temp_file("dg3"));
    let summary = datagen::run(&options(&one, 1)).expect("datagen runs");
    assert_eq!((summary.games, summary.resumed_from), (4, 0));
    let summary2 = datagen::run(&options(&two, 2)).expect("datagen runs");
    // Every stored ply had its search, and a game at most one more (the
    // search whose score ended it); every game checked its start.
    let spent = summary.spent;
    assert!(
        (summary.positions..=summary.positions + 4).contains(&spent.searches),
        "{summary:?}"
    );
    assert!(
        spent.move_nodes >= spent.searches && spent.start_nodes >= 4,
        "{summary:?}"
    );
    assert_eq!(
        spent, summary2.spent,
        "the nodes depend on the thread count"
    );
    let bytes = fs::read(&one).expect("read");
    assert_eq!(
        bytes,
        fs::read(&two).expect("read"),
        "1 and 2 threads differ"
    );

    // A run stopped inside its third game, then run again.
    let parsed = games::parse(&bytes);
    assert!(parsed.damage.is_none());

    // Datagen plays its games whole on a pool thread; the same game searched
    // move by move through a pool is the same.
    let pool = ThreadPool::new(1, Shared::default());
    let opts = options(&one, 1);
    let (again, _) = game::play(
        &opts.game,
        &[Board::default()],
        opts.seed,
        1,
        &mut OnPool(&pool),
    )
    .expect("a game");
    assert_eq!(
        again, parsed.games[1],
        "the game differs when played through the pool"
    );
    let two_games: usize = games::HEADER_BYTES
        + parsed.games[..2]
            .iter()
            .map(|g| g.encode().len())
            .sum::<usize>();
    fs::write(&resumed, &bytes[..two_games + 17]).expect("write");
    let again = datagen::run(&options(&resumed, 2)).expect("resumes");
    assert_eq!((again.games, again.resumed_from), (2, 2));
    assert_eq!(
        bytes,
        fs::read(&resumed).expect("read"),
        "resumed run differs"
    );

    // A file of the old version, stopped inside its third game, is
    // finished in its own version: the same games.
    let mut old = file_in(&parsed.games[..2], 1);
    old.extend(&parsed.games[2].encode_in(1)[..40]);
    fs::write(&resumed, &old).expect("write");
    let again = datagen::run(&options(&resumed, 1)).expect("resumes");
    assert_eq!((again.games, again.resumed_from), (2, 2));
    let finished = fs::read(&resumed).expect("read");
    assert_eq!(
        finished,
        file_in(&parsed.games, 1),
        "not finished in version 1"
    );

    // Bad bytes inside the file: datagen refuses to write after them.
    let mut bad = bytes.clone();
    bad[games::HEADER_BYTES + 31] = 9; // the first game's result
    fs::write(&resumed, &bad).expect("write");
    let err = datagen::run(&options(&resumed, 2)).expect_err("refuses");
    assert!(
        err.contains(&format!("byte offset {}", games::HEADER_BYTES)),
        "{err}"
    );

    // The games are real ones: legal, ended or adjudicated, scored.
    for g in &parsed.games {
        assert!(g.result <= 2 && !g.plies.is_empty());
    }
    for f in [one, two, resumed] {
        let _ = fs::remove_file(f);
    }
}

#[test]
fn chess960_datagen_starts_from_chess960_positions() {
    let out = temp_file("dg960");
    let mut opts = options(&out, 2);
    opts.games = 2;
    opts.game.chess960 = true;
    opts.game.random_plies = 2;
    datagen::run(&opts).expect("datagen runs");
    let parsed = games::read(&out).expect("reads");
    assert!(parsed.damage.is_none());
    // Kings start on e1 only in some Chess960 positions; the seed gives others.
    let e1 = cutoff_engine::board::Square::E1;
    let white_king = |g: &GameRecord| g.start.king(cutoff_engine::board::Color::White);
    assert!(
        parsed.games.iter().any(|g| white_king(g) != e1),
        "no Chess960 start"
    );
    for g in &parsed.games {
        let rights = g.start.castle_rights(cutoff_engine::board::Color::White);
        assert!(rights.short.is_some() || rights.long.is_some());
    }
    let _ = fs::remove_file(out);
}

#[test]
fn filters_drop_what_they_say() {
    // 1. e4 (an opening ply) d5 2. exd5 Qxd5 (captures) 3. Nc3 Qe5+
    // 4. Be2 (played in check) Nf6 (scored beyond the limit).
    let moves = [
        "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2", "g8f6",
    ];
    let mut pos = Position::default();
    let mut plies = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = pos.play_uci(text).expect("legal");
        plies.push((mv, if i == 7 { 5000 } else { 10 }));
    }
    let game = GameRecord {
        start: Board::default(),
        result: 1,
        plies,
    };
    let path = temp_file("filters");
    fs::write(&path, file_of(&[game])).expect("write");
    let filter = Filter {
        skip_plies: 1,
        max_score: 3000,
    };
    let (kept, counts) = positions::load(&[&path], &filter).expect("reads");
    let want = Counts {
        kept: 3,     // d5, Nc3, Qe5+
        opening: 1,  // e4
        in_check: 1, // Be2
        noisy: 2,    // exd5, Qxd5
        score: 1,    // Nf6 at 5000
        games: 1,
        per_file: vec![3],
        ..Counts::default()
    };
    assert_eq!(counts, want);
    assert_eq!(kept.len(), 3);
    let _ = fs::remove_file(path);
}

#[test]
fn bad_openings_file_is_a_clear_error() {
    let out = temp_file("datagen-bad");
    let book = temp_file("book");
    fs::write(&book, "not a fen at all\n").expect("write");
    let mut opts = options(&out, 2);
    opts.openings = Some(book.clone());
    let err = datagen::run(&opts).expect_err("must fail");
    assert!(err.contains("line 1"), "{err}");
    let _ = fs::remove_file(&out);
    let _ = fs::remove_file(&book);
}
