#!/usr/bin/env python3
"""A referee for Pebbles, written for arena over cg-brutaltester's protocol (`arena games referee`).

Rules: a heap of 15 to 30 pebbles (drawn from the seed); the players take 1, 2 or 3 pebbles in
turn, player 0 first; whoever takes the last pebble wins. After `--max-turns` turns (default 100)
the game is a draw. A player that takes a wrong number loses.

What a player reads each turn: two lines, the pebbles left and how many the opponent took last
(0 on the first turn). What it writes: one line, how many it takes.

Usage: python3 pebbles.py [--max-turns N]
"""

import os
import sys

# This folder holds a bot named random.py, and Python puts a script's own folder first on the
# import path: `import random` would load it instead of the standard library (bots/README.md).
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402


def say(*lines):
    print("\n".join(lines), flush=True)


def main():
    max_turns = 100
    if sys.argv[1:2] == ["--max-turns"]:
        max_turns = int(sys.argv[2])
    seed = None
    # arena writes ###Seed (always) and ###Start; cg-brutaltester may leave out the seed.
    for line in sys.stdin:
        if line.startswith("###Seed"):
            seed = int(line.split()[1])
        elif line.startswith("###Start"):
            break
    rng = random.Random(seed)
    heap = rng.randint(15, 30)
    player, last = 0, 0
    for _ in range(max_turns):
        say(f"###Input {player}", str(heap), str(last), f"###Output {player} 1")
        answer = sys.stdin.readline()
        if not answer:
            return  # arena closed our input: the player failed, the game is decided
        other = 1 - player
        answer = answer.strip()
        take = int(answer) if answer in ("1", "2", "3") else 0
        if not 1 <= take <= heap:
            say(f"###Error {player} took {answer!r} from {heap}", f"###End {other} {player}")
            return
        heap -= take
        last = take
        # Debugging goes to stderr: arena keeps it beside the game's log.
        print(f"player {player} takes {take}, {heap} left", file=sys.stderr)
        if heap == 0:
            say(f"###End {player} {other}")
            return
        player = other
    say("###End 01")


main()
