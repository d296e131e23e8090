#!/usr/bin/env python3
"""Plays two rounds, then closes its stdout and keeps running (sleeps, deaf to its input).

Usage: close_stdout.py MARKER
Expected: crash at move 3 ("closed its output"), 2 plies, at once: the end of file says the bot
can never answer, so arena does not wait for the deadline. The process, still alive, is killed by
the close-out (SIGTERM).
"""
import os
import sys
import time

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
sys.stdout.flush()
os.close(1)
time.sleep(3600)
