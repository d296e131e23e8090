#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py) that takes 1, and sleeps instead of its move number
`sys.argv[1]` (1 is its first): for the tests of a player late under `###Output`."""

import sys
import time

late = int(sys.argv[1])
moves = 0
while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    moves += 1
    if moves == late:
        time.sleep(30)
    print(1, flush=True)
