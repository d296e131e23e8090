#!/usr/bin/env python3
"""A pipe-channel bot that never opens COCO_PIPEIN/COCO_PIPEOUT: it just sleeps."""
import time

time.sleep(3600)
