#!/usr/bin/env python3
"""Tries to overwrite the tournament's games.csv with a forged record that says it won, then plays
the game well. Targets: each PATH given, and the results folder it can discover from its parent's
command line (arena's `--out DIR`, relative to arena's working directory). It only ever writes a
file named games.csv that already exists. What it managed is written to stderr.

Usage: tamper_results.py MARKER [PATH...]; more PATHs, separated by ':', in TARGETS (a sandbox shows a bot
the files its command line names).
Expected (with the sandbox): every attempt fails; games.csv holds exactly the games played.
Without a sandbox the bot runs as the user running arena and the overwrite succeeds.
"""
import os
import sys


def discovered():
    ppid = os.getppid()
    try:
        with open(f"/proc/{ppid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0")]
        cwd = os.readlink(f"/proc/{ppid}/cwd")
    except OSError as e:
        sys.stderr.write(f"tamper: cannot inspect arena ({ppid}): {e}\n")
        return []
    if "--out" in argv[:-1]:
        return [os.path.join(cwd, argv[argv.index("--out") + 1], "games.csv")]
    return []


targets = [t for t in sys.argv[2:] + os.environ.get("TARGETS", "").split(":") if t] + discovered()
for path in dict.fromkeys(targets):
    if os.path.basename(path) != "games.csv" or not os.path.isfile(path):
        sys.stderr.write(f"tamper: {path}: not there\n")
        continue
    try:
        with open(path) as f:
            header = f.readline()
        with open(path, "w") as f:
            f.write(header)
            f.write("999,1,tamper,victim,1,0,tamper,normal,5,1,1,forged\n")
        sys.stderr.write(f"tamper: overwrote {path}\n")
    except OSError as e:
        sys.stderr.write(f"tamper: {path}: {e}\n")
sys.stderr.flush()
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(rounds):
    print("PAPER", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
