#!/usr/bin/env python3
"""Grows back. At the start it forks a regrower in a session of its own, then plays the whole game
well (ROCK) and exits at the end of its input. A regrower forks a child every 10 ms, and another
regrower when it is sent SIGTERM (or SIGHUP, SIGINT); each child checks every 10 ms whether its
parent is still there, and if it is not (its parent was killed) becomes a regrower itself, up to
three generations deep; otherwise it exits after 100 ms. The bot itself also forks a regrower when
it is sent SIGTERM.

Every process is a fork of the bot (its command line holds the MARKER); each gives up 60 s after
the bot started, so a failed test does not leave them running for ever. With a BEAT file, every
process appends a byte to it every 10 ms, so that a file still growing after the game shows that
some are still alive (short-lived processes escape a scan of /proc).

Usage: regrow.py MARKER [BEAT]
Expected: normal or draw, all rounds; nothing left once the game (duel or run) is over.
"""
import os
import signal
import sys
import time

marker = sys.argv[1]
T0 = time.time()
BEAT = os.open(sys.argv[2], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666) if len(sys.argv) > 2 else None


def beat():
    if BEAT is not None:
        try:
            os.write(BEAT, b".")
        except OSError:
            pass


def expired():
    return time.time() - T0 > 60


def spawn_regrower(generation):
    try:
        if os.fork() == 0:
            try:
                os.setsid()
            except OSError:
                pass
            regrow(generation)
    except OSError:
        pass


def regrow(generation):
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, lambda *_: spawn_regrower(generation + 1))
    while not expired():
        try:
            if os.fork() == 0:
                child(generation)
        except OSError:
            pass
        beat()
        time.sleep(0.01)
        try:  # reap the children that exited
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
    os._exit(0)


def child(generation):
    parent = os.getppid()
    for _ in range(10):
        beat()
        time.sleep(0.01)
        if os.getppid() != parent and generation < 3:
            regrow(generation + 1)
    os._exit(0)


rounds = int([sys.stdin.readline() for _ in range(3)][2])
signal.signal(signal.SIGTERM, lambda *_: spawn_regrower(1))
spawn_regrower(0)
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
