#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py) that takes 1, and between its moves spins on the CPU
until its next input comes, saying on stderr how much CPU each wait took (`spun SECONDS`): for
the test that a player is stopped while it is not to move, the referee's turns included."""
import select
import sys
import time

while True:
    start = time.process_time()
    while not select.select([sys.stdin], [], [], 0)[0]:
        pass
    print(f"spun {time.process_time() - start:.3f}", file=sys.stderr, flush=True)
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(1, flush=True)
