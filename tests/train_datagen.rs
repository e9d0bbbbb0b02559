//! Datagen writes whole, decodable records, appends on a second run and
//! repairs a record cut off by an interrupted write.

use std::fs;
use std::path::{Path, PathBuf};

use cutoff::train::datagen::{self, Options, format};

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("cutoff-{name}-{}.bin", std::process::id()));
    let _ = fs::remove_file(&path);
    path
}

fn options(out: &Path) -> Options {
    Options {
        out: out.to_path_buf(),
        games: 2,
        nodes: 300,
        threads: 2,
        seed: 3,
        openings: None,
        random_plies: 8,
        hand_crafted: false,
    }
}

#[test]
fn datagen_appends_whole_labelled_games() {
    let out = temp_file("datagen");
    let first = datagen::run(&options(&out)).expect("datagen runs");
    assert_eq!(first.games, 2);
    let len1 = fs::metadata(&out).expect("file").len();
    assert_eq!(len1, first.positions * format::RECORD_SIZE as u64);
    assert!(first.positions > 0);

    // Simulate a write cut short, then resume: the stub is dropped.
    let mut bytes = fs::read(&out).expect("read");
    bytes.extend_from_slice(&[1, 2, 3]);
    fs::write(&out, &bytes).expect("write");
    let second = datagen::run(&options(&out)).expect("datagen resumes");
    let len2 = fs::metadata(&out).expect("file").len();
    assert_eq!(len2, len1 + second.positions * format::RECORD_SIZE as u64);

    let records = format::read_file(&out).expect("decodes");
    for r in &records {
        assert!(
            r.board.checkers().is_empty(),
            "recorded a position in check"
        );
        assert!([0.0, 0.5, 1.0].contains(&r.result));
        assert!(r.score.abs() < 20_000, "mate scores are not recorded");
    }
    let _ = fs::remove_file(&out);
}

#[test]
fn bad_openings_file_is_a_clear_error() {
    let out = temp_file("datagen-bad");
    let book = temp_file("book");
    fs::write(&book, "not a fen at all\n").expect("write");
    let mut opts = options(&out);
    opts.openings = Some(book.clone());
    let err = datagen::run(&opts).expect_err("must fail");
    assert!(err.contains("line 1"), "{err}");
    let _ = fs::remove_file(&out);
    let _ = fs::remove_file(&book);
}
