#!/usr/bin/env python3
"""Compare two arena binaries on the same workloads, by their fastest runs.

Usage: bench/compare.py OLD_ARENA NEW_ARENA [RUNS]

Runs each workload with OLD and NEW alternately, RUNS times each (default 7), and prints the
fastest time of each and the ratio NEW/OLD (below 1.0: NEW is faster). Noise on a shared machine
only ever slows a run down, so the fastest run is the closest to what the program costs.

Workloads (two copies of bots/roshambo/random.c, compiled here with cc -O2):
  relay       arena duel, one game of 9,999 rounds (the cost of a move)
  throughput  arena run, 1,000 one-round games, --jobs = cores (the cost of a game)
  duel-jobs   arena duel --games 1000 --jobs 2 of one-round games (parallel duels)

Run it from the repository's root, with release builds of both, for example:
  cargo build --release && bench/compare.py /path/to/old/arena target/release/arena
A workload that the OLD binary does not support (duel --jobs before it existed) is skipped.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time


def timed(cmd, cwd):
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        return None, done.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return elapsed, None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = (os.path.abspath(a) for a in sys.argv[1:3])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    cores = os.cpu_count() or 1
    tmp = tempfile.mkdtemp(prefix="arena-compare-")
    try:
        bot = os.path.join(tmp, "rps")
        subprocess.run(["cc", "-O2", "-o", bot, "bots/roshambo/random.c"], check=True)
        spec = os.path.join(tmp, "spec.toml")
        with open(spec, "w") as f:
            f.write(
                'name = "compare"\ngame = "roshambo"\nformat = "round-robin"\n'
                "games_per_pairing = 1000\nseed = 1\ntimeout = 10\n\n[params]\nrounds = 1\n\n"
                f'[[bot]]\nname = "a"\ncommand = "{bot}"\n\n[[bot]]\nname = "b"\ncommand = "{bot}"\n'
            )
        counter = [0]

        def out():
            counter[0] += 1
            return os.path.join(tmp, f"out-{counter[0]}")

        workloads = {
            "relay": lambda a: [a, "duel", bot, bot, "-g", "roshambo", "-a", "rounds=9999",
                                "--seed", "1", "--out", out()],
            "throughput": lambda a: [a, "run", spec, "--jobs", str(cores), "--out", out()],
            "duel-jobs": lambda a: [a, "duel", bot, bot, "-g", "roshambo", "-a", "rounds=1",
                                    "--games", "1000", "--jobs", "2", "--seed", "1",
                                    "--out", out()],
        }
        print(f"{'workload':<12} {'old (s)':>9} {'new (s)':>9} {'new/old':>8}   fastest of {runs}")
        for name, cmd in workloads.items():
            best = {old: None, new: None}
            skipped = None
            for _ in range(runs):
                for binary in (old, new):
                    elapsed, why = timed(cmd(binary), os.getcwd())
                    if elapsed is None:
                        skipped = f"{os.path.basename(os.path.dirname(binary))}: {why}"
                        break
                    if best[binary] is None or elapsed < best[binary]:
                        best[binary] = elapsed
                if skipped:
                    break
            if skipped:
                print(f"{name:<12} skipped ({skipped})")
                continue
            print(f"{name:<12} {best[old]:>9.3f} {best[new]:>9.3f} {best[new] / best[old]:>8.2f}")
            for entry in os.listdir(tmp):
                if entry.startswith("out-"):
                    shutil.rmtree(os.path.join(tmp, entry), ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
