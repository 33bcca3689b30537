//! What the binary is built from: the commit `score-server --version` names (git's, when
//! built from a checkout), and the game's build in the workspace's `dist/`, which
//! `main.rs` compiles in: a change there (a new `trunk build`) builds the server again,
//! unless debug assertions are on (rust-embed then reads dist/ as the server runs).

fn main() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SCORE_COMMIT={commit}");
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    // A folder is scanned whole: a file added, changed or removed reruns this and rebuilds.
    // While there is no dist/ (a clean checkout), Cargo counts it as changed at every build,
    // so the server's package is compiled again each time until the game is built: the
    // price of picking the game up the moment it is.
    // Only a build without debug assertions compiles the game in: with them (tests, clippy,
    // the debug binary the e2e tests run), rust-embed reads dist/ when the server runs, so a
    // new game rebuilds none of these.
    if std::env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_some() {
        return;
    }
    println!("cargo:rerun-if-changed=../../dist");
    if !std::path::Path::new("../../dist/index.html").is_file() {
        println!("cargo:warning=no game in dist/ yet: this score-server carries none (serve one with --dist DIR)");
    }
}
