#!/usr/bin/env python3
"""A Highest Unique Number player (bots/referee/numbers.py) that always picks K.

Usage: numbers_pick.py K
"""
import sys

pick = sys.argv[1]
while True:
    if not sys.stdin.readline():  # ROUND r
        break
    sys.stdin.readline()  # the picks of the round before
    print(pick, flush=True)
