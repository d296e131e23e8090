#!/usr/bin/env python3
"""Plays two rounds, then fills memory in 8 MiB blocks (every byte written, so the pages are real
and count against an address-space limit and a resident-memory limit alike) until the memory limit
stops it: the MemoryError is not caught (traceback, exit status 1), or the kernel kills it.

Usage: memory_hog.py MARKER
Run with `memory_mb = 200`. Expected: crash at move 3, 2 plies, with a detail that names the memory
limit. Safety: if 1.5 GiB go through, no limit is in force; it says so on stderr, frees it all and
plays on (the game then ends normally and the test fails, without eating the machine).
"""
import sys

rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
blocks = []
while len(blocks) < 192:
    blocks.append(b"\x01" * (8 << 20))
blocks.clear()
sys.stderr.write("memory_hog: 1.5 GiB allocated and no memory limit hit\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
