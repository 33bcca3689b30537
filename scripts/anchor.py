"""Whole-process timing of the default impossible table against the original program.

Builds the original's impossibles2.hs (GHC -O2; `apt-get install ghc`) and `score`
(--profile cli), runs each as a fresh process and prints the medians and their ratio.
Usage: python3 scripts/anchor.py [RUNS]   (default 21)
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HS = os.path.join(ROOT, "..", "shared", "peers", "impossibles2.hs")
OUT = os.path.join(ROOT, "target", "anchor")


def median_ms(cmd, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    if shutil.which("ghc") is None:
        sys.exit("anchor: ghc is not installed (apt-get install ghc)")
    os.makedirs(OUT, exist_ok=True)
    subprocess.run(["ghc", "-O2", "-v0", "-outputdir", OUT, "-o", os.path.join(OUT, "impossibles2"), HS], check=True)
    subprocess.run(["cargo", "build", "-q", "--profile", "cli", "-p", "score-cli"], cwd=ROOT, check=True)
    score = os.path.join(ROOT, "target", "cli", "score")
    base = median_ms(["true"], runs)
    hs = median_ms([os.path.join(OUT, "impossibles2")], runs)
    ours = median_ms([score, "impossibles"], runs)
    five = median_ms([score, "impossibles", "--dice", "20,20,20,20,20"], max(5, runs // 4))
    print(f"process start (true): {base:.1f} ms")
    print(f"original impossibles2 (GHC -O2), default table: {hs:.1f} ms")
    print(f"score impossibles, default table: {ours:.1f} ms ({hs / ours:.0f}x faster)")
    print(f"score impossibles --dice 20,20,20,20,20: {five:.1f} ms")


if __name__ == "__main__":
    main()
