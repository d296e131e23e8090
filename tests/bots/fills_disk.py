#!/usr/bin/env python3
"""A roshambo bot that fills its disk: before its first move it writes 4 MiB files into its
working directory (each under an output_mb limit of 5) until the disk is full or it has written
MAX files, says so on stderr, thinks a little, then plays on as if nothing happened. It waits half a second
first, so that the game before it is on record when the disk fills.

Usage: fills_disk.py MAX
"""
import sys
import time

most = int(sys.argv[1])
me, opponent, rounds = (sys.stdin.readline().strip() for _ in range(3))
time.sleep(0.5)
chunk = b"x" * (4 * 1024 * 1024)
written = 0
for i in range(most):
    try:
        with open(f"fill-{i}", "wb") as f:
            f.write(chunk)
        written += 1
    except OSError:
        break
try:
    sys.stderr.write(f"wrote {written} files of 4 MiB\n" * 100)
    sys.stderr.flush()
except OSError:
    pass
# Still thinking while arena's capture of stderr (written within 20 ms) meets the full disk:
# once the game is over arena removes this folder, and the disk has room again.
time.sleep(0.2)
moves = ["ROCK", "PAPER", "SCISSORS"]
for i in range(int(rounds)):
    print(moves[i % 3], flush=True)
    if sys.stdin.readline().strip() in ("", "RETIRE"):
        break
