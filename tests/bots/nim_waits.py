#!/usr/bin/env python3
"""A nim bot for the parallel duel test: in seat 0 it waits before its first move until the file
DIR/released appears, which the test makes once it has seen game 2 recorded. Played against a
bot that takes the single stone of `heaps=1`, a duel's game 1 (this bot first) can only finish
after game 2 has: only if the games run at once, and out of order.

Usage: nim_waits.py DIR
"""
import os
import sys
import time

released = os.path.join(sys.argv[1], "released")
read = sys.stdin.readline
read(), read()  # the names
seat = read().strip()
if seat == "0":
    deadline = time.monotonic() + 30
    while not os.path.exists(released) and time.monotonic() < deadline:
        time.sleep(0.01)
    print("1-1", flush=True)
else:
    read()  # the opponent took the last stone
