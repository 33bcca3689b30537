//! `score-server`: the game's files and class rooms on one origin.
//!
//! score-server [--port 8080] [--bind 127.0.0.1] [--dist dist] [--data data]
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use score_server::hub::{serve, Hub};
use score_server::store::Store;

const USAGE: &str = "usage: score-server [--port 8080] [--bind 127.0.0.1] [--dist dist] [--data data]";

struct Args {
    port: u16,
    bind: String,
    dist: PathBuf,
    data: PathBuf,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args { port: 8080, bind: "127.0.0.1".into(), dist: "dist".into(), data: "data".into() };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => a.port = value()?.parse().map_err(|_| "--port must be a number from 1 to 65535".to_string())?,
            "--bind" => a.bind = value()?,
            "--dist" => a.dist = value()?.into(),
            "--data" => a.data = value()?.into(),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown option “{other}”\n{USAGE}")),
        }
    }
    Ok(a)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("score-server: {e}");
            return ExitCode::from(2);
        }
    };
    let addr: SocketAddr = match format!("{}:{}", args.bind, args.port).parse() {
        Ok(a) => a,
        Err(_) => {
            eprintln!("score-server: “{}” is not an address to bind", args.bind);
            return ExitCode::from(2);
        }
    };
    if !args.dist.join("index.html").is_file() {
        eprintln!("score-server: no game in {} (build it with trunk build --release)", args.dist.display());
        return ExitCode::from(2);
    }
    let store = match Store::open(&args.data) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("score-server: cannot open the database in {}: {e}", args.data.display());
            return ExitCode::from(1);
        }
    };
    let hub = Hub::new(Some(store));
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("score-server: cannot listen on {addr}: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!("score-server: the game and its rooms on http://{addr}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("score-server: stopping (rooms are saved as they change)");
    };
    match serve(listener, hub, args.dist, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("score-server: {e}");
            ExitCode::from(1)
        }
    }
}
