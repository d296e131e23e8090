#!/usr/bin/env python3
"""Batalo bot for arena, stdio channel: random legal moves.

The referee sends only the opponent's moves (`g4-g6`), never the board, so the
bot keeps the board itself and plays every move on it, its own and the
opponent's.

A point is (row, number): row 0..12 for the letters a..m, number 1..13 for the
diagonal. Row r holds the numbers max(1, r-5) .. min(13, 7+r). The neighbours
of (r, c) are (r, c-1), (r, c+1), (r-1, c-1), (r-1, c), (r+1, c), (r+1, c+1);
those six offsets are also the six straight lines.
"""
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

ROWS = "abcdefghijklm"
DIRS = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1)]
BASE = [(6, 4), (6, 10)]  # O's home base g4, X's g10


def on_board(p):
    r, c = p
    return 0 <= r < 13 and max(1, r - 5) <= c <= min(13, 7 + r)


def name(p):
    return f"{ROWS[p[0]]}{p[1]}"


def parse(text):
    """'g4' -> (6, 4)."""
    text = text.strip().lower()
    return (ROWS.index(text[0]), int(text[1:]))


def start():
    """board[point] = (seat, is_column); seat 0 is O, 1 is X."""
    board = {}
    for seat, (column, stones) in enumerate(
        [("g4", "f3 f4 g3 g5 h4 h5"), ("g10", "f9 f10 g9 g11 h10 h11")]
    ):
        board[parse(column)] = (seat, True)
        for s in stones.split():
            board[parse(s)] = (seat, False)
    return board


def destinations(board, frm):
    """Every point the piece on `frm` can end its move on."""
    seat, column = board[frm]
    own_base, enemy_base = BASE[seat], BASE[1 - seat]
    ends = set()
    # Hops over friendly pieces, chained: a search over landing points. The
    # start counts as empty (nothing hops over it) and is never an end; a
    # chain stops on the enemy base (that wins); a stone never lands on its
    # own base.
    seen, todo = {frm}, [frm]
    while todo:
        at = todo.pop()
        if at == enemy_base:
            continue
        for dr, dc in DIRS:
            over = (at[0] + dr, at[1] + dc)
            land = (at[0] + 2 * dr, at[1] + 2 * dc)
            if over == frm or board.get(over, (None,))[0] != seat:
                continue
            if not on_board(land) or land in board or land in seen:
                continue
            if not column and land == own_base:
                continue
            seen.add(land)
            ends.add(land)
            todo.append(land)
    for dr, dc in DIRS:
        p = (frm[0] + dr, frm[1] + dc)
        while on_board(p):
            if p in board:
                # Only a column's straight move captures, and never a column
                # standing on its own home base.
                s, col = board[p]
                if column and s != seat and not (col and p == BASE[s]):
                    ends.add(p)
                break
            if column or p != own_base:
                ends.add(p)
            if not column:
                break  # a stone steps once
            p = (p[0] + dr, p[1] + dc)
    ends.discard(frm)
    return ends


def from_position(text):
    """The board and the side to move of a position as arena writes it
    (`X:O(g8),f3:X(g10),g9`: the side to move, then O's and X's pieces, a
    column in brackets), for games that start from an opening."""
    to_move, *sides = text.split(":")
    board = {}
    for seat, side in enumerate(sides):
        for item in filter(None, side[1:].split(",")):
            column = item.startswith("(")
            board[parse(item.strip("()"))] = (seat, column)
    return board, "OX".index(to_move)


def legal_moves(board, seat):
    return [
        (frm, to)
        for frm in sorted(board)
        if board[frm][0] == seat
        for to in sorted(destinations(board, frm))
    ]


def play(board, frm, to):
    board[to] = board.pop(frm)  # whatever stood on `to` is captured


def main():
    sys.stdin.readline()  # O's name (seat 0)
    sys.stdin.readline()  # X's name (seat 1)
    # Our seat; when the game starts from an opening, then a space and the
    # position.
    seat, _, position = sys.stdin.readline().strip().partition(" ")
    if seat not in ("0", "1"):
        return
    me = int(seat)
    board, turn = from_position(position) if position else (start(), 0)
    while True:
        if turn == me:
            moves = legal_moves(board, me)
            if not moves:
                return  # no move: the game is over, and the input closes
            frm, to = random.choice(moves)
            # stdout is a pipe: flush, or the move waits in a buffer.
            print(f"{name(frm)}-{name(to)}", flush=True)
        else:
            line = sys.stdin.readline().strip()
            if not line or line == "RETIRE":  # game over or opponent out
                return
            a, b = line.split("-")
            frm, to = parse(a), parse(b)
        play(board, frm, to)
        turn = 1 - turn


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee is gone: the game is over
