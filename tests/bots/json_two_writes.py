#!/usr/bin/env python3
"""A tictactoe client that puts two JSON values in one write, without newlines, for tests.

Usage: json_two_writes.py

It asks for tictactoe; at its first state it writes its move (the first empty cell, with the
token) and, in the same write, a second move with a stale token. The first must be taken as its
move; the second is its next message, judged on its own when its turn comes again.
"""
import json
import sys

sys.stdout.write(json.dumps({"game": "tictactoe"}))
sys.stdout.flush()
for line in sys.stdin:
    state = json.loads(line)
    if state.get("result", 0) != 0 or "token" not in state:
        continue
    cell = state["board"].index(" ")
    first = json.dumps({"token": state["token"], "move": cell})
    second = json.dumps({"token": "stale", "move": cell + 1})
    sys.stdout.write(first + second)
    sys.stdout.flush()
