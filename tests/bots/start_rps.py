#!/usr/bin/env python3
"""A roshambo bot with a start-up of its own before it reads anything, then an honest player.

Usage: start_rps.py MODE [SECONDS]
  sleep S  sleep S seconds first (a start-up that waits: a disk, a slow JVM)
  busy S   use the CPU for S seconds first (an interpreter or a JIT compiling)
  spin     use the CPU for ever, never reading: a bot that would steal its opponent's time
"""
import sys
import time

mode = sys.argv[1]
if mode == "sleep":
    time.sleep(float(sys.argv[2]))
elif mode == "busy":
    end = time.monotonic() + float(sys.argv[2])
    while time.monotonic() < end:
        pass
elif mode == "spin":
    while True:
        pass
for _ in range(3):
    sys.stdin.readline()
while True:
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
