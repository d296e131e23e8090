#!/usr/bin/env python3
"""A pipe-channel bot that never opens COCO_PIPEIN or COCO_PIPEOUT: it sleeps.

Usage: never_opens_fifos.py MARKER
Run with `channel = "pipe"`. Expected: timeout, 0 plies, with the startup detail ("did not open
COCO_PIPEIN and COCO_PIPEOUT within 3 s" for a 3 s startup_timeout); arena is not stuck in its own
blocking opens, and the bot is killed.
"""
import time

time.sleep(3600)
