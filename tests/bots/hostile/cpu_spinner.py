#!/usr/bin/env python3
"""Burns CPU past the CPU limit without ever missing a move deadline.

The per-move timeout (1 s) is tournament-wide, so the CPU limit (`cpu_seconds = 1` for this bot)
must be what ends it, not the clock. So:

- four threads burn CPU from the start, hashing a 1 MiB buffer over and over; hashlib releases
  the GIL while it hashes, so they run on every core at once and leave the main thread free;
- the main thread answers each move at once, then waits 0.6 s before reading the next prompt, so
  the five rounds last about 3 s of wall time and every answer comes about 0.6 s after its prompt,
  well inside the 1 s timeout;
- and before it reads anything it lets them burn for 1.5 s of its start-up (the tournament's
  `startup_timeout` is 3 s, not charged to any move).

CPU time is summed over the threads, so the 1 s limit is reached within about 0.5 s on an idle
2-core machine. A loaded one shares the cores between sessions (autogroups), not threads: in CI
the bot's share of its 3 s of moves once came to less than 1 s of CPU and it finished the game
(twice, both times in the same game), hence the start-up's 1.5 s more. The kernel then sends
SIGXCPU (default action: terminate) or, at the hard limit, SIGKILL.

Usage: cpu_spinner.py MARKER
Expected: crash, fewer than 5 plies, with a detail that names the CPU limit. If no limit is in
force the game ends normally after about 3 s and the burning threads end with the bot.
"""
import hashlib
import sys
import threading
import time


def burn():
    block = b"c" * (1 << 20)
    while True:
        hashlib.sha256(block).digest()


for _ in range(4):
    threading.Thread(target=burn, daemon=True).start()
time.sleep(1.5)
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(rounds):
    print("ROCK", flush=True)
    time.sleep(0.6)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
