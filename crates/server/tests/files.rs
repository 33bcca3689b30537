//! The game's files from the real server on 127.0.0.1: how long a browser may keep each.
//! A file whose name carries its build's hash never changes, so it is kept for a year
//! without asking; index.html, sw.js and every unhashed file are asked about again before
//! each use, so a returning player's browser sees a new release (and its service worker
//! precaches that release's files, not the last one's). A missing file is 404, never
//! index.html in its place.

mod common;

use std::path::Path;

use common::{body, header, http_get, http_post, status, temp, Server};
use score_engine::Rules;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

/// The hashed files of a build, as Trunk and scripts/postbuild.py name them.
const HASHED: [&str; 4] = [
    "boot-1818b36bf6b4db15.js",
    "main-af4c96722adb203.css",
    "score-app-73bd7c9b479a6b0c.js",
    "score-app-73bd7c9b479a6b0c_bg.wasm",
];

/// The files of a build whose names carry no hash.
const UNHASHED: [&str; 10] = [
    "index.html",
    "sw.js",
    "register-sw.js",
    "room-boot.js",
    "manifest.webmanifest",
    "score-worker_loader.js",
    "score-worker.js",
    "score-worker_bg.wasm",
    "score-room.js",
    "icons/icon-192.png",
];

/// A dist/ with every file of a build (each holding its own name as text).
fn build(name: &str) -> std::path::PathBuf {
    let dir = temp(name);
    let dist = dir.join("dist");
    std::fs::create_dir_all(dist.join("icons")).unwrap();
    for f in HASHED.iter().chain(UNHASHED.iter()) {
        std::fs::write(dist.join(f), format!("the file {f}")).unwrap();
    }
    dir
}

/// A GET of `path` with more request headers (`extra`: lines ending in `\r\n`): the whole answer.
async fn get(addr: std::net::SocketAddr, path: &str, extra: &str) -> String {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    tcp.read_to_string(&mut out).await.unwrap();
    out
}

async fn start(dir: &Path) -> Server {
    Server::start(dir, Rules::default()).await
}

#[tokio::test]
async fn hashed_files_are_immutable_for_a_year() {
    let dir = build("hashed");
    let server = start(&dir).await;
    for f in HASHED {
        let answer = http_get(server.addr, &format!("/{f}")).await;
        assert_eq!(status(&answer), 200, "{f}");
        assert_eq!(header(&answer, "cache-control"), Some(IMMUTABLE), "{f}");
        assert_eq!(body(&answer), format!("the file {f}"));
    }
    let wasm = http_get(server.addr, "/score-app-73bd7c9b479a6b0c_bg.wasm").await;
    assert_eq!(header(&wasm, "content-type"), Some("application/wasm"));
    server.stop().await;
}

#[tokio::test]
async fn index_sw_and_unhashed_files_are_revalidated() {
    let dir = build("unhashed");
    let server = start(&dir).await;
    for f in UNHASHED {
        let answer = http_get(server.addr, &format!("/{f}")).await;
        assert_eq!(status(&answer), 200, "{f}");
        assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{f}");
        assert_eq!(body(&answer), format!("the file {f}"));
    }
    // The page itself, at / and at any page path, with a room's invite or a shared roll.
    for path in ["/", "/?room=ABC234", "/?roll=2-5-12-12", "/play/again"] {
        let answer = http_get(server.addr, path).await;
        assert_eq!(status(&answer), 200, "{path}");
        assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{path}");
        assert_eq!(body(&answer), "the file index.html", "{path}");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unchanged_file_is_a_304_with_the_same_caching() {
    let dir = build("revalidated");
    let server = start(&dir).await;
    for (path, caching) in [("/sw.js", NO_CACHE), ("/", NO_CACHE), ("/boot-1818b36bf6b4db15.js", IMMUTABLE)] {
        let first = http_get(server.addr, path).await;
        let modified = header(&first, "last-modified").unwrap_or_else(|| panic!("no Last-Modified for {path}"));
        let again = get(server.addr, path, &format!("If-Modified-Since: {modified}\r\n")).await;
        assert_eq!(status(&again), 304, "{path}");
        assert_eq!(header(&again, "cache-control"), Some(caching), "{path}");
    }
    server.stop().await;
}

#[tokio::test]
async fn precompressed_files_keep_their_caching() {
    let dir = build("precompressed");
    let dist = dir.join("dist");
    std::fs::write(dist.join("score-app-73bd7c9b479a6b0c_bg.wasm.br"), "brotli wasm").unwrap();
    std::fs::write(dist.join("sw.js.br"), "brotli sw").unwrap();
    std::fs::write(dist.join("index.html.gz"), "gzip page").unwrap();
    let server = start(&dir).await;
    let wasm = get(server.addr, "/score-app-73bd7c9b479a6b0c_bg.wasm", "Accept-Encoding: br\r\n").await;
    assert_eq!((header(&wasm, "content-encoding"), body(&wasm)), (Some("br"), "brotli wasm"));
    assert_eq!(header(&wasm, "content-type"), Some("application/wasm"));
    assert_eq!(header(&wasm, "cache-control"), Some(IMMUTABLE));
    let sw = get(server.addr, "/sw.js", "Accept-Encoding: br\r\n").await;
    assert_eq!((header(&sw, "content-encoding"), body(&sw)), (Some("br"), "brotli sw"));
    assert_eq!(header(&sw, "cache-control"), Some(NO_CACHE));
    let page = get(server.addr, "/?room=ABC234", "Accept-Encoding: gzip\r\n").await;
    assert_eq!((header(&page, "content-encoding"), body(&page)), (Some("gzip"), "gzip page"));
    assert_eq!(header(&page, "cache-control"), Some(NO_CACHE));
    server.stop().await;
}

#[tokio::test]
async fn a_missing_file_is_404_not_the_page_and_never_immutable() {
    let dir = build("missing");
    let server = start(&dir).await;
    // An old page's hashed files after a release, and unhashed ones that don't exist.
    for path in
        ["/boot-0000000000000000.js", "/score-app-0123456789abcdef_bg.wasm", "/main-0123456789abcde.css", "/nope.js"]
    {
        let answer = http_get(server.addr, path).await;
        assert_eq!(status(&answer), 404, "{path}");
        assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{path}");
        assert!(!body(&answer).contains("index.html"), "{path}: {answer}");
    }
    server.stop().await;
}

#[tokio::test]
async fn rooms_keep_their_own_answers() {
    let dir = build("rooms");
    let server = start(&dir).await;
    // The files' caching is theirs alone: a host's CSV answer is not one of them.
    let csv = http_post(server.addr, "/scores.csv?room=ABC234", "host=nothing").await;
    assert_eq!(status(&csv), 403);
    assert_eq!(header(&csv, "cache-control"), None);
    server.stop().await;
}
