#!/usr/bin/env python3
"""Dama (Italian draughts) bot for arena / Code Colosseum, stdio channel: random legal moves.

The referee draws the board after every move, so the bot just re-reads it each
time and never has to replay moves itself. It generates the legal moves under
the Italian federation's rules and answers the prompt with a random one.

Squares are named by row digit and column letter, row 1 at the top: `6E 5D`.
Internally the board is board[r][c] with r = row - 1 and c = column (A = 0).
White (b, king B) starts on rows 6-8 and moves up; black (n, king N) moves down.
"""
import os
import re
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

# A board line: "6 [b][ ][b][ ][b][ ][b][ ] 6", the row number on both sides.
BOARD_LINE = re.compile(r"^([1-8]) ((?:\[.\]){8}) \1$")


def steps(piece):
    """Diagonal (row, column) steps: men forward only, kings all four ways."""
    forward = -1 if piece.lower() == "b" else 1  # white goes up, towards row 1
    dirs = [(forward, -1), (forward, 1)]
    return dirs + [(-forward, -1), (-forward, 1)] if piece.isupper() else dirs


def captures(board, r, c, piece, path, taken):
    """Every complete capture sequence from (r, c): a list of (path, taken),
    taken being the captured pieces in order. It must go on while it can."""
    found = []
    for dr, dc in steps(piece):
        r1, c1, r2, c2 = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= r2 < 8 and 0 <= c2 < 8) or board[r2][c2] != " ":
            continue
        victim = board[r1][c1]
        if victim == " " or victim.lower() == piece.lower():
            continue
        if victim.isupper() and piece.islower():
            continue  # a man may not capture a king
        # Play the jump on a copy, so that a piece cannot be jumped twice.
        after = [row[:] for row in board]
        after[r][c], after[r1][c1], after[r2][c2] = " ", " ", piece
        # A man on the last row is crowned and stops; men only capture forward,
        # so it could not go on from there anyway.
        found += captures(after, r2, c2, piece, path + [(r2, c2)], taken + [victim])
    return found or ([(path, taken)] if taken else [])


def legal_moves(board, me):
    """All legal moves for colour me ('b' or 'n'), each a list of (row, col)."""
    all_captures, simple = [], []
    for r in range(8):
        for c in range(8):
            piece = board[r][c]
            if piece.lower() != me:
                continue
            for path, taken in captures(board, r, c, piece, [(r, c)], []):
                all_captures.append((path, taken, piece.isupper()))
            for dr, dc in steps(piece):
                if 0 <= r + dr < 8 and 0 <= c + dc < 8 and board[r + dr][c + dc] == " ":
                    simple.append([(r, c), (r + dr, c + dc)])
    if not all_captures:
        return simple

    def precedence(capture):
        # The FID rules, in order: (1) most pieces taken; (2) taking with a king;
        # (3) most kings taken; (4) kings met earliest. For (4), comparing the
        # captured pieces in order with a king above a man does exactly that.
        path, taken, by_king = capture
        kings = [p.isupper() for p in taken]
        return (len(taken), by_king, sum(kings), kings)

    best = max(precedence(x) for x in all_captures)
    return [x[0] for x in all_captures if precedence(x) == best]


def move_text(path):
    return " ".join(f"{r + 1}{'ABCDEFGH'[c]}" for r, c in path)


def main():
    sys.stdin.readline()  # white's name
    sys.stdin.readline()  # black's name
    board = [[" "] * 8 for _ in range(8)]
    me = None
    for line in sys.stdin:
        line = line.rstrip("\n")
        drawn = BOARD_LINE.match(line)
        if drawn:
            # Each cell is "[x]": the piece is every third character from the second.
            board[int(drawn.group(1)) - 1] = list(drawn.group(2)[1::3])
        elif line == "Sei i Bianchi":
            me = "b"
        elif line == "Sei i Neri":
            me = "n"
        elif line == "Mossa non valida riprova!":
            # Our board or rules went wrong somewhere; say so, and try again at the
            # next prompt (the referee allows a few retries).
            print("dama bot: move refused", file=sys.stderr, flush=True)
        elif line.startswith("Es > "):  # the last line of the prompt: our turn
            moves = legal_moves(board, me)
            # stdout is a pipe, hence block-buffered: flush or the move never leaves.
            print(move_text(random.choice(moves)), flush=True)
        elif line == "Game Over ;)":
            return


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee stopped listening: the game is over
