//! `score-server` as a teacher (or a school's technician) starts it: it says its version,
//! where students join, and, when it can't start, why, with exit code 2 and nothing
//! half-started.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_score-server");

/// A folder with a game in it (an index.html is all the server checks for).
fn game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("score-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>Score</title>").unwrap();
    dir
}

/// The server run to its end on `port`, with the game in `dir` and its data in `data`.
fn run_to_end(dir: &Path, port: u16, data: &Path) -> Output {
    Command::new(BIN)
        .args(["--port", &port.to_string(), "--dist"])
        .arg(dir.join("dist"))
        .arg("--data")
        .arg(data)
        .output()
        .unwrap()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn version_names_the_version_and_the_commit() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with(concat!("score-server ", env!("CARGO_PKG_VERSION"), " (commit ")), "{line}");
}

#[test]
fn a_port_already_taken_is_said_with_exit_code_2_and_the_data_folder_is_left_alone() {
    let dir = game("taken");
    let held = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port();
    let data = dir.join("data");
    let out = run_to_end(&dir, port, &data);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains(&format!("port {port} is taken")), "{said}");
    assert!(!data.exists(), "nothing half-started: no data folder made");
}

#[test]
fn peers_without_their_shared_key_or_named_wrongly_are_said_with_exit_code_2() {
    for (peers, key, says) in [
        ("127.0.0.1:8082", None, "SCORE_PEER_KEY"),
        ("127.0.0.1:8082", Some("short"), "16 characters or more"),
        ("127.0.0.1", Some("a-key-long-enough-for-it"), "not “127.0.0.1”"),
    ] {
        let mut cmd = Command::new(BIN);
        cmd.args(["--port", "1", "--peers", peers]).env_remove("SCORE_PEER_KEY");
        if let Some(key) = key {
            cmd.env("SCORE_PEER_KEY", key);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let said = String::from_utf8(out.stderr).unwrap();
        assert!(said.contains(says), "{said}");
    }
}

#[test]
fn a_data_folder_it_cannot_write_is_said_with_exit_code_2_and_the_port_is_let_go() {
    let dir = game("data");
    // A file where the folder should be.
    let data = dir.join("not-a-folder");
    std::fs::write(&data, "x").unwrap();
    let port = free_port();
    let out = run_to_end(&dir, port, &data);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains("cannot keep rooms in the data folder"), "{said}");
    assert!(TcpListener::bind(("127.0.0.1", port)).is_ok(), "the port is free again");
}

/// The server started on `port` with `args`, and what it said up to the line `until` finds;
/// its standard error is closed then (as when the terminal that started it is gone), and it
/// goes on serving.
fn start(port: u16, args: &[&std::ffi::OsStr], until: &str) -> (std::process::Child, Vec<String>) {
    let mut child = Command::new(BIN)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = Vec::new();
    for line in lines.map_while(Result::ok) {
        let done = line.contains(until);
        said.push(line);
        if done {
            break;
        }
    }
    (child, said)
}

#[test]
fn on_loopback_it_says_phones_cannot_join_and_how_to_let_them() {
    let dir = game("loopback");
    let port = free_port();
    let (dist, data) = (dir.join("dist"), dir.join("data"));
    let (mut child, said) =
        start(port, &["--dist".as_ref(), dist.as_ref(), "--data".as_ref(), data.as_ref()], "this computer only");
    let _ = child.kill();
    let _ = child.wait();
    assert!(said.iter().any(|l| l.contains(&format!("on http://127.0.0.1:{port}/"))), "{said:?}");
    assert!(said.last().unwrap().contains("start it with --bind 0.0.0.0"), "{said:?}");
}

#[test]
fn dist_serves_another_build_in_place_of_the_one_inside() {
    let dir = game("override");
    std::fs::write(dir.join("dist/index.html"), "<title>another build</title>").unwrap();
    let port = free_port();
    let (dist, data) = (dir.join("dist"), dir.join("data"));
    let (mut child, said) =
        start(port, &["--dist".as_ref(), dist.as_ref(), "--data".as_ref(), data.as_ref()], "on http://");
    let page = {
        use std::io::{Read, Write};
        let mut tcp = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        tcp.write_all(b"GET /?room=ABC234 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).unwrap();
        answer
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(said.last().unwrap().contains(&format!("(from {})", dist.display())), "{said:?}");
    assert!(page.ends_with("<title>another build</title>"), "{page}");
}

#[test]
fn sigterm_stops_it_gently_as_systemd_and_docker_do() {
    let dir = game("term");
    let port = free_port();
    let (dist, data) = (dir.join("dist"), dir.join("data"));
    let mut child = Command::new(BIN)
        .args(["--port", &port.to_string(), "--dist"])
        .arg(&dist)
        .arg("--data")
        .arg(&data)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines().map_while(Result::ok);
    assert!(lines.by_ref().any(|l| l.contains("on http://")));
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let rest: Vec<String> = lines.collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{rest:?}");
    assert!(rest.iter().any(|l| l.contains("stopping (rooms are saved as they change)")), "{rest:?}");
}

#[test]
fn a_binary_that_carries_no_game_or_a_damaged_one_says_so_with_exit_code_2() {
    let dir = game("carried");
    let data = dir.join("data");
    // Run with no --dist: the game must be the one the binary carries.
    let run = |bin: &Path| {
        // A file just written can be busy for a moment (another test's child inherited it).
        for _ in 0..100 {
            match Command::new(bin).args(["--port", &free_port().to_string(), "--data"]).arg(&data).output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                out => return out.unwrap(),
            }
        }
        panic!("{} stayed busy", bin.display());
    };
    // The test binary is compiled without the game (scripts/package.sh appends it).
    let out = run(Path::new(BIN));
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains("carries no game") && said.contains("SHA256SUMS"), "{said}");
    // A copy whose game says it is longer than the file (the mark intact).
    let copy = dir.join("score-server");
    let mut bytes = std::fs::read(BIN).unwrap();
    bytes.extend((bytes.len() as u64 + 1).to_le_bytes());
    bytes.extend(score_server::files::PACK_MAGIC);
    std::fs::write(&copy, bytes).unwrap();
    std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = run(&copy);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains("is damaged (its length is more than the file holds)"), "{said}");
    assert!(!data.exists(), "nothing half-started: no data folder made");
}
