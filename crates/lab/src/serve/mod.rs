//! `cutoff lab serve`: the laboratory as a local web application. The page
//! (plain HTML, CSS and JavaScript in `web/`, compiled in) draws positions,
//! trees, tables and charts; every number comes from the lab's code through
//! a small JSON API. Each connection is answered by a thread of its own
//! (`http.rs`); long experiments run as jobs in threads of their own
//! (`jobs.rs`).

pub mod api;
mod assets;
pub mod code;
mod estimate;
pub mod experiments;
mod http;
pub mod jobs;
pub mod limits;
pub mod routes;
pub mod trace;

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use http::Request;
use limits::LIMITS;
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
    let listener =
        TcpListener::bind(wanted).map_err(|e| format!("cannot listen on {wanted}: {e}"))?;
    let addr = listener.local_addr().unwrap_or(wanted);
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
    http::serve(listener, LIMITS.body_bytes, move |request| {
        answer(request, &state)
    });
    Ok(())
}

fn answer(request: Request, state: &State) -> Reply {
    let Request { method, url, body } = request;
    catch_unwind(AssertUnwindSafe(|| {
        routes::route(&method, &url, &body, state)
    }))
    .unwrap_or_else(|_| Reply::error(500, "internal error (a bug in the lab)"))
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
