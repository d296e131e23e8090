#!/usr/bin/env python3
"""Plays two rounds, then answers move 3 just past the deadline: 1.1 s after reading the prompt,
with a 1 s timeout. The answer cannot arrive early (the sleep starts after the prompt was
written), and 0.1 s is the margin for arena's own timer; then it goes on playing.

Usage: late.py MARKER [SECONDS]
Expected: timeout at move 3, 2 plies; the late line is not taken as move 3.
"""
import sys
import time

delay = float(sys.argv[2]) if len(sys.argv) > 2 else 1.1
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
time.sleep(delay)
try:
    for _ in range(rounds - 2):
        print("PAPER", flush=True)
        if sys.stdin.readline() in ("", "RETIRE\n"):
            break
except BrokenPipeError:
    pass
