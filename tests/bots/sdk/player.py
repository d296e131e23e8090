#!/usr/bin/env python3
"""A Gem Heist player (bots/sdk/referee.py) that misbehaves on demand; plays greedy otherwise.

Usage: player.py MODE [ARG...]; turns count from 1. See README.md beside it for the modes.
Nothing but answers goes to stdout.
"""
import os
import sys
import time

FOREVER = 3600  # "forever" for a test: long enough, and no process outlives a lost test by hours


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def answer(text, end="\n"):
    sys.stdout.write(text + end)
    sys.stdout.flush()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "honest"
    args = [int(a) for a in sys.argv[2:]]
    at = args[0] if args else None  # the turn of the fault, for the modes that have one
    if mode == "spin":
        spin(FOREVER)
        return
    if mode == "slowstart":
        time.sleep(args[0] / 1000)  # a JVM starting up: nothing read before
    if not sys.stdin.readline():  # `<playerCount> <myIndex>`, first turn only
        return
    turn = 0
    while True:
        gems, scores = sys.stdin.readline(), sys.stdin.readline()
        if not gems or not scores:
            return
        turn += 1
        values = list(map(int, gems.split()))
        order = sorted(range(len(values)), key=lambda i: (-values[i], i))
        pick = str(order[0])
        if turn == at:
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(FOREVER)
                return
            if mode == "late":
                time.sleep(args[1] / 1000)
            if mode == "extra":
                # The second line stays in the referee's pipe: it becomes next turn's answer.
                answer(pick)
                pick = f"{order[1]} extra"
            if mode == "stderr":
                sys.stderr.buffer.write(b"e" * args[1])  # blocks once the pipe is full
                sys.stderr.flush()
            if mode == "invalid":
                pick = "99"
            if mode == "fork" and os.fork() == 0:
                spin(FOREVER)  # holding our pipes, as a child a bot forks does
                os._exit(0)
            if mode == "floodfork" and os.fork() == 0:
                time.sleep(0.2)  # past the flood below: arena no longer reads the bot then
                for _ in range(args[1]):
                    if os.fork() == 0:
                        time.sleep(FOREVER)
                        os._exit(0)
                time.sleep(FOREVER)
                os._exit(0)
        if mode == "slow":
            time.sleep(args[0] / 1000)
        answer(pick, "\r" if mode == "cr" else "\n")
        if mode == "flood" and turn == at:
            sys.stdout.write("0\n" * args[1])  # more than a pipe holds: blocks once full
            sys.stdout.flush()
        if mode == "floodfork" and turn == at:
            # Long lines: the referee's pipe is full within a few of them, so that arena holds
            # the bot back before its child forks.
            sys.stdout.write(("0" + " " * 998 + "\n") * 2000)
            sys.stdout.flush()


main()
