#!/usr/bin/env python3
"""A Highest Unique Number player (bots/referee/numbers.py) that avoids the crowd: it picks the
highest number no one picked in the round before (its own pick aside), starting from TOP (8 by
default), so that it wins whenever the others repeat themselves.

Usage: numbers_shy.py [TOP]
"""
import sys

top = int(sys.argv[1]) if len(sys.argv) > 1 else 8
mine = 0
while True:
    if not sys.stdin.readline():  # ROUND r
        break
    picks = [int(p) for p in sys.stdin.readline().split()]
    others = list(picks)
    if mine in others:
        others.remove(mine)
    free = [n for n in range(top, 0, -1) if n not in others]
    mine = free[0] if free else top
    print(mine, flush=True)
