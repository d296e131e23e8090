#!/usr/bin/env python3
"""Plays a round, then, within its second move, makes COUNT orphans, one every INTERVAL_MS
milliseconds: fork, setsid, fork again, the middle exits at once, and the grandchild (its own
session, none of the game's pipes) sleeps (`sleep 3601.MARKER`). Outside the bot's tree, none of
them is in a count of the bot's processes made by walking that tree. A failed fork (a limit that
counts them) is not caught (traceback, exit status 1). Then it plays on (ROCK).

Usage: orphan_bomb.py MARKER [COUNT [INTERVAL_MS]] (60 and 20 by default)
Run with `processes = 10` and a move timeout past COUNT x INTERVAL_MS. Expected: never many more
than 10 of its processes alive at once, whatever holds the limit (a pids controller or
RLIMIT_NPROC in a namespace: its fork fails, or it is killed; arena counting them itself: each
count kills what left the tree); nothing left.
"""
import os
import sys
import time

marker = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 60
interval = (int(sys.argv[3]) if len(sys.argv) > 3 else 20) / 1000
rounds = int([sys.stdin.readline() for _ in range(3)][2])
print("ROCK", flush=True)
sys.stdin.readline()
for _ in range(count):
    middle = os.fork()
    if middle == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execvp("sleep", ["sleep", f"3601.{marker}"])
        os._exit(0)
    os.waitpid(middle, 0)
    time.sleep(interval)
for _ in range(rounds - 1):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
