#!/usr/bin/env python3
"""Plays two rounds, then forks 50 children (`sleep 3601.MARKER`, detached from the pipes) until
the process limit stops it: the BlockingIOError (EAGAIN) of the failed fork is not caught
(traceback, exit status 1). If all 50 start (no limit binds: e.g. RLIMIT_NPROC does not bind
root), it says so on stderr and plays on.

Usage: fork_many.py MARKER
Run with `processes = 10`. Expected: crash at move 3, 2 plies, with a detail that names the
process limit; whatever happens, its children are killed with it: nothing left.
"""
import os
import sys

marker = sys.argv[1]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
for _ in range(50):
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execvp("sleep", ["sleep", f"3601.{marker}"])
sys.stderr.write("fork_many: 50 children started and no process limit hit\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
