#!/usr/bin/env python3
"""A referee program that ends its game at once with ranks no game of its players can have:
`referee_ranks.py missing` leaves the last player out of `###End`; `ghost` ranks a player one
past the last; `twice` names player 0 in two groups.
"""
import sys

mode = sys.argv[1]
players = 2
for line in sys.stdin:
    if line.startswith("###Start"):
        players = int(line.split()[1])
        break
seats = [str(i) for i in range(players)]
if mode == "missing":
    groups = seats[:-1]
elif mode == "ghost":
    groups = seats + [str(players)]
else:
    groups = seats + ["0"]
print("###End " + " ".join(groups), flush=True)
