#!/usr/bin/env python3
"""Roshambo, where both bots move at once: one bot answers at once and then spins, to take the
CPU of the other, still thinking on its own clock.

MODE `honest BURN`: computes for BURN seconds of its own CPU time before each move (0.3 by
default); on stderr, when it thought (`rps_spin: thought from START to END`, `time.time()`).
MODE `spin MARKER BEAT`: before its first move it forks 4 processes that spin on the CPU for the
whole game (their command line holds the MARKER; each gives up 60 s after the bot started), each
appending the time to BEAT every 20 ms that it gets to run; it answers every round at once.

Usage: rps_spin.py honest [BURN] | rps_spin.py spin MARKER BEAT
Expected: without `ponder`, the spinner's processes are stopped once it has answered a round
until the honest bot has answered it too: they never run while the honest bot thinks. With
`ponder` they do.
"""
import os
import sys
import time

T0 = time.time()
mode = sys.argv[1]
burn = float(sys.argv[2]) if mode == "honest" and len(sys.argv) > 2 else 0.3


def think():
    start = time.process_time()
    x = 0
    while time.process_time() - start < burn:
        for i in range(1000):
            x += i * i
    return x


def spin(beat):
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    n, last = 0, 0.0
    while True:
        n += 1
        if n % 2000 == 0:
            now = time.time()
            if now - T0 > 60:
                os._exit(0)
            if now - last >= 0.02:
                last = now
                os.write(beat, f"{now:.4f}\n".encode())


def main():
    for _ in range(3):
        sys.stdin.readline()
    if mode == "spin":
        beat = os.open(sys.argv[3], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        for _ in range(4):
            if os.fork() == 0:
                spin(beat)
    while True:
        if mode == "honest":
            start = time.time()
            think()
            print(f"rps_spin: thought from {start:.4f} to {time.time():.4f}", file=sys.stderr, flush=True)
        print("ROCK", flush=True)
        if sys.stdin.readline().strip() in ("", "RETIRE"):
            return


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
