#!/usr/bin/env python3
"""A roshambo bot that plays ROCK for a number of rounds, then misbehaves as asked.

Usage: misbehave.py MODE [ROUNDS_FIRST [SLEEP]]
MODE: crash (exit 3), hang (sleep forever), garbage (send 'ROCKS'), flood (a long line with no
newline), late (answer 1.5 s late), fork (start a child that keeps stdout open, then exit),
utf8 (send bytes that are not UTF-8), breaks (send 'ROCK\rPAPER': two lines to some readers), crlf
(play ROCK to the end, each line ending in \r\n as a Windows bot's do).
"""
import os
import sys
import time

mode = sys.argv[1]
good = int(sys.argv[2]) if len(sys.argv) > 2 else 0
# How long forked children sleep: tests pass a unique value to find leftovers by command line.
sleep = sys.argv[3] if len(sys.argv) > 3 else "3600"
for _ in range(3):
    sys.stdin.readline()
for _ in range(good):
    print("ROCK", flush=True)
    sys.stdin.readline()
if mode == "crash":
    sys.exit(3)
elif mode == "hang":
    time.sleep(3600)
elif mode == "garbage":
    print("ROCKS", flush=True)
    sys.stdin.readline()
elif mode == "flood":
    chunk = "A" * 65536
    while True:
        sys.stdout.write(chunk)
        sys.stdout.flush()
elif mode == "hang-child":
    # A child that shares the group and would run on after a hung bot is killed.
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", sleep])
    time.sleep(3600)
elif mode == "late":
    time.sleep(1.5)
    print("ROCK", flush=True)
    sys.stdin.readline()
elif mode == "fork":
    # The child inherits stdout and keeps it open long after the bot is gone.
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", sleep])
    sys.exit(0)
elif mode == "breaks":
    print("ROCK\rPAPER", flush=True)
    sys.stdin.readline()
elif mode == "crlf":
    while True:
        sys.stdout.write("ROCK\r\n")
        sys.stdout.flush()
        if not sys.stdin.readline():
            sys.exit(0)
elif mode == "utf8":
    sys.stdout.buffer.write(b"\xff\xfeROCK\n")
    sys.stdout.flush()
    sys.stdin.readline()
time.sleep(3600)
