#!/usr/bin/env python3
"""Plays two rounds, then parks memory outside its address space, in 8 MiB writes: in a memfd
(`memfd`) or in a file of /dev/shm (`shm`, named arena-parked-MARKER), until MIB MiB are parked
or a write fails (ENOSPC in a sized tmpfs, EFBIG past RLIMIT_FSIZE). It says on stderr how much
it parked ("parked N MiB in MODE"), keeps it, and plays on. The memory is never mapped, so
RLIMIT_AS does not count it; a cgroup memory controller does (the kernel kills the bot).

Usage: parks_memory.py MODE MIB MARKER
Run with `memory_mb = 100` and MIB 300. Expected: killed by the kernel (reason `memory`) where a
memory controller holds the limit; in the sandbox, /dev/shm is full at disk_mb; elsewhere it is
not held, and arena said so as the run started. The test removes /dev/shm/arena-parked-MARKER.
"""
import os
import sys

mode, mib, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(2):
    print("ROCK", flush=True)
    sys.stdin.readline()
if mode == "memfd":
    fd = os.memfd_create(f"parked-{marker}")
else:
    fd = os.open(f"/dev/shm/arena-parked-{marker}", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
block = b"\x01" * (8 << 20)
parked = 0
why = "all of it"
while parked < mib:
    try:
        os.write(fd, block)
    except OSError as e:
        why = e.strerror
        break
    parked += 8
sys.stderr.write(f"parked {parked} MiB in {mode} ({why})\n")
sys.stderr.flush()
for _ in range(rounds - 2):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break
