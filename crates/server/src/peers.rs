//! More than one instance. Behind a proxy that routes each room's code to one instance
//! (`deploy/nginx.conf`: a consistent hash), a kept class lives a school year, longer than
//! any one set of instances: when one is added or taken away, some codes are routed to an
//! instance that doesn't hold them. That instance asks the others (`--peers`) for the room,
//! and the one holding it hands it over whole:
//!
//! 1. `POST /peer/hand-over?room=CODE`: the holder lets go of the room (its pages are told
//!    to reconnect, and so come through the proxy to the new instance) and answers with the
//!    room as stored; its row stays on its disk for now. 404: not held here.
//! 2. The new instance writes the room to its own disk, then
//! 3. `POST /peer/handed?room=CODE`: the holder deletes its row.
//!
//! A hand-over never confirmed (the new instance went down between 1 and 3) is taken back by
//! the holder after [`HANDED_HOLD_MS`], its row being still there: nothing is lost, and the
//! next ask finds it again. A code handed over is not asked back for that long either, so a
//! page still routed the old way meanwhile is told to try again rather than pull it back.
//!
//! Every instance is started with the same `SCORE_PEER_KEY` (in its environment, not on its
//! command line, where other users of the machine could read it): the peer routes answer a
//! request carrying it and nothing else (404, as for any unknown path).
//!
//! The requests are plain HTTP/1.1 to another `score-server` on the school's network, so the
//! few lines of a client below do, with timeouts, what a client library would.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// How long a room handed over is held for its confirmation, and its code not asked back, ms.
pub const HANDED_HOLD_MS: u64 = 10 * 60 * 1000;

/// The header that carries the peers' key.
pub const KEY_HEADER: &str = "x-score-peer-key";

/// The other instances, and the key they all share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peers {
    /// Each as `host:port`.
    pub addrs: Vec<String>,
    pub key: String,
}

/// The most a room handed over may be, bytes (a class's school year is about 0.5 MB).
const MOST: u64 = 64 * 1024 * 1024;

/// Whether `given` is the key, compared in constant time.
pub fn same_key(given: &str, key: &str) -> bool {
    given.len() == key.len() && given.bytes().zip(key.bytes()).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// Posts `path` to the peer at `addr` with the key: the answer's body on 200, none on 404, an
/// error on anything else (the peer down, too slow, or another answer).
pub fn post(addr: &str, key: &str, path: &str) -> Result<Option<String>, String> {
    let to = addr.to_socket_addrs().map_err(|e| format!("{addr}: {e}"))?.next().ok_or(format!("{addr}: no address"))?;
    let mut s = TcpStream::connect_timeout(&to, Duration::from_secs(2)).map_err(|e| format!("{addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(20))).map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(Duration::from_secs(5))).map_err(|e| e.to_string())?;
    let ask = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{KEY_HEADER}: {key}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(ask.as_bytes()).map_err(|e| format!("{addr}: {e}"))?;
    let mut answer = Vec::new();
    s.take(MOST).read_to_end(&mut answer).map_err(|e| format!("{addr}: {e}"))?;
    read_answer(&answer).map_err(|e| format!("{addr}: {e}"))
}

/// An HTTP/1.1 answer read to its end: its body on 200, none on 404.
fn read_answer(answer: &[u8]) -> Result<Option<String>, String> {
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").ok_or("an answer cut short")?;
    let head = std::str::from_utf8(&answer[..split]).map_err(|_| "an answer that isn't text")?;
    let mut body = &answer[split + 4..];
    let status: u16 = head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or("no status")?;
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_ascii_lowercase())
        })
    };
    let mut whole = Vec::new();
    if header("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        loop {
            let line_end = body.windows(2).position(|w| w == b"\r\n").ok_or("a chunk cut short")?;
            let size = std::str::from_utf8(&body[..line_end])
                .ok()
                .and_then(|l| usize::from_str_radix(l.split(';').next().unwrap_or_default().trim(), 16).ok());
            let size = size.ok_or("a chunk's size unreadable")?;
            let rest = &body[line_end + 2..];
            if size == 0 {
                break;
            }
            if size.checked_add(2).is_none_or(|end| rest.len() < end) {
                return Err("a chunk cut short".into());
            }
            whole.extend_from_slice(&rest[..size]);
            body = &rest[size + 2..];
        }
    } else {
        let len = header("content-length").and_then(|l| l.parse::<usize>().ok()).unwrap_or(body.len());
        whole.extend_from_slice(body.get(..len).ok_or("a body cut short")?);
    }
    match status {
        200 => String::from_utf8(whole).map(Some).map_err(|_| "a body that isn't text".into()),
        204 => Ok(Some(String::new())),
        404 => Ok(None),
        other => Err(format!("answered {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_whole_or_refused() {
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
        assert_eq!(read_answer(ok), Ok(Some("hello".into())));
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n";
        assert_eq!(read_answer(chunked), Ok(Some("hello".into())));
        assert_eq!(read_answer(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"), Ok(None));
        assert!(read_answer(b"HTTP/1.1 500 Oops\r\ncontent-length: 0\r\n\r\n").is_err());
        assert!(read_answer(b"HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\nhello").is_err(), "cut short");
        assert!(read_answer(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nhel").is_err());
        assert!(read_answer(b"garbage").is_err());
        let huge = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nhel";
        assert!(read_answer(huge).is_err(), "a size past the end, not a panic");
    }

    #[test]
    fn the_key_is_compared_whole() {
        assert!(same_key("k3y-of-the-district", "k3y-of-the-district"));
        assert!(!same_key("k3y-of-the-district", "k3y-of-the-distric"));
        assert!(!same_key("", "k"));
        assert!(!same_key("K3y-of-the-district", "k3y-of-the-district"));
    }
}
