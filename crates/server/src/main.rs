//! `score-server`: the game's files and class rooms on one origin.
//!
//! score-server [--port 8080] [--bind 127.0.0.1] [--dist DIR] [--data data]
//!              [--max-rooms 500] [--rooms-per-address 5] [--idle-hours 24] [--forget-after 400] [--trust-proxy]
//!              [--backup DIR [--backup-every 60] [--backup-keep 48]] [--peers HOST:PORT,…]
//! score-server --version
//!
//! The game's release build is carried inside the binary (appended to it by
//! scripts/package.sh: see `files`), so the binary alone hosts a class; `--dist DIR` serves
//! a build from disk instead (a binary just compiled carries none).
//!
//! It starts whole or not at all: a port already taken, or a data folder it can't write,
//! is said in a sentence with exit code 2 before anything else starts. Once listening it
//! prints the addresses students can reach it at.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use score_engine::Rules;
use score_server::files::{Build, Game};
use score_server::hub::{serve, Hub, Limits};
use score_server::note;
use score_server::store::Store;

const USAGE: &str = "usage: score-server [--port 8080] [--bind 127.0.0.1] [--dist DIR] [--data data]
                    [--max-rooms 500] [--rooms-per-address 5] [--idle-hours 24] [--forget-after 400] [--trust-proxy]
                    [--backup DIR [--backup-every 60] [--backup-keep 48]] [--peers HOST:PORT,…]
       score-server --version
--peers: the other instances behind the same proxy (each as host:port), all started with the
same key of 16 characters or more in the environment variable SCORE_PEER_KEY";

/// What `parse` answers for `--version`: `main` then prints [`version_line`].
const VERSION_ASKED: &str = "--version";

/// What `--version` prints: the version and the commit it was built from (compiled into a
/// debug build; a release binary's is packed with its game, see build.rs).
fn version_line() -> String {
    let commit = match env!("SCORE_COMMIT") {
        "" => own_file()
            .ok()
            .and_then(|exe| Build::appended(&exe).ok().flatten())
            .and_then(|b| b.commit().map(str::to_string)),
        compiled => Some(compiled.to_string()),
    };
    format!("score-server {} (commit {})", env!("CARGO_PKG_VERSION"), commit.as_deref().unwrap_or("unknown"))
}

/// The running binary's own file: the running file itself where Linux names it (still this
/// binary's file when an upgrade has put another at its path meanwhile), else its path.
fn own_file() -> std::io::Result<PathBuf> {
    let own = PathBuf::from("/proc/self/exe");
    if own.exists() {
        return Ok(own);
    }
    std::env::current_exe()
}

struct Args {
    port: u16,
    bind: String,
    /// A build on disk to serve instead of the one inside.
    dist: Option<PathBuf>,
    data: PathBuf,
    limits: Limits,
    /// Where snapshots of the database go (another disk, a network share), how often
    /// (minutes) and how many are kept.
    backup: Option<PathBuf>,
    backup_every: u64,
    backup_keep: usize,
}

fn parse(mut it: impl Iterator<Item = String>, peer_key: Option<String>) -> Result<Args, String> {
    let mut a = Args {
        port: 8080,
        bind: "127.0.0.1".into(),
        dist: None,
        data: "data".into(),
        limits: Limits::default(),
        backup: None,
        backup_every: 60,
        backup_keep: 48,
    };
    let whole = |flag: &str, v: String, lo: u64, hi: u64| {
        v.parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or(format!("{flag} must be a whole number from {lo} to {hi}, not “{v}”"))
    };
    let mut peers = None;
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => a.port = value()?.parse().map_err(|_| "--port must be a number from 1 to 65535".to_string())?,
            "--bind" => a.bind = value()?,
            "--dist" => a.dist = Some(value()?.into()),
            "--data" => a.data = value()?.into(),
            "--max-rooms" => a.limits.max_rooms = whole("--max-rooms", value()?, 1, 100_000)? as usize,
            "--rooms-per-address" => {
                a.limits.rooms_per_address = whole("--rooms-per-address", value()?, 1, 1_000_000)? as u32
            }
            "--trust-proxy" => a.limits.trust_proxy = true,
            "--idle-hours" => a.limits.idle_ms = whole("--idle-hours", value()?, 1, 24 * 365)? * 3_600_000,
            "--forget-after" => a.limits.forget_ms = whole("--forget-after", value()?, 1, 3650)? * 86_400_000,
            "--backup" => a.backup = Some(value()?.into()),
            "--backup-every" => a.backup_every = whole("--backup-every", value()?, 1, 7 * 24 * 60)?,
            "--backup-keep" => a.backup_keep = whole("--backup-keep", value()?, 1, 100_000)? as usize,
            "--peers" => peers = Some(value()?),
            "-h" | "--help" => return Err(USAGE.into()),
            "-V" | "--version" => return Err(VERSION_ASKED.into()),
            other => return Err(format!("unknown option “{other}”\n{USAGE}")),
        }
    }
    if let Some(list) = peers {
        let addrs: Vec<String> = list.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
        if let Some(bad) = addrs
            .iter()
            .find(|p| p.rsplit_once(':').is_none_or(|(h, port)| h.is_empty() || port.parse::<u16>().is_err()))
        {
            return Err(format!("--peers takes instances as host:port, separated by commas, not “{bad}”\n{USAGE}"));
        }
        let key = peer_key.unwrap_or_default();
        if key.chars().count() < 16 {
            return Err(format!(
                "--peers needs the instances' shared key, of 16 characters or more, in SCORE_PEER_KEY\n{USAGE}"
            ));
        }
        a.limits.peers = Some(score_server::peers::Peers { addrs, key });
    }
    if a.limits.forget_ms < a.limits.idle_ms {
        return Err(format!(
            "--forget-after ({} days) is shorter than --idle-hours ({} h): a kept class would go before a room of one lesson\n{USAGE}",
            a.limits.forget_ms / 86_400_000,
            a.limits.idle_ms / 3_600_000
        ));
    }
    Ok(a)
}

/// The game this binary carries (appended to it: see `files`), or why it has none to serve.
fn carried_game() -> Result<Build, String> {
    let exe = own_file().map_err(|e| format!("can't find its own file ({e}): serve a game with --dist DIR"))?;
    match Build::appended(&exe) {
        Ok(Some(build)) if build.has_game() => Ok(build),
        Ok(_) => Err("this binary carries no game. A copy cut short (a download that stopped) or stripped carries none: check it against SHA256SUMS and download it again. To serve a game built here: --dist DIR (scripts/build.sh builds it in dist/), or scripts/package.sh makes a binary that carries it".into()),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(format!(
            "the game this binary carries is damaged ({e}): check the binary against SHA256SUMS and download it again, or serve a game with --dist DIR"
        )),
        Err(e) => Err(format!(
            "can't read its own file {} ({e}): the user it runs as must be able to read it, or serve a game with --dist DIR",
            exe.display()
        )),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1), std::env::var("SCORE_PEER_KEY").ok()) {
        Ok(a) => a,
        Err(e) if e == VERSION_ASKED => {
            println!("{}", version_line());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            note!("score-server: {e}");
            return ExitCode::from(2);
        }
    };
    let addr: SocketAddr = match format!("{}:{}", args.bind, args.port).parse() {
        Ok(a) => a,
        Err(_) => {
            note!("score-server: “{}” is not an address to bind", args.bind);
            return ExitCode::from(2);
        }
    };
    let (game, from) = match &args.dist {
        Some(dist) if !dist.join("index.html").is_file() => {
            note!("score-server: no game in {} (scripts/build.sh builds it in dist/)", dist.display());
            return ExitCode::from(2);
        }
        Some(dist) => (Game::Folder(dist.clone()), format!("from {}", dist.display())),
        None => match carried_game() {
            Ok(build) => {
                let from = format!("inside this binary, {} files", build.len());
                (Game::Inside(build.into()), from)
            }
            Err(why) => {
                note!("score-server: {why}");
                return ExitCode::from(2);
            }
        },
    };
    // The port first: taken, nothing else starts (the data folder isn't touched).
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            note!(
                "score-server: port {} is taken (another score-server, or another program): stop it, or choose another port with --port",
                addr.port()
            );
            return ExitCode::from(2);
        }
        Err(e) => {
            note!("score-server: cannot listen on {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    let store = match Store::open(&args.data) {
        Ok(s) => s,
        Err(e) => {
            note!(
                "score-server: cannot keep rooms in the data folder {}: {e} (choose one it can write with --data)",
                args.data.display()
            );
            return ExitCode::from(2);
        }
    };
    // Reading every room back touches SQLite: off the async runtime, as every write is.
    let limits = args.limits.clone();
    let Ok(hub) = tokio::task::spawn_blocking(move || Hub::with_limits(Some(store), Rules::default(), limits)).await
    else {
        note!("score-server: the rooms could not be read back");
        return ExitCode::from(1);
    };
    // Snapshots: one now (a folder it can't write is said before anything else starts),
    // then every `--backup-every` minutes, and a last one after a gentle stop.
    let backups = match &args.backup {
        Some(dir) => {
            let (h, d, keep) = (hub.clone(), dir.clone(), args.backup_keep);
            match tokio::task::spawn_blocking(move || h.backup(&d, keep)).await {
                Ok(Some(Ok(path))) => note!("score-server: a snapshot of the rooms in {}", path.display()),
                Ok(Some(Err(e))) => {
                    note!(
                        "score-server: cannot write snapshots to {}: {e} (choose a folder it can write with --backup)",
                        dir.display()
                    );
                    return ExitCode::from(2);
                }
                _ => {}
            }
            let (h, d, every) = (hub.clone(), dir.clone(), args.backup_every);
            Some(tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(every * 60));
                tick.tick().await;
                loop {
                    tick.tick().await;
                    let (h, d) = (h.clone(), d.clone());
                    if let Ok(Some(Err(e))) = tokio::task::spawn_blocking(move || h.backup(&d, keep)).await {
                        note!("score-server: a snapshot failed: {e} (the rooms are still in the data folder)");
                    }
                }
            }))
        }
        None => None,
    };
    let last = (hub.clone(), args.backup.clone(), args.backup_keep);
    // Ctrl-C at a terminal; SIGTERM from systemctl stop, docker stop or kill, listened for
    // before the address is printed (a stop that follows it at once is a gentle one too).
    #[cfg(unix)]
    let terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate());
    note!("score-server: the game ({from}) and its rooms on http://{addr}/");
    // Where students can reach it: each network address, or that it is this computer only.
    hub.listening_on(listener.local_addr().unwrap_or(addr));
    let reach = hub.reachable();
    match (reach.is_empty(), addr.ip().is_unspecified()) {
        // A Raspberry Pi may start before its Wi-Fi: the teacher's screen asks again later.
        (true, true) => note!(
            "score-server: no network address yet: students join at this computer's address on port {} once it is on the network",
            addr.port()
        ),
        (true, false) => note!(
            "score-server: this computer only; to let phones on the network join, start it with --bind 0.0.0.0"
        ),
        (false, _) => {}
    }
    for a in reach {
        note!("score-server: students join at http://{a}/");
    }
    let shutdown = async move {
        #[cfg(unix)]
        let terminate = async move {
            match terminate {
                Ok(mut term) => {
                    term.recv().await;
                }
                Err(_) => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            () = terminate => {}
        }
        note!("score-server: stopping (rooms are saved as they change)");
    };
    let served = serve(listener, hub, game, shutdown).await;
    if let (Some(task), (hub, Some(dir), keep)) = (backups, last) {
        task.abort();
        if let Ok(Some(Ok(path))) = tokio::task::spawn_blocking(move || hub.backup(&dir, keep)).await {
            note!("score-server: a last snapshot of the rooms in {}", path.display());
        }
    }
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            note!("score-server: {e}");
            ExitCode::from(1)
        }
    }
}
