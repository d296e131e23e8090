#!/usr/bin/env python3
"""A Pebbles player (bots/referee/pebbles.py) that takes 1 each turn and ends its lines as asked.

Usage: pebbles_line_ends.py END
END is `crlf`: each line ends with \\r\\n, as a Windows bot's do (an ordinary line end). Or one of
`cr`, `u2028`, `u2029`, `u0085`: that character and `0` come before the newline (`1\\r0\\n`), so
that a referee reading the line as two hears its take, then `0` as its opponent's next answer.
"""
import sys

ENDS = {
    "crlf": "\r\n",
    "cr": "\r0\n",
    "u2028": "\u20280\n",
    "u2029": "\u20290\n",
    "u0085": "\u00850\n",
}
end = ENDS[sys.argv[1]]
while True:
    heap, last = sys.stdin.readline(), sys.stdin.readline()
    if not last:
        break
    sys.stdout.write("1" + end)
    sys.stdout.flush()
