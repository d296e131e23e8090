#!/usr/bin/env python3
"""Tron Battle bot for arena (CodinGame's protocol), pipe channel: the most room.

Each turn it takes the move after which it can reach the most free cells (a flood fill from
the cell it would enter); of moves with equal room, the one with the fewest free neighbours,
which keeps it along walls and ribbons and wastes no space behind it.

The protocol is CodinGame's, as `random.py` reads it: `N P`, then `X0 Y0 X1 Y1` per player
(-1 -1 -1 -1 for a player who is out). With the pipe channel stdin and stdout stay on the
terminal, free for debugging; the game talks through two named pipes instead.
"""
import os

WIDTH, HEIGHT = 30, 20
MOVES = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def free_neighbours(cell, owner):
    x, y = cell
    for dx, dy in MOVES.values():
        n = (x + dx, y + dy)
        if 0 <= n[0] < WIDTH and 0 <= n[1] < HEIGHT and n not in owner:
            yield n


def room(start, owner):
    """How many free cells can be reached from `start` (a free cell), itself included."""
    seen, todo = {start}, [start]
    while todo:
        for n in free_neighbours(todo.pop(), owner):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen)


def choose(head, owner):
    best, best_score = "UP", None  # boxed in: any move, all lose
    for word, (dx, dy) in MOVES.items():
        to = (head[0] + dx, head[1] + dy)
        if not (0 <= to[0] < WIDTH and 0 <= to[1] < HEIGHT) or to in owner:
            continue
        owner[to] = "me"  # as if we were there
        score = (room(to, owner), -len(list(free_neighbours(to, owner))))
        del owner[to]
        if best_score is None or score > best_score:
            best, best_score = word, score
    return best


def main():
    # Open both pipes first of all: the runner only counts the bot as started
    # once both are open (it opens its own ends at once, so either order works).
    fin = open(os.environ["COCO_PIPEIN"], "r")
    fout = open(os.environ["COCO_PIPEOUT"], "w")
    owner = {}  # (x, y) -> the player whose ribbon holds it
    while True:
        first = fin.readline()
        if not first:  # input closed: the game is over, or we are out
            return
        n, p = [int(i) for i in first.split()]
        rows = [[int(j) for j in fin.readline().split()] for i in range(n)]
        # Clear the ribbons of the players out before marking the heads: a cycle may
        # already have entered a cell of a ribbon that disappeared since our last turn.
        out = {i for i, row in enumerate(rows) if row[0] == -1}
        owner = {cell: o for cell, o in owner.items() if o not in out}
        for i, (x0, y0, x1, y1) in enumerate(rows):
            if i not in out:
                owner[(x0, y0)] = owner[(x1, y1)] = i
        # A pipe is a file: writes are buffered even at a newline, so flush.
        print(choose((rows[p][2], rows[p][3]), owner), file=fout, flush=True)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the runner closed its end: the game is over
