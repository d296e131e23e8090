#!/usr/bin/env python3
"""Plays two rounds, then sends a line that is not UTF-8 (0xFF 0xFE before ROCK).

Usage: bad_utf8.py MARKER
Expected: protocol at move 3 ("not UTF-8"), 2 plies.
"""
import sys

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
sys.stdout.buffer.write(b"\xff\xfeROCK\n")
sys.stdout.flush()
sys.stdin.readline()
