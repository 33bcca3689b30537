#!/usr/bin/env python3
"""The workspace's native tests: `cargo test --workspace`, its test binaries run side by side.

The build is `cargo build --workspace --all-targets`: the units `cargo clippy --workspace
--all-targets` checks (each library, binary, example and bench as built, and each test harness:
the libraries', the binaries' and the tests'), the test harnesses among them. scripts/test.sh
runs it with clippy-driver as the workspace's rustc (`linted`), so the one build is both the
lint and the tests' build.

Cargo runs one test binary at a time, and several of ours spend long stretches on one core
(the room's fairness property) or waiting on sockets (the server's tests), leaving the other
core idle. This builds them (as below), then runs each as Cargo
would (from its package's folder, with CARGO_MANIFEST_DIR set; no test reads any other of
Cargo's variables at run time) with JOBS of them at once
(default: the cores this process may use, two on the test machine), the slowest of the last
run first (no crate has doc tests: each says `doctest = false`). Like `cargo test --no-fail-fast`, every binary
runs even after one fails. Each binary's output is printed whole, under Cargo's own "Running"
line, so the "test result:" lines read as Cargo's do. Exits non-zero when a build or any
test fails, or when the build names no test binary at all.

    scripts/native_tests.py [ARGS FOR EVERY TEST BINARY]    e.g. --skip slow_name
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# How long each binary took the last time: the next run starts the slowest first.
TIMES = os.path.join(ROOT, "target", "native-test-times.json")


def built():
    """The test binaries, as (key, label, executable, package folder): the key names a binary
    across builds (its source file), the label is Cargo's (the source and the executable)."""
    build = subprocess.run(
        ["cargo", "build", "--workspace", "--all-targets", "--message-format=json-render-diagnostics"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    if build.returncode != 0:
        sys.exit(build.returncode)
    found = []
    for line in build.stdout.splitlines():
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m["profile"]["test"]:
            continue
        # Built to be linted and to compile, as `cargo clippy --all-targets` checks them; a
        # bench is run by `cargo bench`, not here.
        if m["target"]["kind"] in (["bench"], ["example"]):
            continue
        folder = os.path.dirname(m["manifest_path"])
        source = os.path.relpath(m["target"]["src_path"], folder)
        kind = "unittests " if m["target"]["kind"] != ["test"] else ""
        exe = os.path.relpath(m["executable"], ROOT)
        key = os.path.relpath(m["target"]["src_path"], ROOT)
        found.append((key, f"{kind}{source} ({exe})", m["executable"], folder))
    return found


def run(job, args):
    """Runs one job: its exit status, its report and how long it took."""
    _, label, exe, folder = job
    env = dict(os.environ, CARGO_MANIFEST_DIR=folder)
    start = time.monotonic()
    command = [exe, *args]
    try:
        done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
        status, out = done.returncode, done.stdout
    except OSError as e:
        status, out = 1, f"could not run {command[0]}: {e}\n"
    out = f"     Running {label}\n{out}"
    return status, out, time.monotonic() - start


def main():
    args = sys.argv[1:]
    jobs = built()
    if not jobs:
        print("error: the build named no test binary")
        sys.exit(1)
    try:
        with open(TIMES) as f:
            last = json.load(f)
    except (OSError, ValueError):
        last = {}
    jobs.sort(key=lambda j: -float(last.get(j[0], 0)))
    workers = int(os.environ.get("JOBS") or len(os.sched_getaffinity(0)) or 2)
    failed = 0
    times = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for (key, label, _, _), (status, out, took) in zip(jobs, pool.map(lambda j: run(j, args), jobs)):
            sys.stdout.write(out)
            sys.stdout.flush()
            if status != 0:
                failed += 1
                print(f"error: {label} failed (exit status {status})")
            times[key] = round(took, 1)
    try:
        with open(TIMES, "w") as f:
            json.dump(times, f, indent=0, sort_keys=True)
    except OSError:
        pass
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
