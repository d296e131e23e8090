#!/usr/bin/env python3
"""A player for tests/bots/referee_broken.py's `two` mode: answers every input of two lines with
two lines."""

import sys

while True:
    heap = sys.stdin.readline()
    last = sys.stdin.readline()
    if not last:
        break
    print(1, flush=True)
    print(2, flush=True)
