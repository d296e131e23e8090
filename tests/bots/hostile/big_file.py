#!/usr/bin/env python3
"""Plays two rounds, then writes a file in its working directory, 64 KiB at a time, until the
output limit stops it. A C program would be killed by SIGXFSZ at the file size limit; Python
ignores SIGXFSZ, so its write fails with EFBIG ('File too large'), and the OSError, not caught,
ends it with a traceback and exit status 1.

Usage: big_file.py MARKER
Run with `output_mb = 2`. Expected: crash at move 3, 2 plies, with a detail that names the output
(file size) limit. Safety: at 64 MiB it stops, says so on stderr, and plays on.
"""
import os
import sys

rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
chunk = b"f" * 65536
with open("big.out", "wb", buffering=0) as f:
    for _ in range(1024):
        f.write(chunk)
os.remove("big.out")
sys.stderr.write("big_file: 64 MiB written and no output limit hit\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
