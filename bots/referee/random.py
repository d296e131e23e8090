#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py): takes 1 to 3 pebbles at random."""

import random
import sys

while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(random.randint(1, min(3, int(heap))), flush=True)
