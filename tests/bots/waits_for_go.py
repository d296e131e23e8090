#!/usr/bin/env python3
"""A roshambo bot for tests of what arena does around a bot's exit: it reads its three header
lines, waits until the file GO exists, plays ROCK every round and exits.

Usage: waits_for_go.py GO [MARKER]   (MARKER is only there for the test to find the process)
"""
import os
import sys
import time

go = sys.argv[1]
sys.stdin.readline()
sys.stdin.readline()
rounds = int(sys.stdin.readline())
while not os.path.exists(go):
    time.sleep(0.01)
for _ in range(rounds):
    print("ROCK", flush=True)
    if not sys.stdin.readline():
        break
