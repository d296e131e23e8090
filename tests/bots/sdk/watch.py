#!/usr/bin/env python3
"""A Gem Heist player that, on each of its turns, watches the CPU time of the spinner spy.py
left (its pid in DIR/spinner) over 100 ms, and notes in DIR/watched whether it ran meanwhile;
plays greedy.

Usage: watch.py DIR
"""
import os
import sys
import time

out = sys.argv[1]


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks


if sys.stdin.readline():
    while True:
        gems, scores = sys.stdin.readline(), sys.stdin.readline()
        if not scores:
            break
        try:
            pid = int(open(os.path.join(out, "spinner")).read())
            before = cpu(pid)
            time.sleep(0.1)
            ran = cpu(pid) - before
            with open(os.path.join(out, "watched"), "a") as f:
                f.write(f"{ran}\n")
        except (OSError, ValueError):
            pass
        values = list(map(int, gems.split()))
        print(max(range(len(values)), key=lambda i: (values[i], -i)), flush=True)
