#!/usr/bin/env python3
"""How long score-server takes from being started to answering its first request.

usage: python3 scripts/start_time.py BINARY [--runs 20] [-- ARGS...]

Each run starts BINARY alone in a fresh empty folder (its rooms in ./data there, so every
run opens a new database) on a free port on 127.0.0.1, then asks for / every millisecond
until an answer's status line arrives; the time is from just before the process is
started to that line. Prints the fastest, the median and the slowest, in milliseconds.
A command in front of the binary (qemu-aarch64-static) goes in the RUNNER variable.
"""
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def first_answer(port, deadline):
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    while time.perf_counter() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(request)
                line = s.recv(64)
                if line.startswith(b"HTTP/1.1 "):
                    return line.split(b"\r\n")[0].decode()
        except OSError:
            time.sleep(0.001)
    raise SystemExit("no answer within the deadline")


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        at = args.index("--")
        args, extra = args[:at], args[at + 1 :]
    if not args:
        raise SystemExit(__doc__)
    binary = os.path.abspath(args[0])
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 20
    runner = shlex.split(os.environ.get("RUNNER", ""))
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as where:
            port = free_port()
            command = runner + [binary, "--port", str(port), "--data", "data"] + extra
            started = time.perf_counter()
            child = subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                status = first_answer(port, started + 30)
                times.append((time.perf_counter() - started) * 1000)
            finally:
                child.terminate()
                child.wait()
            if " 200 " not in status + " ":
                raise SystemExit(f"first answer was {status!r}")
    print(
        f"{os.path.basename(binary)}: first answer after "
        f"{min(times):.1f} ms fastest, {statistics.median(times):.1f} ms median, {max(times):.1f} ms slowest "
        f"({runs} runs{', under ' + ' '.join(runner) if runner else ''})"
    )


if __name__ == "__main__":
    main()
