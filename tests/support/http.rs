//! A minimal HTTP/1.1 server for the fake Discord: keep-alive connections,
//! `Content-Length` and chunked request bodies, and multipart form parsing.
//! (The bot's client is reqwest/hyper; nothing fancier is needed, and no
//! server crate has to be compiled.)

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    /// Query parameters, decoded (serenity writes `?&k=v`).
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(status: u16, body: &serde_json::Value) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: serde_json::to_vec(body).expect("JSON serializes"),
        }
    }

    pub fn empty(status: u16) -> Response {
        Response {
            status,
            headers: vec![],
            body: vec![],
        }
    }

    pub fn with_header(mut self, k: &str, v: impl ToString) -> Response {
        self.headers.push((k.to_string(), v.to_string()));
        self
    }
}

pub type Handler = Arc<dyn Fn(Request) -> Pin<Box<dyn Future<Output = Response> + Send>> + Send + Sync>;

/// Serve `listener` forever, one task per connection.
pub async fn serve(listener: TcpListener, handler: Handler) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let handler = handler.clone();
        tokio::spawn(async move {
            let _ = connection(stream, handler).await;
        });
    }
}

async fn connection(mut stream: TcpStream, handler: Handler) -> std::io::Result<()> {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let Some(req) = read_request(&mut stream, &mut buf).await? else {
            return Ok(());
        };
        let close = req
            .header("connection")
            .is_some_and(|c| c.eq_ignore_ascii_case("close"));
        let resp = handler(req).await;
        let mut head = format!("HTTP/1.1 {} {}\r\n", resp.status, reason(resp.status));
        for (k, v) in &resp.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", resp.body.len()));
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&resp.body).await?;
        stream.flush().await?;
        if close {
            return Ok(());
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        _ => "Status",
    }
}

async fn fill(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut chunk = [0u8; 16 * 1024];
    let n = stream.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n > 0)
}

async fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Option<Request>> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    // The head.
    let head_len = loop {
        if let Some(i) = find(buf, b"\r\n\r\n") {
            break i + 4;
        }
        if !fill(stream, buf).await? {
            return Ok(None);
        }
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut parsed = httparse::Request::new(&mut headers);
    parsed.parse(&buf[..head_len]).map_err(|e| bad(&e.to_string()))?;
    let method = parsed.method.unwrap_or("").to_string();
    let target = parsed.path.unwrap_or("/").to_string();
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| (h.name.to_string(), String::from_utf8_lossy(h.value).into_owned()))
        .collect();
    buf.drain(..head_len);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };

    // The body.
    let body = if header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked")) {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(buf, b"\r\n") {
                    break i;
                }
                if !fill(stream, buf).await? {
                    return Err(bad("eof in chunk size"));
                }
            };
            let size_text = String::from_utf8_lossy(&buf[..line_end]).to_string();
            let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| bad("bad chunk size"))?;
            buf.drain(..line_end + 2);
            while buf.len() < size + 2 {
                if !fill(stream, buf).await? {
                    return Err(bad("eof in chunk"));
                }
            }
            body.extend_from_slice(&buf[..size]);
            buf.drain(..size + 2);
            if size == 0 {
                break;
            }
        }
        body
    } else {
        let len: usize = header("content-length")
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(0);
        while buf.len() < len {
            if !fill(stream, buf).await? {
                return Err(bad("eof in body"));
            }
        }
        buf.drain(..len).collect()
    };

    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_string(), parse_query(q)),
        None => (target, vec![]),
    };
    Ok(Some(Request {
        method,
        path,
        query,
        headers,
        body,
    }))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// `&a=1&b=x%20y` → [(a, 1), (b, x y)]; empty pieces (serenity's leading
/// `&`) are skipped.
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (super::openapi::percent_decode(k), super::openapi::percent_decode(v))
        })
        .collect()
}

/// One part of a multipart form.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// Split a `multipart/form-data` body into its parts.
pub fn parse_multipart(content_type: &str, body: &[u8]) -> Result<Vec<Part>, String> {
    let boundary = content_type
        .split(';')
        .map(str::trim)
        .find_map(|p| p.strip_prefix("boundary="))
        .map(|b| b.trim_matches('"').to_string())
        .ok_or_else(|| format!("no boundary in `{content_type}`"))?;
    let delim = format!("--{boundary}").into_bytes();
    let mut parts = Vec::new();
    let mut rest = body;
    let start = find(rest, &delim).ok_or("no opening boundary")?;
    rest = &rest[start + delim.len()..];
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        rest = rest.strip_prefix(b"\r\n").ok_or("no CRLF after a boundary")?;
        let head_end = find(rest, b"\r\n\r\n").ok_or("part without a head")?;
        let head = String::from_utf8_lossy(&rest[..head_end]).into_owned();
        rest = &rest[head_end + 4..];
        let mut end_marker = b"\r\n".to_vec();
        end_marker.extend_from_slice(&delim);
        let end = find(rest, &end_marker).ok_or("part without a closing boundary")?;
        let data = rest[..end].to_vec();
        rest = &rest[end + end_marker.len()..];
        let mut name = None;
        let mut filename = None;
        let mut ctype = None;
        for line in head.split("\r\n") {
            let (k, v) = line.split_once(':').unwrap_or((line, ""));
            if k.trim().eq_ignore_ascii_case("content-disposition") {
                for piece in v.split(';').map(str::trim) {
                    if let Some(n) = piece.strip_prefix("name=") {
                        name = Some(n.trim_matches('"').to_string());
                    } else if let Some(f) = piece.strip_prefix("filename=") {
                        filename = Some(f.trim_matches('"').to_string());
                    }
                }
            } else if k.trim().eq_ignore_ascii_case("content-type") {
                ctype = Some(v.trim().to_string());
            }
        }
        parts.push(Part {
            name: name.ok_or_else(|| format!("part without a name: {head}"))?,
            filename,
            content_type: ctype,
            data,
        });
    }
}
