#!/usr/bin/env python3
"""A nim bot for arena's tests: it tracks the heaps and takes a random number of stones from a
random heap that has some."""
import os
import sys

# Python puts the script's own folder first on the import path, and this file is random.py:
# `import random` would load it again instead of the standard library (it did, as a user whose
# Python had not imported `random` at start-up). Drop that folder before importing.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

HEAPS = [3, 4, 5]  # the game's default `heaps`


def main():
    read = sys.stdin.readline
    read(), read()  # the two names
    # Our seat; from an opening, then a space and the position: `3,0,5 1`.
    seat, _, position = read().strip().partition(" ")
    seat = int(seat)
    heaps, to_move = list(HEAPS), 0
    if position:
        listed, mover = position.split(" ")
        heaps, to_move = [int(h) for h in listed.split(",")], int(mover)
    while any(heaps):
        if to_move == seat:
            heap = random.choice([i for i, h in enumerate(heaps) if h])
            count = random.randint(1, heaps[heap])
            print(f"{heap + 1}-{count}", flush=True)
        else:
            line = read().strip()
            if line in ("", "RETIRE"):
                return
            heap, count = (int(x) for x in line.split("-"))
            heap -= 1
        heaps[heap] -= count
        to_move = 1 - to_move


main()
