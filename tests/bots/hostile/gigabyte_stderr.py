#!/usr/bin/env python3
"""Plays the whole game normally while a thread prints a gigabyte on stderr (1 MiB blocks of
newline-terminated lines). After the last round it waits for the thread, then exits.

Usage: gigabyte_stderr.py MARKER
Expected: the game is unaffected (normal or draw, all rounds played); arena keeps only the first
`output_mb` MiB of stderr and says how much it dropped; the flood neither fills arena's memory nor
stalls the game. If the gigabyte is not through when the game ends, arena's close-out kills the
bot: the game is over by then and that is fine.
"""
import os
import sys
import threading

GIB = 1 << 30


def flood():
    block = (b"e" * 1023 + b"\n") * 1024
    for _ in range(GIB // len(block)):
        view = memoryview(block)
        while view:
            view = view[os.write(2, view):]


rounds = int([sys.stdin.readline() for _ in range(3)][2])
writer = threading.Thread(target=flood)
writer.start()
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
writer.join()
