#!/usr/bin/env python3
"""A dama test bot that plays a fixed list of moves and records every byte it receives.

Usage: dama_script.py RECORD_FILE MOVE|MOVE|...
Each time a line starting with 'Es > ' (the last line of the prompt) arrives it sends the next
move; with no moves left it sends nothing more and reads until the end of its input, so arena
times it out. RECORD_FILE gets the bytes received, exactly, and nothing else.
"""
import sys

record_path, plan = sys.argv[1], sys.argv[2]
moves = [m for m in plan.split("|") if m]
fin, fout = sys.stdin.buffer, sys.stdout.buffer
with open(record_path, "wb") as record:
    while True:
        line = fin.readline()
        if not line:
            break
        record.write(line)
        record.flush()
        if line.startswith(b"Es > ") and moves:
            fout.write(moves.pop(0).encode() + b"\n")
            fout.flush()
