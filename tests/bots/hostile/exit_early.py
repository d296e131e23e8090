#!/usr/bin/env python3
"""Plays two rounds of five, then exits with status 0, as if the game were over.

Usage: exit_early.py MARKER
Expected: crash at move 3 ("exited with status 0"), 2 plies: a clean exit mid-game is a crash.
"""
import sys

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
sys.exit(0)
