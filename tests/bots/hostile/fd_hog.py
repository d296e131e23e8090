#!/usr/bin/env python3
"""Plays two rounds, then opens /dev/null again and again until the open-files limit stops it:
the OSError (EMFILE, 'Too many open files') is not caught (traceback, exit status 1).

Usage: fd_hog.py MARKER
Run with `open_files = 32`. Expected: crash at move 3, 2 plies. Safety: at 10,000 open files it
stops, says so on stderr, closes them and plays on.
"""
import os
import sys

rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
fds = []
while len(fds) < 10000:
    fds.append(os.open(os.devnull, os.O_RDONLY))
for fd in fds:
    os.close(fd)
sys.stderr.write("fd_hog: 10000 files open and no open-files limit hit\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
