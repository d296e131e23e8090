#!/usr/bin/env python3
"""Lines of Action bot for arena (CodinGame's protocol) over stdio: a random legal move.

Every turn the referee sends the board (8 rows, rank 8 first), the opponent's last move, the
number of legal moves and the moves themselves, so a bot needs no rules at all to play legally:
it reads the list and picks from it. The very first line of the game is the bot's colour.
"""
import os
import sys

# This folder contains random.py (this file), which would shadow the standard
# library's random module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402


def read():
    line = sys.stdin.readline()
    if not line:
        raise EOFError  # the game is over: the referee closed our input
    return line.strip()


def main():
    colour = read()  # "b" (black, moves first) or "w"
    print(f"playing {colour}", file=sys.stderr)  # debugging goes to stderr
    while True:
        board = [read() for _ in range(8)]  # rank 8 first, '.', 'b', 'w'
        last = read()  # the opponent's last move, "null" on the first turn, or "pass"
        moves = [read() for _ in range(int(read()))]  # sorted; just ["pass"] with no move
        move = random.choice(moves)
        # Anything after a space is a comment for the spectators.
        print(f"{move} random", flush=True)  # stdout is a pipe: flush every line
        del board, last


if __name__ == "__main__":
    try:
        main()
    except (EOFError, BrokenPipeError):
        pass  # the game is over
