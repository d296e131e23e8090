#!/usr/bin/env python3
"""A referee for Highest Unique Number, a game of 2 to 8 players, written for arena over
cg-brutaltester's protocol (`arena games referee`): `arena match A B C --referee "python3
bots/referee/numbers.py"`.

Rules: 5 rounds (`--rounds N`). Each round every player picks a number from 1 to 9, not seeing
the others' picks of that round; the highest number that no one else picked scores its value
for the player who picked it (no one scores when every number was picked twice). After the last
round, the players are ranked by their points, equal points sharing a rank. A player that
answers anything but a number from 1 to 9 is ranked last, alone or with the others who did.

What a player reads each round: `ROUND r` (1 first), then the picks of the round before, one
number per player in seat order (all 0 before the first round). What it writes: its pick.

Usage: python3 numbers.py [--rounds N]
"""

import sys


def say(*lines):
    print("\n".join(lines), flush=True)


def main():
    rounds = 5
    if sys.argv[1:2] == ["--rounds"]:
        rounds = int(sys.argv[2])
    players = 2
    for line in sys.stdin:
        if line.startswith("###Start"):
            players = int(line.split()[1])
            break
    points = [0] * players
    picks = [0] * players
    broke = set()
    for r in range(1, rounds + 1):
        last = " ".join(str(p) for p in picks)
        for i in range(players):
            say(f"###Input {i}", f"ROUND {r}", last)
        for i in range(players):
            say(f"###Output {i} 1")
            answer = sys.stdin.readline().strip()
            picks[i] = int(answer) if answer in [str(n) for n in range(1, 10)] else 0
            if picks[i] == 0:
                broke.add(i)
        unique = [p for p in picks if p and picks.count(p) == 1]
        if unique:
            points[picks.index(max(unique))] += max(unique)
    # Ranks, best first: players grouped by points; those who broke the rules last.
    keys = sorted({points[i] for i in range(players) if i not in broke}, reverse=True)
    groups = ["".join(str(i) for i in range(players) if i not in broke and points[i] == k) for k in keys]
    if broke:
        groups.append("".join(str(i) for i in sorted(broke)))
    say("###End " + " ".join(groups))


if __name__ == "__main__":
    main()
