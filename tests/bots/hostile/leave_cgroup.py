#!/usr/bin/env python3
"""Starts a child that leaves the bot's session and, where it may (root, no sandbox), the bot's
cgroup too: it writes itself into the root cgroup's cgroup.procs. The child holds none of the
game's pipes and sleeps (`sleep 3601.MARKER`). Then the bot plays the whole game well and exits
at the end of its input.

Usage: leave_cgroup.py MARKER
Expected: normal or draw, all rounds; nothing left. Neither the bot's cgroup (which arena kills
through cgroup.kill), nor its process group, nor its pipes lead to the child: arena must catch
it as an orphan once the bot is gone (arena is the child subreaper).
"""
import os
import sys

marker = sys.argv[1]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
if os.fork() == 0:
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    try:
        with open("/proc/self/mountinfo") as f:
            mount = next(
                line.split()[4]
                for line in f
                if line.split(" - ")[1].split()[0] == "cgroup2"
            )
        with open(os.path.join(mount, "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))
    except (OSError, StopIteration):
        pass
    os.execvp("sleep", ["sleep", f"3601.{marker}"])
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
