"""A roshambo bot on the pipe channel that a person drives: it asks on its standard output and
reads the answer (R, P or S) from its standard input, as with coco, which leaves a pipe-channel
program the terminal it was started from. Without a terminal there it fails at once."""
import os
import sys

GESTURES = {"R": "ROCK", "P": "PAPER", "S": "SCISSORS"}

fin = open(os.environ["COCO_PIPEIN"], "r")
fout = open(os.environ["COCO_PIPEOUT"], "w")
me, opponent, rounds = (fin.readline().strip() for _ in range(3))
for _ in range(int(rounds)):
    print("your move? [R/P/S]", flush=True)
    answer = sys.stdin.readline()
    if not answer:
        sys.exit("no terminal to ask: my standard input is closed")
    print(GESTURES[answer.strip().upper()], file=fout, flush=True)
    if fin.readline().strip() not in GESTURES.values():
        break
