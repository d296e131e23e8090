#!/usr/bin/env python3
"""Plays two rounds, then prints a gigabyte of garbage lines (1 KiB each, newline-terminated) on
stdout instead of a move.

Usage: gigabyte_stdout.py MARKER
Expected: protocol at move 3 (garbage: the first line is not a gesture), 2 plies; the rest of the
gigabyte is never read: arena closes the pipe and the bot dies of BrokenPipeError.
"""
import os
import sys

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
line = b"x" * 1023 + b"\n"
block = line * 1024  # 1 MiB
for _ in range(1024):
    view = memoryview(block)
    while view:
        view = view[os.write(1, view):]
