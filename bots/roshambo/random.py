#!/usr/bin/env python3
"""Roshambo bot for arena / Code Colosseum, stdio channel: plays uniformly at random.

Uniform random play is the Nash equilibrium of rock-paper-scissors: nobody can
beat it on average, but it cannot exploit a predictable opponent either.
"""
import os
import sys

# This folder contains a file named random.py (this one), and Python puts the
# script's own folder first on the import path, so `import random` would load
# this file instead of the standard library. Drop that folder before importing.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

MOVES = ("ROCK", "PAPER", "SCISSORS")


def main():
    # The first three lines: our name, the opponent's name, the number of rounds.
    # readline() returns "" at end of input, which we treat like a retirement.
    me, opponent, rounds = (sys.stdin.readline().strip() for _ in range(3))
    if not rounds.isdigit():
        return
    for _ in range(int(rounds)):
        # stdout is a pipe, hence block-buffered: without flush the move would sit
        # in our buffer while the referee waits for it, until one of us times out.
        print(random.choice(MOVES), flush=True)
        reply = sys.stdin.readline().strip()
        if reply in ("", "RETIRE"):  # end of input, or the opponent is out
            return
        # reply is the opponent's move; a smarter bot would learn from it.


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the referee stopped listening: the match is over, so just leave
