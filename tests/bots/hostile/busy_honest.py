#!/usr/bin/env python3
"""Not hostile: the victim of spin_after_move.py. Royal Game of Ur, first legal token, but before
each move it computes for BURN seconds of its own CPU time (0.3 by default), as a searching bot
would; on stderr, each move's wall time (`busy_honest: move N took S s`) and when it thought
(`busy_honest: thought from START to END`, times from `time.time()`).

Usage: busy_honest.py [BURN]
Expected: with a 1 s timeout it never times out when nobody takes its CPU (on 2 cores).
"""
import sys
import time

burn = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
ROSETTES = (4, 8, 14)
SHARED = range(5, 13)
DONE = 15


def legal_moves(mine, theirs, n):
    moves = []
    for token, p in enumerate(mine):
        t = p + n
        if n == 0 or p == DONE or t > DONE:
            continue
        if t != DONE and t in mine:
            continue
        if t == 8 and 8 in theirs:
            continue
        moves.append(token)
    return moves


def think():
    start = time.process_time()
    x = 0
    while time.process_time() - start < burn:
        for i in range(1000):
            x += i * i
    return x


def main():
    sys.stdin.readline()
    sys.stdin.readline()
    me = int(sys.stdin.readline())
    pos = [[0] * 7, [0] * 7]
    turn = 0
    moved = 0
    while True:
        roll = sys.stdin.readline()
        if not roll:
            return
        n = roll.split().count("1")
        mover, other = pos[turn], pos[1 - turn]
        moves = legal_moves(mover, other, n)
        if not moves:
            turn = 1 - turn
            continue
        if turn == me:
            started = time.monotonic()
            wall = time.time()
            think()
            # The thinking ends before the move is written: once it is, the opponent's turn
            # begins and its processes may run, even before this line of code does.
            thought = time.time()
            took = time.monotonic() - started
            token = moves[0]
            print(token, flush=True)
            moved += 1
            sys.stderr.write(f"busy_honest: move {moved} took {took:.3f} s\n")
            sys.stderr.write(f"busy_honest: thought from {wall:.4f} to {thought:.4f}\n")
            sys.stderr.flush()
        else:
            line = sys.stdin.readline().strip()
            if not line.isdigit():
                return
            token = int(line)
        t = mover[token] + n
        mover[token] = t
        if t in SHARED and t in other:
            other[other.index(t)] = 0
        if t not in ROSETTES:
            turn = 1 - turn


try:
    main()
except BrokenPipeError:
    pass
