//! The little HTTP/1.1 the lab needs: one request per connection, one thread
//! per connection, `Connection: close` on every answer. A browser keeps idle
//! connections open for reuse; closing after each answer means no thread
//! ever waits on an idle socket while a request queues behind it (the
//! pooled server used before could leave a page load waiting forever).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::routes::Reply;

/// Connections served at once; more get a 503 at once.
pub const MAX_CONNECTIONS: usize = 64;
/// A client silent this long (while sending its request, or not reading the
/// answer) is dropped.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The request line and headers together.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A request as the routes see it.
pub struct Request {
    pub method: String,
    pub url: String,
    pub body: Vec<u8>,
}

/// Accepts connections forever, answering each with `handle` in a thread of
/// its own.
pub fn serve<F>(listener: TcpListener, body_limit: usize, handle: F)
where
    F: Fn(Request) -> Reply + Send + Sync + 'static,
{
    let handle = Arc::new(handle);
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                // Say, out of file descriptors: wait, go on.
                eprintln!("lab serve: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::AcqRel);
            let busy = Reply::error(503, "too many connections; try again");
            let _ = write_reply(&stream, &busy);
            continue;
        }
        let (handle, open) = (handle.clone(), open.clone());
        std::thread::spawn(move || {
            connection(stream, body_limit, &*handle);
            open.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

fn connection(stream: TcpStream, body_limit: usize, handle: &dyn Fn(Request) -> Reply) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let reply = match read_request(&stream, body_limit) {
        Ok(request) => handle(request),
        // The client went away or stayed silent: nobody to answer.
        Err(None) => return,
        Err(Some(reply)) => reply,
    };
    let _ = write_reply(&stream, &reply);
}

/// The request, or the error to answer with (`None`: the connection is gone).
fn read_request(stream: &TcpStream, body_limit: usize) -> Result<Request, Option<Reply>> {
    let mut reader = BufReader::new(stream);
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let n = (&mut reader)
            .take((MAX_HEAD_BYTES + 1 - before) as u64)
            .read_until(b'\n', &mut head)
            .map_err(|_| None)?;
        if n == 0 {
            return Err(None);
        }
        if head.len() > MAX_HEAD_BYTES {
            return Err(Some(Reply::error(431, "request head too large")));
        }
        let line = &head[before..];
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let bad = |m: &str| Some(Reply::error(400, m));
    let head = String::from_utf8(head).map_err(|_| bad("request head is not UTF-8"))?;
    let mut lines = head.lines();
    let mut first = lines.next().unwrap_or("").split(' ');
    let (method, url) = match (first.next(), first.next(), first.next()) {
        (Some(m), Some(u), Some(v)) if !m.is_empty() && v.starts_with("HTTP/1.") => (m, u),
        _ => return Err(bad("malformed request line")),
    };
    let mut length = 0usize;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse().map_err(|_| bad("bad Content-Length"))?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Some(Reply::error(
                411,
                "send the body with a Content-Length",
            )));
        }
    }
    if length > body_limit {
        let message = format!("request body over {body_limit} bytes");
        return Err(Some(Reply::error(413, &message)));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|_| None)?;
    Ok(Request {
        method: method.to_string(),
        url: url.to_string(),
        body,
    })
}

fn write_reply(mut stream: &TcpStream, reply: &Reply) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&reply.body)?;
    stream.flush()?;
    // Read what the client may still send, so closing does not reset the
    // connection before it has read the answer.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = std::io::copy(&mut stream.take(1 << 16), &mut std::io::sink());
    Ok(())
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}
