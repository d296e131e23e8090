#!/usr/bin/env python3
"""A pipe-channel bot that exits part-way through the FIFO handshake.

STAGE says how far it gets: `none` (exits at once), `in` (opens COCO_PIPEIN, then exits), `out`
(opens COCO_PIPEOUT, then exits), `in-late` (opens COCO_PIPEIN, waits a moment, exits), or
`both` (opens both, then exits without a word).
"""
import os
import sys
import time

stage = sys.argv[1]
if stage in ("in", "in-late", "both"):
    fin = open(os.environ["COCO_PIPEIN"], "rb")
if stage in ("out", "both"):
    fout = open(os.environ["COCO_PIPEOUT"], "wb")
if stage == "in-late":
    time.sleep(0.05)
sys.exit(0)
