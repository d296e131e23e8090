#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py): always takes as many as it may."""

import sys

while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(min(3, int(heap)), flush=True)
