#!/usr/bin/env python3
"""A Highest Unique Number player (bots/referee/numbers.py): a random pick from 1 to 9.

Each round it reads `ROUND r` and the round before's picks, and writes its own.
"""
import os
import sys

# This folder holds a bot named random.py, which would shadow the standard library's random.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

while True:
    if not sys.stdin.readline():  # ROUND r: the game is over when the input ends
        break
    sys.stdin.readline()  # the picks of the round before
    print(random.randint(1, 9), flush=True)
