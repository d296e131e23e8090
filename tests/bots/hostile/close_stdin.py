#!/usr/bin/env python3
"""Plays two rounds, then closes its stdin and keeps running: it writes a move every 50 ms, blind.

Usage: close_stdin.py MARKER
Expected: crash, not a timeout. Its move 3 arrives; arena's write of round 3's result then fails
at once (EPIPE: nobody can read the pipe any more), and the bot is failed when move 4 is awaited:
"closed its input before move 4", 3 plies. A timeout would be the right reason only for a bot that
keeps stdin open but stops reading it (arena's write then blocks; it is not what this bot does).
The bot ends when arena closes its stdout (BrokenPipeError).
"""
import os
import sys
import time

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
os.close(0)
while True:
    print("ROCK", flush=True)
    time.sleep(0.05)
