#!/usr/bin/env python3
"""A roshambo bot that tries what an untrusted bot should not: append to the tournament's
games.csv, read another bot's file, and reach the network. It reports each attempt on stderr,
then plays ROCK every round.

Usage: snoop.py GAMES_CSV OTHER_FILE, or both in the environment: GAMES_CSV and OTHER_FILE (a
sandbox shows a bot the files its command line names).
"""
import socket
import sys

import os

games_csv, other = sys.argv[1:3] if len(sys.argv) > 2 else (os.environ["GAMES_CSV"], os.environ["OTHER_FILE"])
try:
    with open(games_csv, "a") as f:
        f.write("999,1,HACKED,HACKED,1,0,HACKED,normal,0,0,0,x\n")
    print("write games.csv: done", file=sys.stderr)
except OSError as e:
    print(f"write games.csv: refused ({e.strerror})", file=sys.stderr)
try:
    with open(other) as f:
        print(f"read other: done ({f.read().strip()})", file=sys.stderr)
except OSError as e:
    print(f"read other: refused ({e.strerror})", file=sys.stderr)
try:
    socket.create_connection(("1.1.1.1", 53), timeout=1).close()
    print("network: done", file=sys.stderr)
except OSError as e:
    print(f"network: refused ({e})", file=sys.stderr)
sys.stderr.flush()
sys.stdin.readline()
sys.stdin.readline()
rounds = int(sys.stdin.readline())
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
