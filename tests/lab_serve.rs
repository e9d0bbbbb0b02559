//! `cutoff lab serve` over plain HTTP: the API's numbers are the CLI's,
//! bad input gets a 400 with a message, limits are enforced, jobs can be
//! cancelled, and requests do not wait for each other.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Only a hang reaches it; nothing here depends on speed.
const TIMEOUT: Duration = Duration::from_secs(120);

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts the server on a free port, read from its first line.
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["lab", "serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start cutoff lab serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(TIMEOUT)
            .expect("the server prints its address");
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("first line should name the address: {line:?}"));
        Self { child, port }
    }

    /// One request on a fresh connection: (status, JSON body).
    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let (status, text) = raw_request(self.port, method, path, body);
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, json)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, None)
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.request("POST", path, Some(&body))
    }

    /// Polls job `id` until it stops running.
    fn wait_job(&self, id: u64) -> Value {
        let started = Instant::now();
        loop {
            let (status, job) = self.get(&format!("/api/jobs/{id}"));
            assert_eq!(status, 200, "{job}");
            if job["state"] != "running" {
                return job;
            }
            assert!(started.elapsed() < TIMEOUT, "job {id} still running: {job}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn start_job(&self, body: Value) -> u64 {
        let (status, v) = self.post("/api/jobs", body);
        assert_eq!(status, 200, "{v}");
        v["id"].as_u64().expect("a job id")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn raw_request(port: u16, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).expect("timeout");
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send");
    stream.write_all(body.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read the answer");
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {answer}"));
    let text = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, text.to_string())
}

/// `cutoff lab compare --json` rows, without the times.
fn cli_compare(fen: &str, depth: u32) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["lab", "compare", "--json", "--fen", fen, "--depth"])
        .arg(depth.to_string())
        .output()
        .expect("run cutoff lab compare");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| without_time(serde_json::from_str(l).expect("JSON line")))
        .collect()
}

fn without_time(mut row: Value) -> Value {
    let map = row.as_object_mut().expect("object");
    map.remove("time_ms");
    map.remove("value_text");
    row
}

#[test]
fn compare_job_gives_the_cli_numbers() {
    let server = Server::start();
    let id = server.start_job(json!({"kind": "compare", "fen": KIWIPETE, "depth": 3}));
    let job = server.wait_job(id);
    assert_eq!(job["state"], "done", "{job}");
    let rows: Vec<Value> = job["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .cloned()
        .map(without_time)
        .collect();
    assert_eq!(rows, cli_compare(KIWIPETE, 3));
    assert_eq!(
        (job["done"].as_u64(), job["total"].as_u64()),
        (Some(15), Some(15))
    );
    let reference = &job["extra"]["reference"];
    assert_eq!(reference["lines"].as_array().map(Vec::len), Some(3));
    assert!(reference["branching"].as_f64().unwrap() > 1.0);
}

#[test]
fn jobs_count_nodes_and_fail_early_over_the_budget() {
    let server = Server::start();
    let id = server.start_job(json!({"kind": "compare", "fen": KIWIPETE, "depth": 6}));
    let job = server.wait_job(id);
    assert_eq!(job["state"], "failed", "{job}");
    let error = job["error"].as_str().unwrap_or("");
    assert!(
        error.contains("node budget") && error.contains("depth 5 fits"),
        "{error}"
    );
    // Minimax alone visits 1 + 48 + 2,039 + 97,862 nodes to depth 3; the
    // count is read in batches of 64 moves.
    let nodes = job["nodes"].as_u64().unwrap_or(0);
    assert!(nodes > 99_000 && nodes < 1_000_000, "{job}");
    assert!(
        job["estimate"].as_u64().unwrap_or(0) > 1_000_000_000,
        "{job}"
    );
    // Fourteen queens: minimax alone would pass the budget at depth 5.
    let queens = "qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ w - - 0 1";
    let id = server.start_job(json!({"kind": "ordering", "fen": queens, "depth": 5}));
    let job = server.wait_job(id);
    let error = job["error"].as_str().unwrap_or("");
    assert!(error.contains("depth 4 fits"), "{job}");
    let id = server.start_job(json!({"kind": "ablate", "fen": KIWIPETE, "depth": 2}));
    let job = server.wait_job(id);
    assert_eq!(job["state"], "done", "{job}");
    let rows = job["rows"].as_array().expect("rows");
    let searched: u64 = rows.iter().filter_map(|r| r["nodes"].as_u64()).sum();
    assert_eq!(job["nodes"].as_u64(), Some(searched), "{job}");
}

#[test]
fn bad_input_is_a_400_with_a_message() {
    let server = Server::start();
    let bad_fen = "rnbqkbnr/pppppppp/8/8 w - - 0 1";
    let (status, v) = server.post("/api/position", json!({ "fen": bad_fen }));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().starts_with("FEN"), "{v}");
    let (status, v) = server.post("/api/jobs", json!({"kind": "compare", "fen": bad_fen}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().starts_with("FEN"), "{v}");
    let (status, v) = server.post("/api/position", json!({"fen": KIWIPETE, "moves": ["e1e3"]}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("e1e3"), "{v}");
    let (status, v) = server.post("/api/tree", json!({"game": "text", "text": "max(1,"}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("byte"), "{v}");
    let (status, _) = server.post("/api/jobs", json!({"kind": "nothing"}));
    assert_eq!(status, 400);
    let (status, _) = raw_request(server.port, "POST", "/api/jobs", None);
    assert_eq!(status, 400, "an empty body");
    assert_eq!(server.get("/api/jobs/424242").0, 404);
}

#[test]
fn requests_over_the_limits_are_refused() {
    let server = Server::start();
    let (_, limits) = server.get("/api/limits");
    let max = limits["compare_depth"].as_u64().unwrap();
    let (status, v) = server.post("/api/jobs", json!({"kind": "compare", "depth": max + 1}));
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("depth must be 1 to"),
        "{v}"
    );
    let deep = limits["chess_tree_depth"].as_u64().unwrap() + 1;
    let (status, _) = server.post("/api/tree", json!({"game": "chess", "depth": deep}));
    assert_eq!(status, 400);
    let (status, v) = server.post("/api/jobs", json!({"kind": "ablate", "positions": 1000}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("positions"), "{v}");
    // A negative count gets the range's words, not the JSON parser's.
    for (kind, field) in [
        ("ordering", "positions"),
        ("ordering", "depth"),
        ("ablate", "depth"),
        ("compare", "runs"),
        ("scores", "depth"),
    ] {
        let (status, v) = server.post("/api/jobs", json!({"kind": kind, field: -1}));
        assert_eq!(status, 400);
        let error = v["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("{field} must be 1 to")),
            "{kind} {field}: {v}"
        );
        assert!(error.ends_with("(got -1)"), "{kind} {field}: {v}");
    }
    let (status, v) = server.post("/api/jobs", json!({"kind": "ordering", "seed": -1}));
    assert_eq!(status, 400);
    assert_eq!(v["error"], "seed must be 0 or more (got -1)");
    // Tic-tac-toe from the empty board is over the tree's node limit.
    let (status, v) = server.post("/api/tree", json!({"game": "tictactoe", "depth": 9}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("nodes"), "{v}");
}

#[test]
fn published_numbers_beside_compare_and_scores() {
    let server = Server::start();
    let id = server.start_job(json!({"kind": "compare", "depth": 3, "published": true,
        "textbook_only": true, "runs": 3}));
    let job = server.wait_job(id);
    assert_eq!(job["state"], "done", "{job}");
    let rows = job["rows"].as_array().expect("rows");
    let (minimax, alphabeta) = (&rows[4], &rows[5]);
    assert_eq!(
        (&minimax["nodes"], &minimax["published_nodes"]),
        (&json!(2096), &json!(988))
    );
    assert_eq!(minimax["published_swapped"], true);
    assert_eq!(
        (&alphabeta["nodes"], &alphabeta["published_nodes"]),
        (&json!(988), &json!(2096))
    );
    assert_eq!(rows[3]["published_swapped"], false);
    assert_eq!(rows[0]["published_s"], 0.027);
    for row in rows {
        let t = &row["timing"];
        assert_eq!(t["runs"], 3, "{row}");
        let (lo, mid, hi) = (
            t["min_ms"].as_f64(),
            row["time_ms"].as_f64(),
            t["max_ms"].as_f64(),
        );
        assert!(lo <= mid && mid <= hi, "{row}");
    }
    let id = server.start_job(json!({"kind": "scores", "depth": 3}));
    let job = server.wait_job(id);
    assert_eq!(job["state"], "done", "{job}");
    let rows = job["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 16);
    assert!(rows.iter().all(|r| r["agrees"] == true), "{job}");
    let last = &rows[15];
    assert_eq!(
        (&last["move"], &last["score_text"], &last["published"]),
        (&json!("a1a6"), &json!("+M3"), &json!("inf"))
    );
    // Another depth, or another position, has no published column.
    let id = server.start_job(json!({"kind": "scores", "depth": 1, "fen": KIWIPETE}));
    let job = server.wait_job(id);
    assert_eq!(job["rows"].as_array().map(Vec::len), Some(48));
    assert!(job["rows"][0].get("published").is_none(), "{job}");
}

#[test]
fn a_cancelled_job_stops_and_others_still_answer() {
    let server = Server::start();
    // Minutes of work: minimax to depth 6 in a middlegame.
    let id = server.start_job(json!({"kind": "compare", "fen": KIWIPETE, "depth": 6}));
    let (status, tree) = server.post(
        "/api/tree",
        json!({"game": "text", "text": "A:max(B:min(D:3,E:5),C:min(F:2,G:1))"}),
    );
    assert_eq!(status, 200, "{tree}");
    let entered: Vec<&str> = tree["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "enter")
        .map(|s| {
            tree["nodes"][s["node"].as_u64().unwrap() as usize]["edge"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(entered, ["", "B", "D", "E", "C", "F"]);
    assert_eq!(tree["pv"], json!(["B", "D"]));
    let (status, _) = server.post(&format!("/api/jobs/{id}/cancel"), json!({}));
    assert_eq!(status, 200);
    assert_eq!(server.wait_job(id)["state"], "cancelled");
}

#[test]
fn concurrent_requests_both_answer() {
    let server = Server::start();
    let port = server.port;
    let body = json!({"game": "chess", "fen": KIWIPETE, "depth": 3});
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || raw_request(port, "POST", "/api/tree", Some(&body)))
        })
        .collect();
    let answers: Vec<(u16, String)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(answers[0].0, 200, "{}", answers[0].1);
    assert_eq!(answers[0], answers[1]);
    let (status, page) = raw_request(port, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<title>Cutoff search laboratory</title>"));
}

#[test]
fn idle_connections_do_not_hold_up_requests() {
    // A browser opens connections ahead of need and leaves some idle; more
    // idle ones than a small thread pool has must not stall a page load.
    let server = Server::start();
    let idle: Vec<TcpStream> = (0..12)
        .map(|_| TcpStream::connect(("127.0.0.1", server.port)).expect("connect"))
        .collect();
    // Half a request on a few more: the server waits for the rest.
    let partial: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
            s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .expect("send");
            s
        })
        .collect();
    for path in ["/", "/app.js", "/app.css", "/api/limits"] {
        let (status, text) = raw_request(server.port, "GET", path, None);
        assert_eq!(status, 200, "{path}: {text}");
        assert!(!text.is_empty(), "{path}");
    }
    // Every answer closes its connection.
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).expect("timeout");
    stream
        .write_all(b"GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("send");
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .expect("the server closes after answering");
    assert!(answer.contains("Connection: close"), "{answer}");
    drop((idle, partial));
}

#[test]
fn the_tree_answer_carries_the_form_and_the_lines() {
    let server = Server::start();
    let aj =
        "A:max(B:min(E:max(3,5),F:max(11,9)),C:min(G:max(15),H:max(4)),D:min(I:max(4),J:max(1)))";
    // The chapter's worked trace: fail-hard, strict test; J is searched.
    let req = json!({"game": "text", "text": aj, "algorithm": "failhard", "test": ">"});
    let (status, tree) = server.post("/api/tree", req);
    assert_eq!(status, 200, "{tree}");
    assert_eq!(tree["test"], ">");
    assert_eq!(tree["distinct_leaves"], 7);
    let text = tree["pseudocode"].as_array().unwrap();
    assert!(
        text.iter()
            .any(|l| l.as_str().unwrap().contains("if value > β"))
    );
    let steps = tree["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .all(|s| !s["lines"].as_array().unwrap().is_empty())
    );
    // PVS has no strict form; an unknown test is refused too.
    for (algorithm, test) in [("pvs", ">"), ("failsoft", "=>")] {
        let req = json!({"game": "text", "text": aj, "algorithm": algorithm, "test": test});
        let (status, v) = server.post("/api/tree", req);
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("test"), "{v}");
    }
}
