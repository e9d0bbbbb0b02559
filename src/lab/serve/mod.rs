//! `cutoff lab serve`: the laboratory as a local web application. The page
//! (plain HTML, CSS and JavaScript in `web/`, compiled in) draws positions,
//! trees, tables and charts; every number comes from the lab's code through
//! a small JSON API. Requests are answered by a few threads; long
//! experiments run as jobs in threads of their own (see `jobs.rs`).

pub mod api;
mod assets;
pub mod experiments;
pub mod jobs;
pub mod limits;
pub mod routes;
pub mod trace;

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tiny_http::{Header, Request, Response, Server};

use limits::{LIMITS, WORKERS};
use routes::{Reply, State};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one. The first line printed is
    /// `listening on http://HOST:PORT/`.
    #[arg(long, default_value_t = 8357)]
    port: u16,
    /// Address to listen on. The default keeps the lab on this machine; the
    /// lab has no authentication, so open it to others with care.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the desktop's browser (xdg-open, or open on macOS).
    #[arg(long)]
    open: bool,
}

/// Serves until the process is stopped (Ctrl-C).
pub fn run(args: &ServeArgs) -> Result<(), String> {
    let wanted = SocketAddr::new(args.host, args.port);
    let server = Server::http(wanted).map_err(|e| format!("cannot listen on {wanted}: {e}"))?;
    let addr = server.server_addr().to_ip().unwrap_or(wanted);
    let url = format!("http://{addr}/");
    println!("listening on {url}");
    if !args.host.is_loopback() {
        eprintln!("warning: the lab has no authentication; anyone who reaches {url} can use it");
    }
    eprintln!("the search laboratory: open {url} in a browser; Ctrl-C stops the server");
    if args.open {
        open_browser(url);
    }
    let state = Arc::new(State::default());
    let reaper = state.clone();
    let poll_timeout = Duration::from_secs(LIMITS.poll_timeout_s);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(500));
            reaper.jobs.reap(poll_timeout);
        }
    });
    let server = Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, state) = (server.clone(), state.clone());
            std::thread::spawn(move || serve(&server, &state))
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// One request thread: answers requests as long as the server runs.
fn serve(server: &Server, state: &State) {
    loop {
        match server.recv() {
            Ok(request) => answer(request, state),
            Err(e) => {
                // A failed accept (say, out of file descriptors): wait, go on.
                eprintln!("lab serve: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

fn answer(mut request: Request, state: &State) {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let reply = match read_body(&mut request) {
        Ok(body) => catch_unwind(AssertUnwindSafe(|| {
            routes::route(&method, &url, &body, state)
        }))
        .unwrap_or_else(|_| Reply::error(500, "internal error (a bug in the lab)")),
        Err(reply) => reply,
    };
    let mut response = Response::from_data(reply.body).with_status_code(reply.status);
    for (name, value) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
    ] {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // A client that went away does not need an answer.
    let _ = request.respond(response);
}

/// The request body, refused beyond the limit.
fn read_body(request: &mut Request) -> Result<Vec<u8>, Reply> {
    let too_large = || {
        Reply::error(
            413,
            &format!("request body over {} bytes", LIMITS.body_bytes),
        )
    };
    if request.body_length().is_some_and(|n| n > LIMITS.body_bytes) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    let limit = LIMITS.body_bytes as u64 + 1;
    request
        .as_reader()
        .take(limit)
        .read_to_end(&mut body)
        .map_err(|e| Reply::error(400, &format!("cannot read the request body: {e}")))?;
    if body.len() > LIMITS.body_bytes {
        return Err(too_large());
    }
    Ok(body)
}

/// Starts the desktop's browser on `url`; if that fails, says so (the URL
/// was printed already).
fn open_browser(url: String) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::thread::spawn(move || {
        let status = Command::new(opener)
            .arg(&url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !status.is_ok_and(|s| s.success()) {
            println!("could not start a browser with {opener}; open {url}");
        }
    });
}
