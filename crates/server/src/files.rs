//! The game's files, from one of two places served alike: a build on disk (`--dist DIR`,
//! read at each request, so a folder updated in place is served at once) or the build the
//! binary carries ([`Build::appended`]: scripts/pack_game.py appends it to the release
//! binary), so one file hosts a class.
//!
//! Both answer the same way: the precompressed `.br` or `.gz` variant when the browser
//! takes it, with the content type of the uncompressed name; hashed files
//! [`IMMUTABLE`], everything else [`REVALIDATE`] (a browser that kept an old build's
//! index.html fresh for days would start it, and a service worker precache it, after a new
//! release); a path that is no file is a page, answered with index.html (`/?room=CODE`);
//! a missing file is `404`, never index.html in its place. A file on disk is revalidated by
//! its modification time, a carried one by its content's hash (`ETag`).
//!
//! The build a binary carries is appended to it, after the last byte the linker wrote (a
//! program loader reads only what the ELF headers point at): each file as its path's length
//! (2 bytes), its path (UTF-8, `/` between folders), the SHA-256 of its bytes (32 bytes: its
//! `ETag`, hashed once when packed rather than at every start), its length (4 bytes) and its
//! bytes, and the commit it was packed from as one more, named [`COMMIT`]; then the length of
//! all that (8 bytes) and [`PACK_MAGIC`], every number little-endian. The game is added after the server is compiled, so a new game is a copy and
//! an append, not a new link of the server (minutes, for each architecture).

use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};

/// Where the game's files come from.
#[derive(Clone)]
pub enum Game {
    /// A build on disk (`--dist DIR`), read at each request.
    Folder(PathBuf),
    /// A build held in memory: the one the binary carries.
    Inside(Arc<Build>),
}

/// What a file whose name carries its build's hash is sent with: it never changes.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// What every other answer is sent with: kept, but asked about again before each use
/// (a `304` when unchanged), so a new build's index.html, sw.js and unhashed files are seen.
pub const REVALIDATE: &str = "no-cache";

/// Whether the file at `path` has Trunk's content hash in its name (`main-<hash>.css`,
/// `score-app-<hash>_bg.wasm`): another build's file has another name.
/// index.html, sw.js, the manifest, the icons and the worker and room modules have none.
fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let Some((stem, _extension)) = name.rsplit_once('.') else { return false };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    let Some((_, hash)) = stem.rsplit_once('-') else { return false };
    hash.len() >= 8 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `path` names a file (its last segment has an extension) other than a page.
fn is_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    name.rsplit_once('.').is_some_and(|(_, extension)| !extension.eq_ignore_ascii_case("html"))
}

/// The answer for a path that names a file the build doesn't have.
fn no_such_file() -> Response {
    (StatusCode::NOT_FOUND, "No such file.").into_response()
}

/// The game's files from `game`, with their caching (see the module's documentation).
pub fn files(game: Game) -> Router {
    let served = match game {
        Game::Folder(dist) => {
            let index = ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip();
            let page = Router::new().fallback_service(index).layer(middleware::from_fn(
                |request: Request, next: Next| async move {
                    if is_file(request.uri().path()) {
                        return no_such_file();
                    }
                    next.run(request).await
                },
            ));
            Router::new().fallback_service(ServeDir::new(dist).precompressed_br().precompressed_gzip().fallback(page))
        }
        Game::Inside(build) => Router::new().fallback(inside).with_state(build),
    };
    served.layer(middleware::from_fn(cache_control))
}

/// Sets the `Cache-Control` of an answer from the game's files (see [`files`]), and says
/// that it depends on `Accept-Encoding` (a shared cache must not hand a `.br` body to a
/// browser that takes none).
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = is_hashed(request.uri().path());
    let mut response = next.run(request).await;
    let found = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let value = if hashed && found { IMMUTABLE } else { REVALIDATE };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// One form of a file: its bytes and the tag a browser revalidates it by.
struct Encoded {
    bytes: Bytes,
    etag: HeaderValue,
}

impl Encoded {
    fn new(bytes: Bytes, sha256: [u8; 32]) -> Encoded {
        let hex: String = sha256[..16].iter().map(|b| format!("{b:02x}")).collect();
        let etag = HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"\""));
        Encoded { bytes, etag }
    }
}

/// One file of a build, with the precompressed variants built beside it.
struct File {
    content_type: HeaderValue,
    plain: Encoded,
    br: Option<Encoded>,
    gzip: Option<Encoded>,
}

/// A build of the game held in memory: each file by its path (`icons/icon-192.png`), its
/// `name.br` and `name.gz` variants kept with it rather than served as files of their own.
pub struct Build {
    files: HashMap<String, File>,
    /// The commit the binary was packed from, carried beside the files (see [`COMMIT`]).
    commit: Option<String>,
}

/// The last 8 bytes of a binary that carries a game (see the module's documentation).
pub const PACK_MAGIC: &[u8; 8] = b"SCOREPK1";

/// The name under which a carried game holds the commit it was packed from (what
/// `score-server --version` names), not a file: a file's path never starts with `/`. A
/// release binary is compiled without its commit, so a new commit doesn't link the server
/// again when its code is the same.
pub const COMMIT: &str = "/commit";

/// Whether `text` reads as a commit: 1 to 64 letters and digits.
fn is_commit(text: &str) -> bool {
    (1..=64).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The most a carried game may hold: far more than a build (4 MB), far less than memory.
const MOST_PACKED: u64 = 256 << 20;

/// A carried game that can't be read: the binary was cut short or changed after it was made.
fn damaged(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_string())
}

/// Whether `name` is a path inside a build: folders and a file, none empty, `.` or `..`.
fn is_inside(name: &str) -> bool {
    !name.is_empty()
        && name.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
        && !name.contains(['\\', '\0'])
}

impl Build {
    /// The build appended to the file at `path` (the running binary): `None` when it carries
    /// none, an error of kind `InvalidData` when what it carries can't be read.
    pub fn appended(path: &Path) -> io::Result<Option<Build>> {
        let mut file = std::fs::File::open(path)?;
        let length = file.seek(SeekFrom::End(0))?;
        let Some(start) = length.checked_sub(16) else { return Ok(None) };
        let mut tail = [0u8; 16];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut tail)?;
        let (size, magic) = tail.split_at(8);
        if magic != PACK_MAGIC {
            return Ok(None);
        }
        let size = u64::from_le_bytes([size[0], size[1], size[2], size[3], size[4], size[5], size[6], size[7]]);
        if size > MOST_PACKED {
            return Err(damaged("its length is more than a game's"));
        }
        if size > start {
            return Err(damaged("its length is more than the file holds"));
        }
        let mut packed = vec![0u8; size as usize];
        file.seek(SeekFrom::Start(start - size))?;
        file.read_exact(&mut packed)?;
        Build::unpacked(Bytes::from(packed)).map(Some)
    }

    /// The build in `packed`: the files as the module's documentation lays them out, without
    /// the closing length and mark.
    fn unpacked(packed: Bytes) -> io::Result<Build> {
        let mut files = Vec::new();
        let mut commit = None;
        let mut names = std::collections::HashSet::new();
        let mut rest = packed;
        // The next `n` bytes of the rest.
        let take = |rest: &mut Bytes, n: usize| {
            if rest.len() < n {
                return Err(damaged("a file is cut short"));
            }
            Ok(rest.split_to(n))
        };
        while !rest.is_empty() {
            let length = take(&mut rest, 2)?;
            let length = u16::from_le_bytes([length[0], length[1]]) as usize;
            let name = String::from_utf8(take(&mut rest, length)?.to_vec())
                .map_err(|_| damaged("a file's path is not UTF-8"))?;
            if !is_inside(&name) && name != COMMIT {
                return Err(damaged("a file's path leads outside the game"));
            }
            let mut sha256 = [0u8; 32];
            sha256.copy_from_slice(&take(&mut rest, 32)?);
            let length = take(&mut rest, 4)?;
            let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]) as usize;
            let bytes = take(&mut rest, length)?;
            if !names.insert(name.clone()) {
                return Err(damaged("a file is in it twice"));
            }
            if name == COMMIT {
                let text = String::from_utf8(bytes.to_vec()).ok().filter(|t| is_commit(t));
                commit = Some(text.ok_or_else(|| damaged("its commit is not one"))?);
                continue;
            }
            files.push((name, bytes, sha256));
        }
        Ok(Build { commit, ..Build::of(files) })
    }

    /// The commit it was packed from, if it says.
    pub fn commit(&self) -> Option<&str> {
        self.commit.as_deref()
    }

    /// A build of these files (path, bytes, SHA-256 of the bytes).
    fn of(files: impl IntoIterator<Item = (String, Bytes, [u8; 32])>) -> Build {
        let mut all: HashMap<String, Encoded> =
            files.into_iter().map(|(name, bytes, sha)| (name, Encoded::new(bytes, sha))).collect();
        let variant = |name: &str, suffix: &str, all: &HashMap<String, Encoded>| {
            name.strip_suffix(suffix).is_some_and(|plain| all.contains_key(plain))
        };
        let variants: Vec<String> =
            all.keys().filter(|n| variant(n, ".br", &all) || variant(n, ".gz", &all)).cloned().collect();
        let mut br = HashMap::new();
        let mut gzip = HashMap::new();
        for name in variants {
            if let Some(encoded) = all.remove(&name) {
                match name.strip_suffix(".br") {
                    Some(plain) => br.insert(plain.to_string(), encoded),
                    None => gzip.insert(name.trim_end_matches(".gz").to_string(), encoded),
                };
            }
        }
        let files = all
            .into_iter()
            .map(|(name, plain)| {
                let mime = mime_guess::from_path(&name).first_or_octet_stream();
                let content_type = HeaderValue::from_str(mime.as_ref())
                    .unwrap_or(HeaderValue::from_static("application/octet-stream"));
                let file = File { content_type, plain, br: br.remove(&name), gzip: gzip.remove(&name) };
                (name, file)
            })
            .collect();
        Build { files, commit: None }
    }

    /// Whether this build holds a game (its index.html): an empty one holds none.
    pub fn has_game(&self) -> bool {
        self.files.contains_key("index.html")
    }

    /// How many files it holds (not counting precompressed variants).
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it holds no file at all.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// How much the request's `Accept-Encoding` wants `coding`: its `q` (1 when named without
/// one), 0 when not named or refused with `q=0`.
fn wants(headers: &HeaderMap, coding: &str) -> f32 {
    let items = headers.get_all(header::ACCEPT_ENCODING).into_iter().filter_map(|v| v.to_str().ok());
    let weights = items.flat_map(|v| v.split(',')).filter_map(|item| {
        let mut parts = item.split(';');
        parts.next().filter(|name| name.trim().eq_ignore_ascii_case(coding))?;
        let q = parts.find_map(|p| p.trim().strip_prefix("q=").map(|q| q.trim().parse::<f32>().unwrap_or(0.0)));
        Some(q.unwrap_or(1.0))
    });
    weights.fold(0.0, f32::max)
}

/// Whether the request's `If-None-Match` names `etag` (or any tag, `*`).
fn unchanged(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Some(asked) = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) else { return false };
    let etag = etag.to_str().unwrap_or_default();
    asked.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

/// A file of the build inside the binary (see [`files`]).
async fn inside(State(build): State<Arc<Build>>, method: Method, headers: HeaderMap, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    let path = uri.path();
    let name = match path.trim_start_matches('/') {
        "" => "index.html",
        name => name,
    };
    let file = match build.files.get(name) {
        Some(file) => file,
        None if is_file(path) => return no_such_file(),
        None => match build.files.get("index.html") {
            Some(page) => page,
            None => return no_such_file(),
        },
    };
    // The variant the browser wants most (brotli on a tie), as ServeDir chooses.
    let (br, gzip) = (wants(&headers, "br"), wants(&headers, "gzip"));
    let (encoded, encoding) = match (&file.br, &file.gzip) {
        (Some(variant), _) if br > 0.0 && (br >= gzip || file.gzip.is_none()) => (variant, Some("br")),
        (_, Some(variant)) if gzip > 0.0 => (variant, Some("gzip")),
        _ => (&file.plain, None),
    };
    let mut answer = if unchanged(&headers, &encoded.etag) {
        Response::builder().status(StatusCode::NOT_MODIFIED).body(Body::empty())
    } else {
        let mut answer = Response::builder()
            .header(header::CONTENT_TYPE, file.content_type.clone())
            .header(header::CONTENT_LENGTH, encoded.bytes.len());
        if let Some(encoding) = encoding {
            answer = answer.header(header::CONTENT_ENCODING, encoding);
        }
        let body = if method == Method::HEAD { Body::empty() } else { Body::from(encoded.bytes.clone()) };
        answer.body(body)
    }
    .unwrap_or_default();
    answer.headers_mut().insert(header::ETAG, encoded.etag.clone());
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(accept).unwrap());
        h
    }

    #[test]
    fn an_encoding_is_wanted_by_its_q_and_not_when_refused_or_unnamed() {
        assert_eq!(wants(&asking("gzip, deflate, br, zstd"), "br"), 1.0);
        assert_eq!(wants(&asking("gzip;q=0.8, br;q=1.0"), "gzip"), 0.8);
        assert_eq!(wants(&asking("gzip, br;q=0"), "br"), 0.0);
        assert_eq!(wants(&asking("identity"), "gzip"), 0.0);
        assert_eq!(wants(&asking("brotli"), "br"), 0.0);
        assert_eq!(wants(&HeaderMap::new(), "gzip"), 0.0);
    }

    #[test]
    fn a_tag_asked_about_is_matched_weak_or_strong_or_any() {
        let tag = HeaderValue::from_static("\"abc\"");
        let asked = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
            unchanged(&h, &tag)
        };
        assert!(asked("\"abc\""));
        assert!(asked("W/\"abc\""));
        assert!(asked("\"x\", \"abc\""));
        assert!(asked("*"));
        assert!(!asked("\"abd\""));
        assert!(!unchanged(&HeaderMap::new(), &tag));
    }

    #[test]
    fn a_builds_variants_go_with_their_file_and_a_lone_gz_is_a_file() {
        let f = |name: &str| (name.to_string(), Bytes::from(name.to_string()), [0u8; 32]);
        let build = Build::of([f("index.html"), f("index.html.br"), f("a.js.gz"), f("a.js"), f("data.gz")]);
        assert_eq!(build.len(), 3);
        let page = &build.files["index.html"];
        assert_eq!(page.content_type, "text/html");
        assert!(page.br.is_some() && page.gzip.is_none());
        assert_eq!(build.files["a.js"].gzip.as_ref().map(|g| g.bytes.clone()), Some(Bytes::from("a.js.gz")));
        assert!(build.files.contains_key("data.gz"));
        assert!(build.has_game());
    }

    use sha2::{Digest, Sha256};

    /// `files` laid out as a carried game (see the module's documentation), closed with
    /// `length` (the true one when `None`) and the mark.
    fn packed(files: &[(&[u8], &[u8])], length: Option<u64>) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, bytes) in files {
            out.extend((name.len() as u16).to_le_bytes());
            out.extend(*name);
            out.extend(<[u8; 32]>::from(Sha256::digest(bytes)));
            out.extend((bytes.len() as u32).to_le_bytes());
            out.extend(*bytes);
        }
        let length = length.unwrap_or(out.len() as u64);
        out.extend(length.to_le_bytes());
        out.extend(PACK_MAGIC);
        out
    }

    /// What a binary of these bytes (the server's own first) carries.
    fn carried(tail: &[u8]) -> io::Result<Option<Build>> {
        static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("score-files-{}-{n}", std::process::id()));
        let mut bytes = b"\x7fELF the server's own bytes".to_vec();
        bytes.extend(tail);
        std::fs::write(&path, bytes).unwrap();
        let build = Build::appended(&path);
        std::fs::remove_file(&path).unwrap();
        build
    }

    #[test]
    fn a_binary_carries_its_files_and_their_variants() {
        let tail =
            packed(&[(b"index.html", b"<!doctype html>"), (b"index.html.br", b"br"), (b"icons/a.png", b"")], None);
        let build = carried(&tail).unwrap().expect("a game");
        assert_eq!(build.len(), 2);
        assert!(build.has_game());
        let page = &build.files["index.html"];
        assert_eq!(page.plain.bytes, Bytes::from_static(b"<!doctype html>"));
        assert_eq!(page.br.as_ref().map(|b| b.bytes.clone()), Some(Bytes::from_static(b"br")));
        // The tag is the content's SHA-256 (its first half): fe26c59e… is that of "<!doctype html>".
        assert_eq!(page.plain.etag, "\"fe26c59e91ac8de694b2531dc3bdc1b7\"");
        assert_eq!(build.files["icons/a.png"].plain.bytes.len(), 0);
        // An empty game is a game of no files (and no page).
        assert!(!carried(&packed(&[], None)).unwrap().expect("read").has_game());
    }

    #[test]
    fn a_binary_carries_the_commit_it_was_packed_from_beside_its_files() {
        let tail = packed(&[(b"index.html", b"x"), (b"/commit", b"6e702121a949")], None);
        let build = carried(&tail).unwrap().expect("a game");
        assert_eq!((build.len(), build.commit()), (1, Some("6e702121a949")));
        assert!(!build.files.contains_key("/commit") && !build.files.contains_key("commit"));
        assert_eq!(carried(&packed(&[(b"index.html", b"x")], None)).unwrap().expect("a game").commit(), None);
        let why = |commit: &[u8]| carried(&packed(&[(b"/commit", commit)], None)).err().map(|e| e.to_string());
        for bad in [&b""[..], b"6e70 2121", b"\xff", &[b'a'; 65]] {
            assert_eq!(why(bad).as_deref(), Some("its commit is not one"), "{bad:?}");
        }
    }

    #[test]
    fn a_binary_without_the_mark_carries_nothing() {
        assert!(carried(b"").unwrap().is_none());
        let mut tail = packed(&[(b"index.html", b"x")], None);
        *tail.last_mut().unwrap() = b'2';
        assert!(carried(&tail).unwrap().is_none());
    }

    #[test]
    fn a_damaged_game_is_refused_with_why() {
        let why = |tail: Vec<u8>| match carried(&tail) {
            Err(e) if e.kind() == io::ErrorKind::InvalidData => e.to_string(),
            other => panic!("not refused: {:?}", other.map(|b| b.map(|b| b.len()))),
        };
        let page: (&[u8], &[u8]) = (b"index.html", b"x");
        assert_eq!(why(packed(&[page], Some(1 << 40))), "its length is more than a game's");
        assert_eq!(why(packed(&[page], Some(1000))), "its length is more than the file holds");
        // A length that reaches back into the server's own bytes reads them as files: refused
        // too (the game is 2 + 10 + 32 + 4 + 1 = 49 bytes after 27 of the server's: 11 of
        // them read as a path's length, here more than follows).
        assert_eq!(why(packed(&[page], Some(60))), "a file is cut short");
        assert_eq!(why(packed(&[page], Some(MOST_PACKED + 1))), "its length is more than a game's");
        // A file's length past the end of the game.
        let mut short = packed(&[page], None);
        short[2 + 10 + 32] = 2;
        assert_eq!(why(short), "a file is cut short");
        for name in [&b"../sw.js"[..], b"/etc/passwd", b"a//b", b"icons/./a", b"a\\b", b"", b"a\0b"] {
            assert_eq!(why(packed(&[(name, b"x")], None)), "a file's path leads outside the game", "{name:?}");
        }
        assert_eq!(why(packed(&[(b"\xff.html", b"x")], None)), "a file's path is not UTF-8");
        assert_eq!(why(packed(&[page, page], None)), "a file is in it twice");
    }
}
