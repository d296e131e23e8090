#!/usr/bin/env python3
"""Tron Battle bot for arena (CodinGame's protocol) over stdio: a random move that keeps it in.

It reads its input exactly as CodinGame's starter code does: each turn `N P` (the number of
players, its own index), then one line per player, `X0 Y0 X1 Y1` (where that ribbon started,
where its cycle is now; -1 -1 -1 -1 for a player who is out). The ribbons themselves are not
sent, so the bot keeps its own grid: between two of its turns every other cycle moves once, so
marking every head it is told of records every ribbon cell; the cells of a player whose line
turns to -1 are cleared, as its ribbon disappears from the game.
"""
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

WIDTH, HEIGHT = 30, 20
MOVES = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def main():
    owner = {}  # (x, y) -> the player whose ribbon holds it
    while True:
        n, p = [int(i) for i in input().split()]
        rows = [[int(j) for j in input().split()] for i in range(n)]
        # Clear the ribbons of the players out before marking the heads: a cycle may
        # already have entered a cell of a ribbon that disappeared since our last turn.
        out = {i for i, row in enumerate(rows) if row[0] == -1}
        owner = {cell: o for cell, o in owner.items() if o not in out}
        for i, (x0, y0, x1, y1) in enumerate(rows):
            if i not in out:
                owner[(x0, y0)] = owner[(x1, y1)] = i
        x, y = rows[p][2], rows[p][3]
        safe = [
            word
            for word, (dx, dy) in MOVES.items()
            if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT and (x + dx, y + dy) not in owner
        ]
        move = random.choice(safe or list(MOVES))  # boxed in: any move, all lose
        print(move, flush=True)  # stdout is a pipe: flush every line


if __name__ == "__main__":
    try:
        main()
    except (EOFError, BrokenPipeError):
        pass  # the game is over, or we are out: arena closed our input
