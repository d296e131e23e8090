#!/usr/bin/env python3
"""Starts a family and then never answers: a child in its process group
(`sleep 3601.MARKER`), and a daemon grandchild (fork, setsid, fork, the middle exits: re-parented to
arena, the child subreaper) that also sleeps (`sleep 3602.MARKER`). Then it reads the game's first
lines and sleeps (60 s at most). For killing arena while a game runs.

Usage: sleep_family.py MARKER
Expected: when arena is SIGKILLed, the bot dies with it (PR_SET_PDEATHSIG); with the sandbox,
everything in its pid namespace dies too.
"""
import os
import sys
import time

marker = sys.argv[1]


def detach():
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


if os.fork() == 0:
    detach()
    os.execvp("sleep", ["sleep", f"3601.{marker}"])
middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        detach()
        os.execvp("sleep", ["sleep", f"3602.{marker}"])
    os._exit(0)
os.waitpid(middle, 0)
sys.stdin.readline()
time.sleep(60)
