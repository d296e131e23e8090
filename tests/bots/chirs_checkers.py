#!/usr/bin/env python3
"""A checkers client written to the original adversarial game server's conventions, for tests.

Usage: chirs_checkers.py SEED

It speaks as that server's own clients did: every message is one JSON object written without a
newline. It takes its letters from its player number (player 1 is `r`, moving down the board to
higher indices; player 2 is `w`, moving up; kings are upper case), generates its own legal moves
from the board string (English draughts: captures compulsory, a jump sequence completed, a man
crowned ends the move) and plays one at random. Anything unexpected (a board it cannot read, a
state in which it has no move, a message not in the server's form) makes it exit with status 3.
"""
import random
import sys

from chirs_client import connect, fail, next_board, send

rng = random.Random(int(sys.argv[1]))


def moves(board, me):
    """Every legal move of the side whose men are `me` ('r' or 'w'), as lists of indices."""
    them = "w" if me == "r" else "r"
    forward = 1 if me == "r" else -1

    def dirs(piece):
        rows = (1, -1) if piece.isupper() else (forward,)
        return [(dr, dc) for dr in rows for dc in (1, -1)]

    def at(r, c):
        return board[r * 8 + c] if 0 <= r < 8 and 0 <= c < 8 else None

    def jumps(cells, r, c, piece, taken):
        """Complete jump sequences from (r, c); `cells` is the path so far."""
        found = []
        for dr, dc in dirs(piece):
            mid, land = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            victim, dest = at(*mid), at(*land)
            idx_mid = mid[0] * 8 + mid[1]
            if victim and victim.lower() == them and idx_mid not in taken and dest is not None:
                idx = land[0] * 8 + land[1]
                if dest != " " and idx != cells[0]:
                    continue
                path = cells + [idx]
                crowned = piece.islower() and land[0] == (7 if me == "r" else 0)
                more = [] if crowned else jumps(path, land[0], land[1], piece, taken | {idx_mid})
                found.extend(more or [path])
        return found

    captures, steps = [], []
    for i, piece in enumerate(board):
        if piece.lower() != me:
            continue
        r, c = divmod(i, 8)
        captures.extend(jumps([i], r, c, piece, frozenset()))
        for dr, dc in dirs(piece):
            if at(r + dr, c + dc) == " ":
                steps.append([i, (r + dr) * 8 + c + dc])
    return captures or steps


player = connect("checkers")
me = "r" if player == 1 else "w"
while True:
    board, token = next_board(player, 64, "rRwW")
    legal = moves(board, me)
    if not legal:
        fail("asked to move with no legal move on %r" % board)
    send({"token": token, "move": rng.choice(legal)})
