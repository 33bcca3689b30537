//! What the binary is built from: the commit `score-server --version` names (git's, when
//! built from a checkout), compiled into a debug build. The game is not compiled in, nor is a
//! release binary's commit: scripts/package.sh appends both to the built binary
//! (src/files.rs), so neither a new game nor a new commit builds the server again.

fn main() {
    // A release binary names the commit scripts/package.sh packs with its game (src/files.rs):
    // compiled in, every commit would link the server again, though its code is the same.
    // (Named, this file is the only one it reads: without a name Cargo would run it again,
    // and build the server again, after a change to any file of the package, its tests too.)
    if std::env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_none() {
        println!("cargo:rustc-env=SCORE_COMMIT=");
        println!("cargo:rerun-if-changed=build.rs");
        return;
    }
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
}
