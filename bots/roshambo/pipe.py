#!/usr/bin/env python3
"""Roshambo bot for arena / Code Colosseum, pipe channel: a frequency counter.

It plays whatever beats the opponent's most frequent move so far. That punishes
bots with a favourite gesture, and is itself easy to exploit: a starting point.

With the pipe channel stdin and stdout stay on the terminal, so print() and
input() are free for debugging; the game talks through two named pipes instead.
"""
import os
import sys

# This folder also holds random.py, which would shadow the standard library's
# random module (the script's folder comes first on the import path): drop it.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402
from collections import Counter  # noqa: E402

BEATS = {"ROCK": "PAPER", "PAPER": "SCISSORS", "SCISSORS": "ROCK"}  # move -> what beats it


def main():
    # Open both pipes before anything else: the runner does not count the bot
    # as started until both are open (it opens its ends at once, so either order works).
    fin = open(os.environ["COCO_PIPEIN"], "r")
    fout = open(os.environ["COCO_PIPEOUT"], "w")

    me, opponent, rounds = (fin.readline().strip() for _ in range(3))
    if not rounds.isdigit():
        return
    seen = Counter()
    for _ in range(int(rounds)):
        if seen:
            # Break ties at random, or two copies of this bot would lock into draws.
            top = max(seen.values())
            favourite = random.choice([m for m, c in seen.items() if c == top])
            move = BEATS[favourite]
        else:
            move = random.choice(list(BEATS))
        # A pipe is a file, so writes are buffered even at a newline: flush every time.
        print(move, file=fout, flush=True)
        reply = fin.readline().strip()
        if reply not in BEATS:  # "RETIRE" or end of input ("")
            return
        seen[reply] += 1


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the runner closed its end: the match is over
