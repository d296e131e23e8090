#!/usr/bin/env python3
"""Tic-tac-toe bot for arena, JSON protocol over stdio: plays a random empty cell.

The JSON protocol: we ask for the game, read the acknowledgement (which tells
us whether we are player 1 or 2), then answer every state that carries a token
with that token and our move, until a state with a result arrives.
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
    # stdout is a pipe, hence block-buffered: flush, or the referee waits for nothing.
    print(json.dumps(obj), flush=True)


def main():
    send({"game": "tictactoe"})
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
        empty = [i for i, cell in enumerate(board) if cell == " "]
        send({"token": state["token"], "move": random.choice(empty)})


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee stopped listening: the game is over
