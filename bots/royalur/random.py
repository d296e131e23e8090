#!/usr/bin/env python3
"""Royal Game of Ur bot for arena / Code Colosseum, stdio channel: random legal moves.

The referee sends only the rolls and the opponent's token numbers, never the
board, so the bot has to replay every move to know where the tokens are.

Positions: 0 = start, 1..14 = own track, 15 = finished. Cells 5..12 are shared
and numbered the same for both players; 4, 8 and 14 are rosettes.
"""
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

ROSETTES = (4, 8, 14)
SHARED = range(5, 13)
DONE = 15


def legal_moves(mine, theirs, n):
    """Tokens of `mine` that can move n cells forward."""
    moves = []
    for token, p in enumerate(mine):
        t = p + n
        if n == 0 or p == DONE or t > DONE:  # leaving needs the exact count
            continue
        if t != DONE and t in mine:  # never on our own token (any number may finish)
            continue
        if t == 8 and 8 in theirs:  # an occupied rosette is safe: only 8 is shared
            continue
        moves.append(token)
    return moves


def main():
    sys.stdin.readline()  # name of seat 0
    sys.stdin.readline()  # name of seat 1
    seat = sys.stdin.readline().strip()
    if seat not in ("0", "1"):
        return
    me = int(seat)
    pos = [[0] * 7, [0] * 7]  # pos[player][token]
    turn = 0  # seat 0 moves first
    while True:
        roll = sys.stdin.readline()  # every turn starts with a roll for `turn`
        if not roll:  # input closed: the game is over (won, lost or stopped)
            return
        n = roll.split().count("1")
        mover, other = pos[turn], pos[1 - turn]
        moves = legal_moves(mover, other, n)
        if not moves:
            # Nobody sends anything: the next roll is the other player's.
            turn = 1 - turn
            continue
        if turn == me:
            token = random.choice(moves)
            print(token, flush=True)  # stdout is a pipe: flush or the move waits in a buffer
        else:
            line = sys.stdin.readline().strip()
            if line == "RETIRE" or not line.isdigit():  # opponent out, or input closed
                return
            token = int(line)  # the referee checked it, so it is legal
        t = mover[token] + n
        mover[token] = t
        if t in SHARED and t in other:  # capture: that token goes back to start
            other[other.index(t)] = 0
        if t not in ROSETTES:  # a rosette means the same player rolls again
            turn = 1 - turn


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee is gone: the game is over
