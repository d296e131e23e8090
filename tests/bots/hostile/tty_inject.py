#!/usr/bin/env python3
"""Tries to push keystrokes into arena's terminal (TIOCSTI on /dev/tty, or on any terminal among
its standard streams), then plays roshambo (ROCK). Reports `tty: done` or `tty: refused` on
stderr. Usage: tty_inject.py COMMAND_TO_TYPE
"""
import fcntl
import os
import sys
import termios

typed = (sys.argv[1] + "\n").encode()


def inject(fd):
    for byte in typed:
        fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))


done = False
try:
    fd = os.open("/dev/tty", os.O_RDWR)
    inject(fd)
    done = True
except OSError as e:
    sys.stderr.write(f"tty: /dev/tty: {e}\n")
for fd in (0, 1, 2):
    if os.isatty(fd):
        try:
            inject(fd)
            done = True
        except OSError as e:
            sys.stderr.write(f"tty: fd {fd}: {e}\n")
sys.stderr.write("tty: done\n" if done else "tty: refused\n")
sys.stderr.flush()

sys.stdin.readline()
sys.stdin.readline()
rounds = int(sys.stdin.readline())
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
