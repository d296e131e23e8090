#!/usr/bin/env python3
"""Dama (Italian draughts) bot for arena / Code Colosseum, pipe channel: a careful player.

Among the legal moves it prefers one that crowns a man, and otherwise one after
which the opponent can capture as few of our pieces as possible; ties are broken
at random. One move of look-ahead: easy to beat, but far better than random.

The rules and the board reading are those of random.py; only the choice of move
and the channel differ. With the pipe channel stdin and stdout stay on the
terminal, free for debugging; the game talks through two named pipes.
Squares are named by row digit and column letter, row 1 at the top: `6E 5D`.
Internally the board is board[r][c] with r = row - 1 and c = column (A = 0).
White (b, king B) starts on rows 6-8 and moves up; black (n, king N) moves down.
"""
import os
import re
import sys

# This folder also holds random.py, which would shadow the standard library's
# random module (the script's folder comes first on the import path): drop it.
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


def play(board, path):
    """The board after the legal move path: jumped pieces gone, a man crowned."""
    board = [row[:] for row in board]
    (r, c), (er, ec) = path[0], path[-1]
    piece, board[r][c] = board[r][c], " "
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        if abs(r2 - r1) == 2:
            board[(r1 + r2) // 2][(c1 + c2) // 2] = " "
    if piece.islower() and er == (0 if piece == "b" else 7):
        piece = piece.upper()
    board[er][ec] = piece
    return board


def choose(board, me):
    them = "n" if me == "b" else "b"

    def score(path):
        after = play(board, path)
        (r, c), (er, ec) = path[0], path[-1]
        crowns = board[r][c].islower() and after[er][ec].isupper()
        # Captures are compulsory and the legal ones all take as many pieces,
        # so any one of the opponent's replies tells how much our move exposes.
        replies = legal_moves(after, them)
        exposed = 0
        if replies and abs(replies[0][1][0] - replies[0][0][0]) == 2:
            exposed = len(replies[0]) - 1
        return (crowns, -exposed, random.random())  # random last: breaks ties

    return max(legal_moves(board, me), key=score)


def main():
    # Open both pipes before anything else: the runner does not count the bot
    # as started until both are open (it opens its ends at once, so either order works).
    fin = open(os.environ["COCO_PIPEIN"], "r")
    fout = open(os.environ["COCO_PIPEOUT"], "w")

    fin.readline()  # white's name
    fin.readline()  # black's name
    board = [[" "] * 8 for _ in range(8)]
    me = None
    for line in fin:
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
            # A pipe is a file: writes are buffered even at a newline, so flush.
            print(move_text(choose(board, me)), file=fout, flush=True)
        elif line == "Game Over ;)":
            return


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the runner closed its end: the game is over
