#!/usr/bin/env python3
"""Plays two rounds, then forks COUNT children, one every INTERVAL_MS milliseconds; each leaves the
bot's process group (`os.setpgid(0, 0)`), detaches from the pipes and sleeps (`sleep
3601.MARKER`). A failed fork (RLIMIT_NPROC, for a user other than root) is not caught (traceback,
exit status 1). If all start, it says so on stderr and plays on (ROCK).

Usage: fork_setpgid.py MARKER [COUNT [INTERVAL_MS]] (30 and 25 by default)
Run with `processes = 10`. Expected: crash at move 3 with a detail naming the process limit, never
many more than 10 of its processes alive at once (arena counts them every 100 ms, whatever group
they are in); nothing left.
"""
import os
import sys
import time

marker = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 30
interval = (int(sys.argv[3]) if len(sys.argv) > 3 else 25) / 1000
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
for _ in range(count):
    if os.fork() == 0:
        os.setpgid(0, 0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execvp("sleep", ["sleep", f"3601.{marker}"])
    time.sleep(interval)
sys.stderr.write(f"fork_setpgid: {count} children started and no process limit hit\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
