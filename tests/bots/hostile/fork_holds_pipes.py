#!/usr/bin/env python3
"""Starts a child that inherits stdin, stdout and stderr and sleeps (`sleep 3601.MARKER`), plays
two rounds, then exits with status 0. The child keeps the pipes open, so no end of file comes.

Usage: fork_holds_pipes.py MARKER
Expected: crash at move 3 ("exited with status 0") as soon as the bot exits, not a timeout
(arena watches the process, not just the pipe); the child, in the bot's process group, is killed
with it: nothing left.
"""
import os
import sys

marker = sys.argv[1]
for _ in range(3):
    sys.stdin.readline()
if os.fork() == 0:
    os.execvp("sleep", ["sleep", f"3601.{marker}"])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
sys.exit(0)
