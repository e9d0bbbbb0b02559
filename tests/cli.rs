//! The command line: `cutoff perft` (single position and suite files) and
//! `cutoff bench`, run as a user would run them.

use std::process::{Command, Output};

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The number in the last line, which must be `Nodes searched: <N>`.
fn nodes_searched(text: &str) -> u64 {
    let last = text.lines().last().unwrap_or_default();
    let n = last
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line is '{last}'"));
    n.parse().expect("node count")
}

/// A scratch file unique to this test process.
fn scratch(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cutoff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path.to_string_lossy().into_owned()
}

#[test]
fn perft_ends_with_nodes_searched() {
    let o = cutoff(&["perft", "4"]);
    assert!(o.status.success());
    assert_eq!(nodes_searched(&stdout(&o)), 197_281);
}

#[test]
fn divide_lists_every_root_move_and_sums_to_the_total() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = cutoff(&["perft", "3", "--fen", kiwipete, "--divide"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let split: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(mv, n)| Some((mv.to_string(), n.parse().ok()?)))
        .filter(|(mv, _)| mv.len() <= 5 && !mv.contains(' '))
        .collect();
    assert_eq!(split.len(), 48, "{text}");
    assert!(split.iter().any(|(mv, _)| mv == "e1g1"), "castling as e1g1");
    assert_eq!(split.iter().map(|s| s.1).sum::<u64>(), 97_862);
    assert_eq!(nodes_searched(&text), 97_862);
}

#[test]
fn chess960_divide_writes_castling_as_king_takes_rook() {
    // King f1 castles with the rook next to it on g1.
    let fen = "bnnbrkr1/ppp2p1p/5q2/3pp1p1/4P3/1N4P1/PPPPRP1P/BN1B1KRQ w Gge - 0 9";
    let o = cutoff(&["perft", "2", "--fen", fen, "--chess960", "--divide"]);
    let text = stdout(&o);
    assert!(text.lines().any(|l| l.starts_with("f1g1: ")), "{text}");
    assert_eq!(nodes_searched(&text), 1036);
}

#[test]
fn bad_fen_is_a_clear_error_not_a_panic() {
    let o = cutoff(&["perft", "2", "--fen", "rnbqkbnr/pppppppp w KQkq - 0 1"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn suite_file_passes_and_reports_a_summary() {
    let path = format!(
        "{}/tests/data/perft/chess960_tricky.epd",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = cutoff(&["perft", "--epd", &path, "--max-depth", "3", "--chess960"]);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("6 positions, 18 depth checks passed, 0 mismatches, 0 refused"));
    assert!(nodes_searched(&text) > 0);
}

#[test]
fn suite_file_with_a_wrong_count_fails() {
    let path = scratch(
        "wrong.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;id \"bad\"\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n",
    );
    let o = cutoff(&["perft", "--epd", &path]);
    let text = stdout(&o);
    assert!(!o.status.success(), "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
    assert!(text.contains("(bad): D2 expected 401, got 400"), "{text}");
    assert!(text.contains("2 positions, 2 depth checks passed, 1 mismatches"));
}

#[test]
fn suite_file_reports_refused_positions_and_bad_lines() {
    let path = scratch(
        "refused.epd",
        "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1 ;D1 2 ;id \"imp\"\n",
    );
    let o = cutoff(&["perft", "--epd", &path]);
    let text = stdout(&o);
    assert!(text.contains("REFUSED") && text.contains("(imp)"), "{text}");
    assert!(text.contains("1 refused"), "{text}");

    let bad = scratch("bad.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three\n");
    let o = cutoff(&["perft", "--epd", &bad]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));

    let o = cutoff(&["perft", "--epd", "/nonexistent/suite.epd"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
}

#[test]
fn bench_is_deterministic_and_ends_with_the_openbench_line() {
    let runs: Vec<String> = (0..2)
        .map(|_| {
            let o = cutoff(&["bench", "2"]);
            assert!(o.status.success());
            stdout(&o)
        })
        .collect();
    let counts: Vec<u64> = runs
        .iter()
        .map(|text| {
            let last = text.lines().last().unwrap_or_default();
            let words: Vec<&str> = last.split_whitespace().collect();
            assert!(
                matches!(words[..], ["Bench:", _, "nodes", _, "nps"]),
                "last line '{last}'"
            );
            words[1].parse().expect("node count")
        })
        .collect();
    assert!(counts[0] > 0);
    assert_eq!(
        counts[0], counts[1],
        "bench node count changed between runs"
    );
}

/// The node count of `Bench: <N> nodes <M> nps`, the last line, which
/// must be there.
fn bench_nodes(o: &Output) -> u64 {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(o);
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        matches!(words[..], ["Bench:", _, "nodes", _, "nps"]),
        "last line '{last}'"
    );
    words[1].parse().expect("node count")
}

#[test]
fn bench_takes_stockfish_arguments_and_flags() {
    // A bare depth, Stockfish's order and the flags say the same search.
    let depth3 = bench_nodes(&cutoff(&["bench", "3"]));
    for args in [
        &["bench", "16", "1", "3"][..],
        &["bench", "16", "1", "3", "default", "depth"],
        &["bench", "16", "1", "3", "depth", "default"],
        &["bench", "--depth", "3", "--hash", "16", "--threads", "1"],
    ] {
        assert_eq!(bench_nodes(&cutoff(args)), depth3, "{args:?}");
    }
    // A file of positions (FENs and EPD lines; comments and blank lines
    // skipped), searched to a node limit each.
    let fens = scratch(
        "bench.epd",
        "# two positions\n\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n",
    );
    let o = cutoff(&["bench", "16", "1", "3000", &fens, "nodes"]);
    let nodes = bench_nodes(&o);
    assert!(nodes > 3000 && nodes <= 2 * (3000 + 8), "{nodes}");
    assert!(
        stdout(&o).starts_with("2 positions, nodes 3000, "),
        "{}",
        stdout(&o)
    );
    let flags = cutoff(&["bench", "--nodes", "3000", "--fens", &fens]);
    assert_eq!(bench_nodes(&flags), nodes);
    // Two threads, a fixed time each: the line OpenBench reads, with the
    // settings on the first line.
    let o = cutoff(&["bench", "32", "2", "20", "movetime"]);
    bench_nodes(&o);
    assert!(stdout(&o).contains("movetime 20 ms, Hash 32 MB, Threads 2"));
    for bad in [
        &["bench", "x"][..],
        &["bench", "0", "1", "3"],
        &["bench", "16", "1", "3", "default", "depth", "nodes"],
        &["bench", "16", "1", "3", "/nonexistent/fens.epd"],
        &["bench", "16", "1", "3", "perft"],
        &["bench", "--depth", "3", "--nodes", "5"],
    ] {
        let o = cutoff(bad);
        assert!(!o.status.success(), "{bad:?} succeeded");
        assert!(!o.stderr.is_empty(), "{bad:?}: no message");
    }
}

#[test]
fn speedtest_reports_nodes_and_nodes_per_second() {
    let o = cutoff(&["speedtest", "1", "16", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    let value = |key: &str| -> u64 {
        let line = text.lines().find_map(|l| l.strip_prefix(key));
        let word = line.and_then(|l| l.split_whitespace().next());
        word.and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no '{key}' in {text}"))
    };
    assert_eq!(value("Threads: "), 1);
    assert_eq!(value("Hash: "), 16);
    assert!(value("Total nodes: ") > 0);
    assert!(text.lines().last().unwrap().starts_with("Nodes/second: "));
    assert!(value("Nodes/second: ") > 0);
    let o = cutoff(&["speedtest", "0"]);
    assert!(!o.status.success());
}

/// `cutoff epd ... | head -1`: the reader goes away; the rest of the output
/// is dropped quietly, with success (it used to panic with exit code 101).
#[test]
fn a_closed_stdout_ends_a_subcommand_quietly() {
    use std::io::BufRead;
    use std::process::Stdio;
    // Every line fails (the mate is played, not the king move wanted), and
    // each search takes 200 ms: lines keep coming after the first.
    let line = "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Kf1;";
    let file = scratch("pipe.epd", &format!("{line}\n{line}\n{line}\n"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", &file, "--movetime", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cutoff");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("first line");
    assert!(first.starts_with("failed"), "{first}");
    // The reader is dropped here, as `head -1` exits.
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Mate in one on the back rank (`dm 1`, solved at once), a line with a bad
/// FEN, one with a move that is not legal, and one the engine fails (it mates
/// instead of playing Kf1).
const SUITE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - dm 1; id \"mate\";\n\
                     6k1/5ppp/8 w - - bm Rd8; id \"short\";\n\
                     \n\
                     6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Qh5; id \"illegal\";\n\
                     6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Kf1; id \"fails\";\n";

#[test]
fn epd_skips_bad_lines_with_their_number_and_runs_the_rest() {
    let path = scratch("suite.epd", SUITE);
    let o = cutoff(&["epd", &path, "--movetime", "100"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{out}{err}");
    assert!(err.contains("line 2 skipped"), "{err}");
    assert!(err.contains("line 4 skipped"), "{err}");
    assert!(out.contains("solved 1/2 (2 bad lines skipped)"), "{out}");
    // Scores as UCI writes them, not Rust's `Mate(1)`.
    assert!(
        out.contains("failed fails played a1a8 score mate 1 "),
        "{out}"
    );
}

#[test]
fn epd_need_sets_the_exit_code() {
    let path = scratch("need.epd", SUITE);
    let o = cutoff(&["epd", &path, "--movetime", "100", "--need", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = cutoff(&["epd", &path, "--movetime", "100", "--need", "2"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("solved 1, fewer than --need 2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn epd_with_nothing_readable_fails() {
    let path = scratch("empty.epd", "not an epd line\n8/8 w - - bm e4;\n");
    let o = cutoff(&["epd", &path]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no position could be read"),
        "{}",
        stderr(&o)
    );
}

/// Ten labelled positions in the text format the tuner reads.
fn tune_data() -> String {
    let line = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - c9 \"1-0\";\n";
    scratch("tune.epd", &line.repeat(10))
}

#[test]
fn tune_needs_an_explicit_out() {
    let o = cutoff(&["tune", "--data", &tune_data()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
}

/// Paths are checked before the run: the run's first line (`tune: N
/// positions ...`) must not appear.
#[test]
fn tune_checks_its_paths_before_the_run() {
    let data = tune_data();
    let bad_out = "/nonexistent-dir/weights.rs";
    let o = cutoff(&["tune", "--data", &data, "--out", bad_out, "--epochs", "1"]);
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("cannot write /nonexistent-dir/weights.rs"),
        "{err}"
    );
    assert!(!err.contains("tune:"), "the run started: {err}");

    let out = scratch("weights-never.rs", "");
    std::fs::remove_file(&out).unwrap();
    let o = cutoff(&["tune", "--data", "/nonexistent/data.epd", "--out", &out]);
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("cannot read training data /nonexistent/data.epd"),
        "{err}"
    );
    assert!(
        !std::path::Path::new(&out).exists(),
        "the check left a file"
    );
}

#[test]
fn tune_writes_where_it_is_told() {
    let out = scratch("weights.rs", "");
    std::fs::remove_file(&out).unwrap();
    let args = ["--epochs", "1", "--holdout", "0", "--threads", "1"];
    let o = cutoff(&[&["tune", "--data", &tune_data(), "--out", &out][..], &args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("weights written");
    assert!(text.contains("WEIGHTS"), "{text}");
}

/// OpenBench's datagen: `cutoff "genfens N seed S book B" "quit"`, read as
/// `info string genfens <FEN>` lines; a book's lines are the starts.
#[test]
fn genfens_answers_as_openbench_asks() {
    let o = cutoff(&["genfens 4 seed 9 book None", "quit"]);
    assert!(o.status.success());
    let fens: Vec<String> = stdout(&o)
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens ").map(str::to_string))
        .collect();
    assert_eq!(fens.len(), 4, "{}", stdout(&o));
    let book = scratch(
        "genfens.epd",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2\n",
    );
    let o = cutoff(&[&format!("genfens 3 seed 9 book {book}"), "quit"]);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 3, "{text}");
    for line in text.lines() {
        let f = line
            .strip_prefix("info string genfens ")
            .expect("a genfens line");
        let pos = cutoff_engine::board::Position::from_fen(f, false).expect("legal");
        // Two random plies on top of the book line (its fullmove number 2).
        assert_eq!(pos.board().fullmove_number(), 3, "{f}");
    }
}

/// `make` sets `CUTOFF_EVALFILE` only when `EVALFILE` names a network: set
/// to an empty value it is a change cargo sees, and `make` and `cargo build
/// --release` rebuilt each other's output every time. Read from `make -n`
/// (prints the commands, runs none).
#[test]
fn make_sets_the_network_variable_only_when_asked() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dry = |args: &[&str]| {
        let o = Command::new("make")
            .args(["-n", "-C", root])
            .args(args)
            .env_remove("EVALFILE")
            .output()
            .expect("make (OpenBench builds with it)");
        assert!(o.status.success(), "make -n {args:?}");
        stdout(&o)
    };
    let plain = dry(&[]);
    assert!(plain.contains("cargo build --release"), "{plain}");
    assert!(!plain.contains("CUTOFF_EVALFILE"), "{plain}");
    let named = dry(&["EVALFILE=nets/net11.nnue"]);
    assert!(named.contains("CUTOFF_EVALFILE=\""), "{named}");
    assert!(named.contains("nets/net11.nnue\" cargo build"), "{named}");
}

/// Every `cargo test ... --test NAME` that the docs tell a reader to run
/// names a test target of Cargo.toml (the integration tests are one
/// target, `all`, whose modules a filter picks).
#[test]
fn the_docs_name_only_test_targets_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let targets: Vec<&str> = manifest
        .split("[[test]]")
        .skip(1)
        .filter_map(|t| t.lines().find_map(|l| l.strip_prefix("name = ")))
        .map(|n| n.trim_matches('"'))
        .collect();
    assert!(targets.contains(&"all"), "{targets:?}");
    let mut files = vec![root.join("README.md"), root.join("tools/README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        files.push(entry.expect("docs entry").path());
    }
    let mut checked = 0;
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(file).expect("read doc");
        for (at, _) in text.match_indices("--test ") {
            let name: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            assert!(
                targets.contains(&name.as_str()),
                "{}: '--test {name}' names no test target (targets: {targets:?})",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 3,
        "only {checked} '--test' commands found in the docs"
    );
}
