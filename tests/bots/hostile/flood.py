#!/usr/bin/env python3
"""Plays two rounds, then floods its output with one endless line: 'A's, never a newline.

Usage: flood.py MARKER
Expected: protocol at move 3 (a line longer than 64 KiB), 2 plies; the flood stops when arena
closes the pipe (BrokenPipeError ends the bot).
"""
import sys

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
chunk = b"A" * 65536
while True:
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
