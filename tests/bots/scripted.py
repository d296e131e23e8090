#!/usr/bin/env python3
"""A scripted bot for tests: plays a fixed list of lines and records everything it receives.

Usage: scripted.py RECORD_FILE PLAN
PLAN is a list of steps separated by '|': 'r' reads one line, 'r*' reads until end of input,
anything else is sent as a line. Everything read and sent goes to RECORD_FILE, sent lines
prefixed with '>', exactly as Code Colosseum's documentation writes its example streams.
With COCO_PIPEIN set it uses the pipe channel.
"""
import os
import sys

record_path, plan = sys.argv[1], sys.argv[2]
if "COCO_PIPEIN" in os.environ:
    fin = open(os.environ["COCO_PIPEIN"], "r")
    fout = open(os.environ["COCO_PIPEOUT"], "w")
else:
    fin, fout = sys.stdin, sys.stdout
with open(record_path, "w") as record:
    for step in plan.split("|"):
        if step == "r":
            record.write(fin.readline())
        elif step == "r*":
            record.write(fin.read())
        else:
            record.write(">" + step + "\n")
            fout.write(step + "\n")
            fout.flush()
        record.flush()
