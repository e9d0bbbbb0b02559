//! Which handler answers a request: the page's files, the JSON API, and
//! JSON errors for everything else.

use serde_json::{Value as Json, json};

use super::api::{self, ApiError, ApiResult, bad, parse};
use super::assets;
use super::experiments;
use super::jobs::Jobs;
use super::limits::LIMITS;

/// An answer: status, content type, body.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, value: &Json) -> Self {
        Self {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    /// `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Self {
        Self::json(status, &json!({ "error": message }))
    }
}

/// The server's state shared by the request threads.
#[derive(Default)]
pub struct State {
    pub jobs: Jobs,
}

/// Answers one request. `url` may carry a query string (ignored).
pub fn route(method: &str, url: &str, body: &[u8], state: &State) -> Reply {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    if !path.starts_with("/api/") {
        return match (method, assets::get(path)) {
            ("GET" | "HEAD", Some((content_type, text))) => Reply {
                status: 200,
                content_type,
                body: text.as_bytes().to_vec(),
            },
            (_, Some(_)) => Reply::error(405, &format!("{method} is not allowed on {path}")),
            (_, None) => Reply::error(404, &format!("no page {path}")),
        };
    }
    match api(method, path, body, state) {
        Ok(value) => Reply::json(200, &value),
        Err(e) => Reply::error(e.status, &e.message),
    }
}

fn not_found(path: &str) -> ApiError {
    ApiError {
        status: 404,
        message: format!("no API endpoint {path}"),
    }
}

fn api(method: &str, path: &str, body: &[u8], state: &State) -> ApiResult {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').skip(2).collect();
    match (method, parts.as_slice()) {
        ("GET", ["limits"]) => Ok(serde_json::to_value(&LIMITS).unwrap_or(Json::Null)),
        ("POST", ["position"]) => api::position(parse(body)?),
        ("POST", ["tictactoe"]) => api::tictactoe(parse(body)?),
        ("POST", ["tree"]) => api::tree(parse(body)?),
        ("POST", ["jobs"]) => experiments::start(&state.jobs, parse(body)?),
        ("GET", ["jobs", id]) => job(state, id, false),
        ("POST", ["jobs", id, "cancel"]) => job(state, id, true),
        (_, ["limits" | "position" | "tictactoe" | "tree" | "jobs", ..]) => Err(ApiError {
            status: 405,
            message: format!("{method} is not allowed on {path}"),
        }),
        _ => Err(not_found(path)),
    }
}

fn job(state: &State, id: &str, cancel: bool) -> ApiResult {
    let id: u64 = id
        .parse()
        .map_err(|_| bad(format!("'{id}' is not a job id")))?;
    let status = if cancel {
        state.jobs.cancel(id)
    } else {
        state.jobs.status(id)
    };
    let status = status.ok_or_else(|| ApiError {
        status: 404,
        message: format!("no job {id} (finished jobs are forgotten after a while)"),
    })?;
    serde_json::to_value(status).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(path: &str) -> Reply {
        route("GET", path, b"", &State::default())
    }

    fn post(path: &str, body: &str) -> (u16, Json) {
        let r = route("POST", path, body.as_bytes(), &State::default());
        (r.status, serde_json::from_slice(&r.body).unwrap())
    }

    #[test]
    fn pages_and_errors() {
        assert_eq!(get("/").status, 200);
        assert_eq!(
            get("/app.js").content_type,
            "text/javascript; charset=utf-8"
        );
        assert_eq!(get("/nothing").status, 404);
        assert_eq!(get("/api/nothing").status, 404);
        assert_eq!(get("/api/tree").status, 405);
        assert_eq!(get("/api/jobs/x").status, 400);
        assert_eq!(get("/api/jobs/7").status, 404);
        let (status, v) = post("/api/position", r#"{"fen": "not a fen"}"#);
        assert_eq!(status, 400);
        assert!(v["error"].as_str().unwrap().starts_with("FEN"));
        assert_eq!(post("/api/position", "{").0, 400);
        assert_eq!(post("/api/position", r#"{"fen": "", "x": 1}"#).0, 400);
    }

    #[test]
    fn positions_and_moves() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let body = format!(r#"{{"fen": "{start}", "moves": ["e2e4"]}}"#);
        let (status, v) = post("/api/position", &body);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["side"], "black");
        assert_eq!(v["moves"].as_array().unwrap().len(), 20);
        assert_eq!(v["squares"][36], "P");
        let body = format!(r#"{{"fen": "{start}", "moves": ["e2e5"]}}"#);
        let (status, v) = post("/api/position", &body);
        assert_eq!(status, 400);
        assert!(v["error"].as_str().unwrap().contains("e2e5"), "{v}");
        let (status, v) = post("/api/tictactoe", r#"{"moves": "b2 a1"}"#);
        assert_eq!(status, 200);
        assert_eq!(
            (v["cells"][0].as_str(), v["cells"][4].as_str()),
            (Some("O"), Some("X"))
        );
    }

    #[test]
    fn trees_and_their_limits() {
        let (status, v) = post(
            "/api/tree",
            r#"{"game": "text", "text": "max(min(3,5),min(2,1))"}"#,
        );
        assert_eq!(status, 200);
        assert_eq!(
            (v["value"].as_i64(), v["pruned"].as_u64()),
            (Some(3), Some(1))
        );
        let (status, v) = post("/api/tree", r#"{"game": "chess", "depth": 9}"#);
        assert_eq!(status, 400);
        assert!(v["error"].as_str().unwrap().contains("depth"));
        let (status, _) = post("/api/tree", r#"{"game": "text", "text": "max("}"#);
        assert_eq!(status, 400);
    }
}
