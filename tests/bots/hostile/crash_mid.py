#!/usr/bin/env python3
"""Plays two rounds, then dies of SIGSEGV at move 3, as a C bot with a bad pointer does.

Usage: crash_mid.py MARKER
Expected: crash at move 3 ("was killed by SIGSEGV"), 2 plies.
"""
import os
import signal
import sys

for _ in range(3):
    sys.stdin.readline()
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
os.kill(os.getpid(), signal.SIGSEGV)
