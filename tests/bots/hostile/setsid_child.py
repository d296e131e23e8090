#!/usr/bin/env python3
"""Starts a child that leaves the bot's process group and session (setsid) but keeps the game's
pipes (stdin, stdout, stderr), and sleeps (`sleep 3601.MARKER`). Then plays the whole game well
and exits at the end of its input.

Usage: setsid_child.py MARKER
Expected: normal or draw, all rounds; nothing left. Killing the bot's process group does not reach
the child: arena must find it another way (it holds the bot's pipes; it is the bot's descendant).
"""
import os
import sys

marker = sys.argv[1]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", f"3601.{marker}"])
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
