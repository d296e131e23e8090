#!/usr/bin/env python3
"""A deterministic nim bot: it always takes one stone from the first heap that has any. Two
copies of it play the same game every time, unless the game starts from an opening.

Usage: nim_first.py [HEAPS]   (the game's `heaps`, default 3,4,5)
"""
import sys

read = sys.stdin.readline
read(), read()  # the names
seat, _, position = read().strip().partition(" ")
heaps = [int(h) for h in (sys.argv[1] if len(sys.argv) > 1 else "3,4,5").split(",")]
to_move = 0
if position:
    listed, mover = position.split(" ")
    heaps, to_move = [int(h) for h in listed.split(",")], int(mover)
while any(heaps):
    if to_move == int(seat):
        heap = next(i for i, h in enumerate(heaps) if h)
        print(f"{heap + 1}-1", flush=True)
        heaps[heap] -= 1
    else:
        line = read().strip()
        if line in ("", "RETIRE"):
            break
        heap, count = (int(x) for x in line.split("-"))
        heaps[heap - 1] -= count
    to_move = 1 - to_move
