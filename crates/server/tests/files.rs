//! The game's files from the real server on 127.0.0.1, from both places it serves them:
//! a build on disk (`--dist`) and the build a binary carries (appended to it by
//! scripts/pack_game.py, as scripts/package.sh does). Every check runs on both, and the two
//! answer alike.
//!
//! How long a browser may keep each file: a file whose name carries its build's hash never
//! changes, so it is kept for a year without asking; index.html, sw.js and every unhashed
//! file are asked about again before each use, so a returning player's browser sees a new
//! release (and its service worker precaches that release's files, not the last one's). A
//! missing file is 404, never index.html in its place.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{body, header, http_ask, http_get, http_post, status, temp, Server};
use score_engine::Rules;
use score_server::files::{Build, Game};
use score_server::hub::Limits;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

/// The hashed files of a test build, as Trunk names them (and scripts/postbuild.py named the
/// boot script, before it was written into index.html: still a hashed name).
const HASHED: [&str; 4] = [
    "boot-1818b36bf6b4db15.js",
    "main-af4c96722adb203.css",
    "score-app-73bd7c9b479a6b0c.js",
    "score-app-73bd7c9b479a6b0c_bg.wasm",
];

/// The files of the test build whose names carry no hash.
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

/// The test build (tests/fixtures/game): each file holds its own name as text ("the file
/// sw.js"), and three have precompressed variants (`.br`, `.gz`) holding a word of their own.
fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/game")
}

/// scripts/pack_game.py run to append `game` to `binary`.
fn pack_game(game: &Path, binary: &Path) -> std::process::Output {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pack_game.py");
    std::process::Command::new("python3").arg(script).arg(game).arg(binary).output().unwrap()
}

/// A file standing in for a binary (some bytes of its own first), `game` appended to it by
/// scripts/pack_game.py.
fn carrying(name: &str, game: &Path) -> PathBuf {
    let binary = temp(&format!("pack-{name}")).join("score-server");
    std::fs::write(&binary, b"\x7fELF and the server's own bytes").unwrap();
    let packed = pack_game(game, &binary);
    assert!(packed.status.success(), "pack_game.py: {}", String::from_utf8_lossy(&packed.stderr));
    binary
}

/// The test build from each place: on disk, and inside (as a packaged binary carries its own).
fn games() -> [(&'static str, Game); 2] {
    static PACKED: AtomicUsize = AtomicUsize::new(0);
    let binary = carrying(&PACKED.fetch_add(1, Ordering::Relaxed).to_string(), &fixture());
    let inside = Build::appended(&binary).unwrap().expect("the binary carries the game");
    [("disk", Game::Folder(fixture())), ("inside", Game::Inside(inside.into()))]
}

/// A server of `game`, its rooms in a folder of its own.
async fn start(name: &str, game: Game) -> Server {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    let dir = temp(&format!("files-{name}-{}", STARTED.fetch_add(1, Ordering::Relaxed)));
    Server::serving(&dir, Rules::default(), Limits::default(), "127.0.0.1:0", game).await
}

/// A GET of `path` with more request headers (lines ending in `\r\n`).
async fn get(server: &Server, path: &str, extra: &str) -> String {
    http_ask(server.addr, "GET", path, extra).await
}

#[tokio::test]
async fn hashed_files_are_immutable_for_a_year() {
    for (from, game) in games() {
        let server = start(from, game).await;
        for f in HASHED {
            let answer = http_get(server.addr, &format!("/{f}")).await;
            assert_eq!(status(&answer), 200, "{from} {f}");
            assert_eq!(header(&answer, "cache-control"), Some(IMMUTABLE), "{from} {f}");
            assert_eq!(body(&answer), format!("the file {f}"), "{from}");
        }
        let wasm = http_get(server.addr, "/score-app-73bd7c9b479a6b0c_bg.wasm").await;
        assert_eq!(header(&wasm, "content-type"), Some("application/wasm"), "{from}");
        server.stop().await;
    }
}

#[tokio::test]
async fn index_sw_and_unhashed_files_are_revalidated() {
    for (from, game) in games() {
        let server = start(from, game).await;
        for f in UNHASHED {
            let answer = http_get(server.addr, &format!("/{f}")).await;
            assert_eq!(status(&answer), 200, "{from} {f}");
            assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{from} {f}");
            assert_eq!(body(&answer), format!("the file {f}"), "{from}");
        }
        // The page itself, at / and at any page path, with a room's invite or a shared roll.
        for path in ["/", "/?room=ABC234", "/?roll=2-5-12-12", "/play/again"] {
            let answer = http_get(server.addr, path).await;
            assert_eq!(status(&answer), 200, "{from} {path}");
            assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{from} {path}");
            assert_eq!(header(&answer, "content-type"), Some("text/html"), "{from} {path}");
            assert_eq!(body(&answer), "the file index.html", "{from} {path}");
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn an_unchanged_file_is_a_304_with_the_same_caching() {
    for (from, game) in games() {
        let server = start(from, game).await;
        for (path, caching) in [("/sw.js", NO_CACHE), ("/", NO_CACHE), ("/boot-1818b36bf6b4db15.js", IMMUTABLE)] {
            let first = http_get(server.addr, path).await;
            // A file on disk is asked about by its time, one inside by its content's tag.
            let asked = match (header(&first, "etag"), header(&first, "last-modified")) {
                (Some(tag), _) => format!("If-None-Match: {tag}\r\n"),
                (None, Some(time)) => format!("If-Modified-Since: {time}\r\n"),
                (None, None) => panic!("{from}: nothing to revalidate {path} by"),
            };
            let again = get(&server, path, &asked).await;
            assert_eq!(status(&again), 304, "{from} {path}");
            assert_eq!(body(&again), "", "{from} {path}");
            assert_eq!(header(&again, "cache-control"), Some(caching), "{from} {path}");
        }
        server.stop().await;
    }
}

#[test]
fn a_binary_that_carries_a_game_is_not_given_another() {
    let binary = carrying("twice", &fixture());
    let before = std::fs::read(&binary).unwrap();
    let again = pack_game(&fixture(), &binary);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already carries a game"));
    assert_eq!(std::fs::read(&binary).unwrap(), before);
}

#[tokio::test]
async fn a_carried_files_tag_is_its_contents_hash_and_changes_with_it() {
    use sha2::{Digest, Sha256};
    let tag = |bytes: &[u8]| {
        format!("\"{}\"", Sha256::digest(bytes)[..16].iter().map(|b| format!("{b:02x}")).collect::<String>())
    };
    // A copy of the test build whose sw.js is another.
    let changed = temp("pack-changed").join("game");
    let copy = std::process::Command::new("cp").arg("-r").arg(fixture()).arg(&changed).status().unwrap();
    assert!(copy.success());
    std::fs::write(changed.join("sw.js"), "the new sw.js").unwrap();
    for (game, sw) in [(fixture(), &b"the file sw.js"[..]), (changed.clone(), b"the new sw.js")] {
        let binary = carrying(&format!("tag-{}", sw.len()), &game);
        let build = Build::appended(&binary).unwrap().expect("a game");
        let server = start("tag", Game::Inside(build.into())).await;
        let answer = http_get(server.addr, "/sw.js").await;
        assert_eq!(body(&answer).as_bytes(), sw);
        assert_eq!(header(&answer, "etag").map(str::to_string), Some(tag(sw)));
        server.stop().await;
    }
}

#[tokio::test]
async fn precompressed_files_keep_their_type_and_caching() {
    for (from, game) in games() {
        let server = start(from, game).await;
        let wasm = get(&server, "/score-app-73bd7c9b479a6b0c_bg.wasm", "Accept-Encoding: gzip, deflate, br\r\n").await;
        assert_eq!((header(&wasm, "content-encoding"), body(&wasm)), (Some("br"), "brotli wasm"), "{from}");
        assert_eq!(header(&wasm, "content-type"), Some("application/wasm"), "{from}");
        assert_eq!(header(&wasm, "cache-control"), Some(IMMUTABLE), "{from}");
        let sw = get(&server, "/sw.js", "Accept-Encoding: br\r\n").await;
        assert_eq!((header(&sw, "content-encoding"), body(&sw)), (Some("br"), "brotli sw"), "{from}");
        assert_eq!(header(&sw, "cache-control"), Some(NO_CACHE), "{from}");
        let page = get(&server, "/?room=ABC234", "Accept-Encoding: gzip\r\n").await;
        assert_eq!((header(&page, "content-encoding"), body(&page)), (Some("gzip"), "gzip page"), "{from}");
        assert_eq!(header(&page, "content-type"), Some("text/html"), "{from}");
        assert_eq!(header(&page, "cache-control"), Some(NO_CACHE), "{from}");
        assert!(header(&page, "vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")), "{from}");
        // The one the browser wants more, by its q.
        // (sw.js has no .gz: the .br it takes, if less.)
        let sw = get(&server, "/sw.js", "Accept-Encoding: gzip;q=1, br;q=0.1\r\n").await;
        assert_eq!((header(&sw, "content-encoding"), body(&sw)), (Some("br"), "brotli sw"), "{from}");
        let page = get(&server, "/", "Accept-Encoding: br;q=0.5, gzip;q=0.9\r\n").await;
        assert_eq!((header(&page, "content-encoding"), body(&page)), (Some("gzip"), "gzip page"), "{from}");
        // A browser that takes neither (or refuses one) gets the file as built.
        let plain = get(&server, "/sw.js", "Accept-Encoding: gzip, br;q=0\r\n").await;
        assert_eq!((header(&plain, "content-encoding"), body(&plain)), (None, "the file sw.js"), "{from}");
        server.stop().await;
    }
}

#[tokio::test]
async fn a_head_request_has_the_answers_headers_and_no_body() {
    for (from, game) in games() {
        let server = start(from, game).await;
        let head = http_ask(server.addr, "HEAD", "/boot-1818b36bf6b4db15.js", "").await;
        assert_eq!(status(&head), 200, "{from}");
        assert_eq!(header(&head, "content-length"), Some("33"), "{from}: {head}");
        assert_eq!(header(&head, "cache-control"), Some(IMMUTABLE), "{from}");
        assert_eq!(body(&head), "", "{from}");
        server.stop().await;
    }
}

#[tokio::test]
async fn a_missing_file_is_404_not_the_page_and_never_immutable() {
    for (from, game) in games() {
        let server = start(from, game).await;
        // An old page's hashed files after a release, unhashed ones that don't exist, and a
        // variant's own name (never a file of the build inside).
        for path in [
            "/boot-0000000000000000.js",
            "/score-app-0123456789abcdef_bg.wasm",
            "/main-0123456789abcde.css",
            "/nope.js",
            "/../Cargo.toml",
        ] {
            let answer = http_get(server.addr, path).await;
            assert_eq!(status(&answer), 404, "{from} {path}");
            assert_eq!(header(&answer, "cache-control"), Some(NO_CACHE), "{from} {path}");
            assert!(!body(&answer).contains("index.html"), "{from} {path}: {answer}");
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn the_build_inside_answers_every_file_as_the_folder_does() {
    let [(_, disk), (_, inside)] = games();
    let disk = start("same-disk", disk).await;
    let inside = start("same-inside", inside).await;
    let paths = HASHED.iter().chain(UNHASHED.iter()).map(|f| format!("/{f}")).chain(["/".into(), "/x/y".into()]);
    for path in paths {
        for accept in ["", "Accept-Encoding: br\r\n", "Accept-Encoding: gzip\r\n"] {
            let (a, b) = (get(&disk, &path, accept).await, get(&inside, &path, accept).await);
            for name in ["content-type", "content-encoding", "content-length", "cache-control"] {
                assert_eq!(header(&a, name), header(&b, name), "{path} {accept:?} {name}");
            }
            assert_eq!((status(&a), body(&a)), (status(&b), body(&b)), "{path} {accept:?}");
        }
    }
    disk.stop().await;
    inside.stop().await;
}

#[tokio::test]
async fn rooms_keep_their_own_answers() {
    for (from, game) in games() {
        let server = start(from, game).await;
        // The files' caching is theirs alone: a host's CSV answer is not one of them.
        let csv = http_post(server.addr, "/scores.csv?room=ABC234", "host=nothing").await;
        assert_eq!(status(&csv), 403, "{from}");
        assert_eq!(header(&csv, "cache-control"), None, "{from}");
        server.stop().await;
    }
}
