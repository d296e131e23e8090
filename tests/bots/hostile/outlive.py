#!/usr/bin/env python3
"""Starts three children that outlive it, in its own process group but detached from the game's
pipes (stdin, stdout, stderr on /dev/null): two plain `sleep 3601.MARKER`, and one that ignores
SIGTERM (an ignored signal stays ignored across exec). Then plays the whole game well and exits
at the end of its input.

Usage: outlive.py MARKER
Expected: normal or draw, all rounds; the children are killed with the bot's group: nothing left.
"""
import os
import signal
import sys

marker = sys.argv[1]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for deaf in (False, False, True):
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        if deaf:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.execvp("sleep", ["sleep", f"3601.{marker}"])
for _ in range(rounds):
    print("SCISSORS", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
