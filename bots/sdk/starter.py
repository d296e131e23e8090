#!/usr/bin/env python3
"""Gem Heist starter bot: takes the first gem still there.

Turn 1 starts with `<playerCount> <myIndex>`; every turn then has the 12 gem values (0 = taken)
and every player's score. Answer one line: a gem index, optionally followed by a message.
"""
import sys


def main():
    first = sys.stdin.readline()
    if not first:
        return
    count, me = map(int, first.split())  # noqa: F841 (a real bot would use them)
    while True:
        gems = sys.stdin.readline()
        scores = sys.stdin.readline()
        if not gems or not scores:
            return  # the referee is done with us
        values = list(map(int, gems.split()))
        pick = next(i for i, v in enumerate(values) if v)
        # Flush: the referee reads the pipe, not a terminal, so Python would otherwise hold it.
        print(pick, "first one", flush=True)


main()
