#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py): takes 1 to 3 pebbles at random."""

import os
import sys

# This folder holds a bot named random.py, and Python puts a script's own folder first on the
# import path: `import random` would load it instead of the standard library (bots/README.md).
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(random.randint(1, min(3, int(heap))), flush=True)
