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
import json
import random
import re
import sys

rng = random.Random(int(sys.argv[1]))


def fail(why):
    sys.stderr.write("chirs_connect4: " + why + "\n")
    sys.exit(3)


def send(obj):
    sys.stdout.write(json.dumps(obj))
    sys.stdout.flush()


def receive():
    line = sys.stdin.readline()
    if not line:
        fail("the server closed the connection before the game ended")
    return json.loads(line)


send({"game": "connectfour"})
ack = receive()
if list(ack) != ["name", "timelimit", "player"] or ack["name"] != "connectfour":
    fail("unexpected acknowledgement %r" % ack)
player = ack["player"]
mine, theirs = {1: ("b", "r"), 2: ("r", "b")}.get(player) or fail("player %r" % player)
played = 0
while True:
    state = receive()
    board = state.get("board", "")
    if len(board) != 42 or set(board) - set(" br"):
        fail("a board not in the server's letters: %r" % board)
    if state["result"] != 0:
        sys.exit(0)
    if state["player"] != player or not re.fullmatch(r"[0-9a-f]{40}", state["token"]):
        fail("unexpected state %r" % state)
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
    send({"token": state["token"], "move": rng.choice(open_cols)})
    played += 1
