#!/usr/bin/env python3
"""A Gem Heist player that leaves a child spinning the CPU from its start, its pid in DIR/spinner,
and plays greedy: the child must not run while the other seat is asked (watch.py checks).

Usage: spy.py DIR
"""
import os
import sys
import time

out = sys.argv[1]
pid = os.fork()
if pid == 0:
    end = time.monotonic() + 3600
    while time.monotonic() < end:
        pass
    os._exit(0)
with open(os.path.join(out, "spinner.tmp"), "w") as f:
    f.write(str(pid))
os.rename(os.path.join(out, "spinner.tmp"), os.path.join(out, "spinner"))
if sys.stdin.readline():
    while True:
        gems, scores = sys.stdin.readline(), sys.stdin.readline()
        if not scores:
            break
        values = list(map(int, gems.split()))
        print(max(range(len(values)), key=lambda i: (values[i], -i)), flush=True)
