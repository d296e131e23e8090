#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py): leaves the opponent a multiple of 4 when it can."""

import sys

while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(int(heap) % 4 or 1, flush=True)
