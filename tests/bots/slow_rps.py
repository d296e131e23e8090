#!/usr/bin/env python3
"""A roshambo bot that thinks for a while before every move (for tests that stop a run midway).

Usage: slow_rps.py SECONDS
"""
import sys
import time

delay = float(sys.argv[1])
for _ in range(3):
    sys.stdin.readline()
moves = ["ROCK", "PAPER", "SCISSORS"]
i = 0
while True:
    time.sleep(delay)
    print(moves[i % 3], flush=True)
    i += 1
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
