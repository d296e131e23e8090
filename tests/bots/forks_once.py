#!/usr/bin/env python3
"""An honest roshambo bot that forks once: before its first move it starts a helper (`sleep`),
which lives for the game, then plays ROCK every round. A fork refused (EAGAIN) is not caught
(traceback, exit status 1).

Usage: forks_once.py
Run with `processes = 8`, as a user who runs other processes too. Expected: every game played,
whatever the user runs besides (RLIMIT_NPROC counts all of the user's processes and threads,
unless the bot has a user namespace of its own).
"""
import subprocess
import sys

rounds = int([sys.stdin.readline() for _ in range(3)][2])
helper = subprocess.Popen(["sleep", "30"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
helper.kill()
