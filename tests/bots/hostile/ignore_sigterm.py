#!/usr/bin/env python3
"""Plays the whole game well, then will not go: ignores the end of its input and SIGTERM (it says
so on stderr each time), and sleeps.

Usage: ignore_sigterm.py MARKER
Expected: the game ends normally (normal or draw, all rounds); after it, arena closes the input,
waits, sends SIGTERM (the bot writes 'ignoring SIGTERM' to stderr), waits, and SIGKILLs it: the
log's exit entry says SIGKILL and nothing is left.
"""
import os
import signal
import sys
import time


def refuse(signum, frame):
    os.write(2, b"ignoring SIGTERM\n")


signal.signal(signal.SIGTERM, refuse)
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(rounds):
    print("PAPER", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
sys.stdin.read()
os.write(2, b"input closed; staying\n")
while True:
    time.sleep(3600)
