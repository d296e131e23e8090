#!/usr/bin/env python3
"""A referee program that fails, for the tests: `referee_broken.py MODE [MARKER]`.

It plays one turn of Pebbles' protocol (player 0 is sent `20` and `0` and asked for a line),
then, by MODE:
  crash    writes to stderr and exits with status 3;
  hang     never answers again, and ignores SIGTERM (only the group's SIGKILL ends it);
  garbage  writes a line that is no command;
  two      asks player 1 for two lines, then ends the game with a draw;
  spin     computes forever;
  flood    writes an ###Input block of 20,000 short lines to player 0, then ends the game;
  wide     the same with 400 lines of 60,000 bytes (24 MB);
  long     asks player 0 for 50 more moves, then ends the game (player 0 won);
  error N  reports an error of player 0 N characters long, then ends the game with a draw;
  split    sends player 1 the line `19\r1`, which a reader splitting at `\r` takes for two.
MARKER is only there to find the process in /proc.
"""

import signal
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    if line.startswith("###Start"):
        break


def say(*lines):
    print("\n".join(lines), flush=True)


say("###Input 0", "20", "0", "###Output 0 1")
answer = sys.stdin.readline()
if mode == "crash":
    print("referee bug: cannot go on after", answer.strip(), file=sys.stderr, flush=True)
    sys.exit(3)
if mode == "hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)
if mode == "garbage":
    say("hello there")
    sys.stdin.readline()
if mode in ("flood", "wide"):
    line, count = ("1", 20_000) if mode == "flood" else ("x" * 60_000, 400)
    print("###Input 0")
    for _ in range(count):
        print(line)
    say("###End 0 1")
    sys.stdin.readline()
if mode == "long":
    for _ in range(50):
        say("###Input 0", "20", "0", "###Output 0 1")
        sys.stdin.readline()
    say("###End 0 1")
if mode == "error":
    say("###Error 0 " + "x" * int(sys.argv[2]), "###End 01")
    sys.stdin.readline()
if mode == "spin":
    while True:
        pass
if mode == "split":
    say("###Input 1", "19\r1", "###Output 1 1")
    sys.stdin.readline()
if mode == "two":
    say("###Input 1", "19", "1", "###Output 1 2")
    first, second = sys.stdin.readline(), sys.stdin.readline()
    print(f"heard {first.strip()} and {second.strip()}", file=sys.stderr, flush=True)
    say("###End 01")
