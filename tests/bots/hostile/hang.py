#!/usr/bin/env python3
"""Plays two rounds, then stops answering: sleeps, deaf to its input, until killed.

Usage: hang.py MARKER
Expected: timeout at move 3, 2 plies; arena kills it (SIGTERM) after the game.
"""
import sys
import time

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
time.sleep(3600)
