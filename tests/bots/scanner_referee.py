#!/usr/bin/env python3
"""Runs a referee written in Python as if it read its input with Java's `Scanner.nextLine`, the
reader of many of CodinGame's community referees: a line ends at `\\r\\n`, `\\n`, `\\r`, U+2028,
U+2029 or U+0085 (Python's own `sys.stdin` ends one at `\\n` alone).

Usage: scanner_referee.py SCRIPT [ARG...]
SCRIPT runs with its `sys.stdin` so read; once it returns, its input is read on to the end, as a
referee's should be (arena closes it when the game is over).
"""
import codecs
import os
import re
import runpy
import sys

LINE_END = re.compile("\r\n|[\n\r\u2028\u2029\u0085]")


class ScannerInput:
    """Standard input cut into lines as Scanner.nextLine cuts it."""

    def __init__(self):
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.pending = ""
        self.lines = []
        self.ended = False

    def _cut(self):
        # A `\r` last may be the start of `\r\n`: kept until what follows is known.
        keep = self.pending.endswith("\r") and not self.ended
        text = self.pending[:-1] if keep else self.pending
        *lines, rest = LINE_END.split(text)
        self.lines.extend(lines)
        self.pending = rest + ("\r" if keep else "")
        if self.ended and self.pending:
            self.lines.append(self.pending)
            self.pending = ""

    def readline(self):
        while not self.lines and not self.ended:
            chunk = os.read(0, 65536)
            self.ended = not chunk
            self.pending += self.decoder.decode(chunk, final=self.ended)
            self._cut()
        return self.lines.pop(0) + "\n" if self.lines else ""

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line


script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.stdin = ScannerInput()
runpy.run_path(script, run_name="__main__")
for _ in sys.stdin:
    pass
