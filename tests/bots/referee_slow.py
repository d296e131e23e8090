#!/usr/bin/env python3
"""A slow referee: runs the referee program given and passes its lines on, waiting DELAY seconds
before each of its commands (`###...`), as a referee that thinks would. For the test that a
player is stopped while the referee thinks.

Usage: referee_slow.py DELAY REFEREE [ARGS...]
"""
import subprocess
import sys
import threading
import time

delay = float(sys.argv[1])
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def feed():
    for line in sys.stdin:
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()


threading.Thread(target=feed, daemon=True).start()
for line in child.stdout:
    if line.startswith("###"):
        time.sleep(delay)
    sys.stdout.write(line)
    sys.stdout.flush()
sys.exit(child.wait())
