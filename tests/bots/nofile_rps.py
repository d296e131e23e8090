#!/usr/bin/env python3
"""A roshambo bot that says on stderr the limit on open files it was given (`nofile SOFT HARD`)
and takes 0.2 s a move, so that many of its games run at once.

Usage: nofile_rps.py
"""
import resource
import sys
import time

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
print(f"nofile {soft} {hard}", file=sys.stderr, flush=True)
for _ in range(3):
    sys.stdin.readline()
while True:
    time.sleep(0.2)
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
