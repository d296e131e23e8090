#!/usr/bin/env python3
"""Checkers (English draughts) bot for arena, JSON protocol over stdio: a random legal move.

The referee sends the whole board each turn, so the bot keeps no state: it
generates every legal move from the board and picks one.

Board: 64 characters, row by row from the top-left; pieces stand on the dark
squares (row + column odd). Player 1 moves down the board, to higher indices;
player 2 moves up. In arena's default dialect (the original server's,
protocol=server) player 1 has r (king R) and player 2 w (king W); with
protocol=docs player 1 has b (king B) and player 2 r (king R). The bot reads
either, and works in the docs letters.
A move is [start, landing, landing, ...].
"""
import json
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402


def directions(piece):
    """The (row, column) steps a piece may take: men go forward only."""
    forward = [(1, -1), (1, 1)] if piece.lower() == "b" else [(-1, -1), (-1, 1)]
    backward = [(-dr, dc) for dr, dc in forward]
    return forward + backward if piece.isupper() else forward


def on_board(r, c):
    return 0 <= r < 8 and 0 <= c < 8


def crowned(piece, r):
    """Does a man reaching row r become a king? (The far row from its side.)"""
    return piece.islower() and r == (7 if piece == "b" else 0)


def jumps(board, square, piece, path):
    """Every complete jump sequence continuing from square: a sequence ends only
    where the piece cannot jump on, or where a man is crowned."""
    r, c = divmod(square, 8)
    sequences = []
    for dr, dc in directions(piece):
        over, land = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
        if not on_board(*land):
            continue
        victim = board[over[0] * 8 + over[1]]
        target = land[0] * 8 + land[1]
        if victim == " " or victim.lower() == piece.lower() or board[target] != " ":
            continue
        # Play the jump on a copy: the jumped piece is gone, so it cannot be
        # jumped twice, and the piece has left its square.
        after = board[:]
        after[square], after[over[0] * 8 + over[1]], after[target] = " ", " ", piece
        if crowned(piece, land[0]):
            sequences.append(path + [target])  # crowning ends the move
        else:
            sequences += jumps(after, target, piece, path + [target])
    return sequences or ([path] if len(path) > 1 else [])


def docs_letters(board):
    """The board in the docs dialect's letters. While the game goes on player 2
    has a piece, so a w or W means the server's letters."""
    if any(c in "wW" for c in board):
        return board.translate(str.maketrans("rRwW", "bBrR"))
    return board


def legal_moves(board, player):
    mine = "b" if player == 1 else "r"
    board = list(docs_letters(board))
    captures, steps = [], []
    for square, piece in enumerate(board):
        if piece.lower() != mine:
            continue
        captures += jumps(board, square, piece, [square])
        r, c = divmod(square, 8)
        for dr, dc in directions(piece):
            if on_board(r + dr, c + dc) and board[(r + dr) * 8 + c + dc] == " ":
                steps.append([square, (r + dr) * 8 + c + dc])
    return captures or steps  # capturing is compulsory


def send(obj):
    print(json.dumps(obj), flush=True)  # stdout is a pipe: flush every line


def main():
    send({"game": "checkers"})
    line = sys.stdin.readline()  # {"name": ..., "player": ..., "timelimit": ...}
    ack = json.loads(line) if line else {}
    if "player" not in ack:
        return  # refused ({"log": ...}) or input closed
    me = ack["player"]
    for line in sys.stdin:
        state = json.loads(line)
        if state.get("result", 0) != 0:  # the final state: won, lost or drawn
            return
        if "token" not in state:
            continue
        moves = legal_moves(state["board"], me)
        # No legal move means we have lost; the referee never asks us then.
        send({"token": state["token"], "move": random.choice(moves)})


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee stopped listening: the game is over
