#!/usr/bin/env python3
"""Not a bot: a terminal that hangs up. Runs `arena duel` of two slow roshambo bots (400 games, 2
at a time) on a pseudo-terminal of its own, reads what it prints for 2 seconds, then closes the
terminal, as a closed window or a dropped ssh session does: arena, the session's leader, gets
SIGHUP, and its terminal answers no more. Prints `exit N`, arena's exit status.

Usage: hangup.py ARENA OUT
"""
import os
import pty
import sys
import time

arena, out = sys.argv[1], sys.argv[2]
slow = f"{sys.executable} {os.path.dirname(os.path.abspath(__file__))}/slow_rps.py 0.02"
pid, fd = pty.fork()
if pid == 0:
    os.execv(arena, [arena, "duel", slow, slow, "-g", "roshambo", "-a", "rounds=4",
                     "--games", "400", "--jobs", "2", "--timeout", "10", "--out", out])
deadline = time.time() + 2
while time.time() < deadline:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
os.close(fd)
_, status = os.waitpid(pid, 0)
print("exit", os.waitstatus_to_exitcode(status))
