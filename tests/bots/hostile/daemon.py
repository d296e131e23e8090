#!/usr/bin/env python3
"""Daemonizes a grandchild the classic way: fork, setsid, fork again, the middle process exits at
once; the grandchild has no parent but init, its own session and group, none of the game's pipes
(all on /dev/null), and sleeps (`sleep 3601.MARKER`). Then the bot plays the whole game well and
exits at the end of its input.

Usage: daemon.py MARKER
Expected: normal or draw, all rounds; nothing left. Neither the process group nor the pipes lead
to the grandchild: arena must catch it as a descendant (a child subreaper, or a cgroup).
"""
import os
import sys

marker = sys.argv[1]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
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
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
