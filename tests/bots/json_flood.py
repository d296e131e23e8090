#!/usr/bin/env python3
"""A JSON client whose move never ends, for tests: after its request it writes an object that
is never closed and no newline, 4 KiB at a time, until its output is closed."""
import json
import sys

sys.stdout.write(json.dumps({"game": sys.argv[1]}) + "\n")
sys.stdout.flush()
sys.stdin.readline()
try:
    sys.stdout.write('{"token": "' )
    while True:
        sys.stdout.write("a" * 4096)
        sys.stdout.flush()
except BrokenPipeError:
    pass
