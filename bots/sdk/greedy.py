#!/usr/bin/env python3
"""Gem Heist greedy bot: takes the most valuable gem (the leftmost of equals).

Turn 1 starts with `<playerCount> <myIndex>`; every turn then has the 12 gem values (0 = taken)
and every player's score. Answer one line: a gem index.
"""
import sys


def main():
    first = sys.stdin.readline()
    if not first:
        return
    count, me = map(int, first.split())
    while True:
        gems = sys.stdin.readline()
        scores = sys.stdin.readline()
        if not gems or not scores:
            return
        values = list(map(int, gems.split()))
        mine = int(scores.split()[me])
        pick = max(range(len(values)), key=lambda i: (values[i], -i))
        # stderr is for debugging; arena's viewer shows what came before an answer at that
        # turn (the SDK keeps it in its log's `errors`, 4 KB a turn at most).
        print(f"score {mine}, taking gem {pick} worth {values[pick]}", file=sys.stderr, flush=True)
        print(pick, flush=True)


main()
