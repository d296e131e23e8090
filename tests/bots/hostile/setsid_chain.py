#!/usr/bin/env python3
"""Escapes through chains of sessions. At the start it launches two kinds of chain, then plays the
whole game well (ROCK) and exits at the end of its input:

- hoppers (3): a process forks, the child calls setsid and forks again, and both the process and
  the middle child exit at once; the grandchild, re-parented to arena (the child subreaper) in a
  new session, waits 5 ms and does the same, and so on: a process that keeps changing its pid,
  session and parent;
- a ladder: 5 links, each in a session of its own, each double-forking the next link (the middle
  exits, so every link is re-parented to arena) and then sleeping.

Every process is a fork of the bot (its command line holds the MARKER); each gives up 60 s after
the bot started, so a failed test does not leave them running for ever. A hopper lives a few
milliseconds, too short for a scan of /proc to see it: with a BEAT file, every process appends a
byte to it at each turn of its loop (every 5 ms for a hopper, 100 ms for a link), so that a file
still growing after the game shows that some are still alive.

Usage: setsid_chain.py MARKER [BEAT]
Expected: normal or draw, all rounds; nothing left once the game (duel or run) is over.
"""
import os
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


def detach():
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


def hop():
    detach()
    while not expired():
        beat()
        time.sleep(0.005)
        try:
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    continue  # the grandchild hops on
                os._exit(0)
        except OSError:
            continue
        os._exit(0)
    os._exit(0)


def ladder(links):
    detach()
    if links > 0 and os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            ladder(links - 1)
        os._exit(0)
    while not expired():
        beat()
        time.sleep(0.1)
    os._exit(0)


rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(3):
    if os.fork() == 0:
        hop()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        ladder(5)
    os._exit(0)
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
