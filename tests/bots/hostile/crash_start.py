#!/usr/bin/env python3
"""Crashes at start: an uncaught exception before reading a line (exit status 1, a traceback on
stderr), as a bot with a typo in its first lines does.

Usage: crash_start.py MARKER
Expected: crash at move 1, 0 plies.
"""
raise RuntimeError("hostile bot: crashing at start")
