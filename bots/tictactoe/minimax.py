#!/usr/bin/env python3
"""Tic-tac-toe bot for arena, JSON protocol over stdio: perfect play by minimax.

The game is small enough to search to the end from any position, so this bot
never loses. It only shows minimax at its plainest: no alpha-beta, no heuristic.
"""
import json
import os
import sys
from functools import lru_cache

# random.py in this folder would shadow the standard library's random module.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None


# The whole tree from the empty board has over half a million nodes, too slow
# for Python within the time limit; but only a few thousand distinct positions,
# so remembering each position's value makes the search instant.
@lru_cache(maxsize=None)
def value(board, me, turn):
    """Score of `board` for `me` with `turn` to move: >0 a win, <0 a loss, 0 a draw.

    A win is worth more the fewer empty cells it leaves, so the bot wins as soon
    as it can and, when lost anyway, resists as long as possible.
    """
    w = winner(board)
    if w is not None:
        return (1 + board.count(" ")) * (1 if w == me else -1)
    if " " not in board:
        return 0
    other = "o" if turn == "x" else "x"
    scores = [value(board[:i] + turn + board[i + 1:], me, other)
              for i, cell in enumerate(board) if cell == " "]
    return max(scores) if turn == me else min(scores)


def best_move(board, me):
    other = "o" if me == "x" else "x"
    scored = [(value(board[:i] + me + board[i + 1:], me, other), i)
              for i, cell in enumerate(board) if cell == " "]
    top = max(s for s, _ in scored)
    # Several moves are often equally good: pick one at random so that two
    # copies of this bot do not play the very same game every time.
    return random.choice([i for s, i in scored if s == top])


def send(obj):
    print(json.dumps(obj), flush=True)  # stdout is a pipe: flush every line


def main():
    send({"game": "tictactoe"})
    line = sys.stdin.readline()  # {"name": ..., "player": ..., "timelimit": ...}
    ack = json.loads(line) if line else {}
    if "player" not in ack:
        return  # refused ({"log": ...}) or input closed
    me = "x" if ack["player"] == 1 else "o"  # player 1 plays x and starts
    for line in sys.stdin:
        state = json.loads(line)
        if state.get("result", 0) != 0:
            return  # the final state
        if "token" in state:
            send({"token": state["token"], "move": best_move(state["board"], me)})


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
