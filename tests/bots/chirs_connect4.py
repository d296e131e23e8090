#!/usr/bin/env python3
"""A connect four client written to the original adversarial game server's conventions, for
tests.

Usage: chirs_connect4.py SEED

It asks for `connectfour`, writes every message as one JSON object without a newline, and reads
the board as that server wrote it: 42 cells row by row from the top, `b` for player 1 and `r` for
player 2. It checks that the pieces on the board are the ones the moves so far put there (each
side's count, and that its own count is what it played), then drops into a random column whose
top cell is empty. Anything unexpected makes it exit with status 3.
"""
import random
import sys

from chirs_client import connect, fail, next_board, send

rng = random.Random(int(sys.argv[1]))

player = connect("connectfour")
mine, theirs = ("b", "r") if player == 1 else ("r", "b")
played = 0
while True:
    board, token = next_board(player, 42, "br")
    # Player 1 has as many pieces as player 2 when it is to move; player 2 one fewer.
    if board.count(mine) != played or board.count(theirs) != played + (player == 2):
        fail("the pieces are not the ones played: %r" % board)
    for col in range(7):
        for row in range(5):
            if board[row * 7 + col] != " " and board[(row + 1) * 7 + col] == " ":
                fail("a piece floats in column %d: %r" % (col, board))
    open_cols = [c for c in range(7) if board[c] == " "]
    if not open_cols:
        fail("asked to move on a full board")
    send({"token": token, "move": rng.choice(open_cols)})
    played += 1
