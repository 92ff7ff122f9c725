//! Just enough HTTP/1.1 for the scripted model: read one request at a time from a connection
//! (a `Content-Length` or chunked body, `Expect: 100-continue`), and write a plain response
//! or a chunked stream.
//!
//! Why hand-written: the server answers one client (Codex's HTTP stack) on loopback, and an
//! HTTP framework would bring an async runtime into a crate every test links. Every read
//! polls a stop condition, so a connection never outlives the server's deadline.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// How long a single read waits before the stop condition is checked again.
const POLL: Duration = Duration::from_millis(100);
/// How long the rest of a request may take once its first byte has arrived, and how long a
/// write may block.
pub(crate) const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// Request heads longer than this are refused.
const MAX_HEAD: usize = 64 * 1024;
/// Request bodies longer than this are refused.
const MAX_BODY: usize = 256 * 1024 * 1024;

/// One request as read from the wire: header names lowercased, the body de-chunked.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    /// The client asked to close the connection after this request (`Connection: close`,
    /// or HTTP/1.0 without `keep-alive`).
    pub(crate) close: bool,
    /// HTTP/1.1, so the answer may use chunked encoding.
    pub(crate) http11: bool,
}

impl Request {
    /// The first value of a header (`name` lowercase).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A server-side connection: the socket and the bytes read past the last request.
#[derive(Debug)]
pub(crate) struct Connection {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Connection {
    /// Wraps an accepted socket, with the poll-sized read timeout and [`IO_TIMEOUT`] for
    /// writes.
    pub(crate) fn new(stream: TcpStream) -> io::Result<Connection> {
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(POLL))?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            stream,
            buf: Vec::new(),
        })
    }

    /// Reads the next request. `Ok(None)` when the client closed the connection between
    /// requests, or `stop()` became true while waiting for one.
    ///
    /// # Errors
    ///
    /// A malformed or oversized request (`InvalidData`), a request that stalls for more
    /// than [`IO_TIMEOUT`] or is cut off (`TimedOut`, `UnexpectedEof`), or a socket error.
    pub(crate) fn read_request(&mut self, stop: &dyn Fn() -> bool) -> io::Result<Option<Request>> {
        let head_end = loop {
            if let Some(end) = find(&self.buf, b"\r\n\r\n") {
                break end;
            }
            if self.buf.len() > MAX_HEAD {
                return Err(invalid("request head too long"));
            }
            let idle = self.buf.is_empty();
            let budget = if idle { None } else { Some(IO_TIMEOUT) };
            if !self.fill(stop, budget)? {
                return if idle {
                    Ok(None)
                } else {
                    Err(io::ErrorKind::UnexpectedEof.into())
                };
            }
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).into_owned();
        self.buf.drain(..head_end + 4);
        let mut request = parse_head(&head)?;
        if request
            .header("expect")
            .is_some_and(|value| value.eq_ignore_ascii_case("100-continue"))
        {
            self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        }
        let deadline = Instant::now() + IO_TIMEOUT;
        let chunked = request
            .header("transfer-encoding")
            .is_some_and(|value| value.to_ascii_lowercase().contains("chunked"));
        request.body = if chunked {
            self.read_chunked(stop, deadline)?
        } else {
            let length = match request.header("content-length") {
                Some(value) => value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| invalid("bad content-length"))?,
                None => 0,
            };
            if length > MAX_BODY {
                return Err(invalid("request body too long"));
            }
            self.take(length, stop, deadline)?
        };
        Ok(Some(request))
    }

    /// Writes a whole response with a `Content-Length`.
    pub(crate) fn write_response(
        &mut self,
        status: u16,
        content_type: &str,
        body: &[u8],
        close: bool,
    ) -> io::Result<()> {
        let mut head = status_line(status);
        head.push_str(&format!(
            "content-type: {content_type}\r\ncontent-length: {}\r\n",
            body.len()
        ));
        head.push_str(if close {
            "connection: close\r\n\r\n"
        } else {
            "connection: keep-alive\r\n\r\n"
        });
        self.stream.write_all(head.as_bytes())?;
        self.stream.write_all(body)?;
        self.stream.flush()
    }

    /// Starts a streamed response: chunked for HTTP/1.1, else an unframed body ended by
    /// closing the connection.
    pub(crate) fn start_stream(
        &mut self,
        status: u16,
        content_type: &str,
        http11: bool,
        close: bool,
    ) -> io::Result<()> {
        let mut head = status_line(status);
        head.push_str(&format!(
            "content-type: {content_type}\r\ncache-control: no-cache\r\n"
        ));
        if http11 {
            head.push_str("transfer-encoding: chunked\r\n");
        }
        head.push_str(if close || !http11 {
            "connection: close\r\n\r\n"
        } else {
            "connection: keep-alive\r\n\r\n"
        });
        self.stream.write_all(head.as_bytes())?;
        self.stream.flush()
    }

    /// Writes one piece of a streamed body (a chunk under HTTP/1.1) and flushes it.
    pub(crate) fn write_piece(&mut self, bytes: &[u8], http11: bool) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if http11 {
            // One write per chunk, so a reader sees whole chunks wherever it can.
            let mut chunk = format!("{:x}\r\n", bytes.len()).into_bytes();
            chunk.extend_from_slice(bytes);
            chunk.extend_from_slice(b"\r\n");
            self.stream.write_all(&chunk)?;
        } else {
            self.stream.write_all(bytes)?;
        }
        self.stream.flush()
    }

    /// Ends a streamed body (the last chunk under HTTP/1.1).
    pub(crate) fn finish_stream(&mut self, http11: bool) -> io::Result<()> {
        if http11 {
            self.stream.write_all(b"0\r\n\r\n")?;
        }
        self.stream.flush()
    }

    /// Closes both directions; errors are ignored (the peer may be gone already).
    pub(crate) fn shutdown(&self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }

    fn read_chunked(&mut self, stop: &dyn Fn() -> bool, deadline: Instant) -> io::Result<Vec<u8>> {
        let mut body = Vec::new();
        loop {
            let line = self.take_line(stop, deadline)?;
            let size_text = line.split(';').next().unwrap_or_default().trim();
            let size =
                usize::from_str_radix(size_text, 16).map_err(|_| invalid("bad chunk size"))?;
            if size == 0 {
                // Trailer fields, if any, up to the empty line.
                while !self.take_line(stop, deadline)?.is_empty() {}
                return Ok(body);
            }
            if body.len() + size > MAX_BODY {
                return Err(invalid("request body too long"));
            }
            body.extend(self.take(size, stop, deadline)?);
            if !self.take_line(stop, deadline)?.is_empty() {
                return Err(invalid("chunk not followed by CRLF"));
            }
        }
    }

    /// The next line (without its CRLF).
    fn take_line(&mut self, stop: &dyn Fn() -> bool, deadline: Instant) -> io::Result<String> {
        loop {
            if let Some(end) = find(&self.buf, b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                self.buf.drain(..end + 2);
                return Ok(line);
            }
            if self.buf.len() > MAX_HEAD {
                return Err(invalid("line too long"));
            }
            self.fill_before(stop, deadline)?;
        }
    }

    /// Exactly `count` bytes.
    fn take(
        &mut self,
        count: usize,
        stop: &dyn Fn() -> bool,
        deadline: Instant,
    ) -> io::Result<Vec<u8>> {
        while self.buf.len() < count {
            self.fill_before(stop, deadline)?;
        }
        Ok(self.buf.drain(..count).collect())
    }

    fn fill_before(&mut self, stop: &dyn Fn() -> bool, deadline: Instant) -> io::Result<()> {
        let budget = deadline.saturating_duration_since(Instant::now());
        if self.fill(stop, Some(budget))? {
            Ok(())
        } else {
            Err(io::ErrorKind::UnexpectedEof.into())
        }
    }

    /// Reads at least one more byte into the buffer: `Ok(false)` at end of stream or (when
    /// waiting without a budget) once `stop()` is true; `TimedOut` when the budget runs out
    /// or `stop()` becomes true mid-request.
    fn fill(&mut self, stop: &dyn Fn() -> bool, budget: Option<Duration>) -> io::Result<bool> {
        let started = Instant::now();
        let mut chunk = [0_u8; 16 * 1024];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(read) => {
                    self.buf.extend_from_slice(&chunk[..read]);
                    return Ok(true);
                }
                Err(err)
                    if matches!(
                        err.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    let out_of_time = budget.is_some_and(|budget| started.elapsed() >= budget);
                    if stop() && budget.is_none() {
                        return Ok(false);
                    }
                    if stop() || out_of_time {
                        return Err(io::ErrorKind::TimedOut.into());
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    }
}

/// `HTTP/1.1 <status> <reason>\r\n`.
fn status_line(status: u16) -> String {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    };
    format!("HTTP/1.1 {status} {reason}\r\n")
}

fn parse_head(head: &str) -> io::Result<Request> {
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(path), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(invalid("bad request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(invalid("not HTTP/1.x"));
    }
    let http11 = version != "HTTP/1.0";
    let mut headers = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return Err(invalid("bad header line"));
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let connection = headers
        .iter()
        .filter(|(name, _)| name == "connection")
        .map(|(_, value)| value.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",");
    let close = if http11 {
        connection.contains("close")
    } else {
        !connection.contains("keep-alive")
    };
    Ok(Request {
        method: method.to_owned(),
        path: path.to_owned(),
        headers,
        body: Vec::new(),
        close,
        http11,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}
