#!/usr/bin/env python3
"""Connect four bot for arena, JSON protocol over stdio: drops into a random column.

The board is 42 characters, row-major from the top-left (7 columns, 6 rows),
so index c is the top cell of column c: the column is full when it is taken.
"""
import json
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402


def send(obj):
    print(json.dumps(obj), flush=True)  # stdout is a pipe: flush every line


def main():
    send({"game": "connect4"})
    line = sys.stdin.readline()  # {"name": ..., "player": ..., "timelimit": ...}
    ack = json.loads(line) if line else {}
    if "player" not in ack:
        return  # refused ({"log": ...}) or input closed
    for line in sys.stdin:
        state = json.loads(line)
        if state.get("result", 0) != 0:  # the final state: won, lost or tied
            return
        if "token" not in state:
            continue
        board = state["board"]
        open_columns = [c for c in range(7) if board[c] == " "]
        send({"token": state["token"], "move": random.choice(open_columns)})


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee stopped listening: the game is over
