#!/usr/bin/env python3
"""Not a bot: runs a command on a pseudo-terminal of its own, as a person at a terminal would,
and writes all it printed (standard output and error, as the terminal got them) to its own
standard output, then `exit N` on a line of its own.

Usage: on_a_terminal.py COMMAND [ARGS...]
"""
import os
import pty
import sys

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
got = bytearray()
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    got += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(bytes(got))
sys.stdout.buffer.write(f"\nexit {os.waitstatus_to_exitcode(status)}\n".encode())
