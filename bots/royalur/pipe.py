#!/usr/bin/env python3
"""Royal Game of Ur bot for arena / Code Colosseum, pipe channel: a greedy player.

Among the legal moves it prefers, in order: a capture (it costs the opponent a
whole trip), landing on a rosette (an extra roll, and 8 is a safe spot), and
otherwise the most advanced token (getting tokens home is what wins).

The referee sends only rolls and the opponent's token numbers, so the bot
replays every move to track the board. Positions: 0 = start, 1..14 = track,
15 = finished; cells 5..12 are shared (same numbers for both); rosettes 4, 8, 14.
With the pipe channel stdin/stdout stay on the terminal, free for debugging.
"""
import os

ROSETTES = (4, 8, 14)
SHARED = range(5, 13)
DONE = 15


def legal_moves(mine, theirs, n):
    """Tokens of `mine` that can move n cells forward."""
    moves = []
    for token, p in enumerate(mine):
        t = p + n
        if n == 0 or p == DONE or t > DONE:  # leaving needs the exact count
            continue
        if t != DONE and t in mine:  # never on our own token (any number may finish)
            continue
        if t == 8 and 8 in theirs:  # an occupied rosette is safe: only 8 is shared
            continue
        moves.append(token)
    return moves


def choose(mine, theirs, n, moves):
    def score(token):
        t = mine[token] + n
        return (t in SHARED and t in theirs, t in ROSETTES, mine[token])
    return max(moves, key=score)  # tuples compare in order: capture, rosette, progress


def main():
    # Open both pipes first of all: the runner only counts the bot as started
    # once both are open (it opens its own ends at once, so either order works).
    fin = open(os.environ["COCO_PIPEIN"], "r")
    fout = open(os.environ["COCO_PIPEOUT"], "w")

    fin.readline()  # name of seat 0
    fin.readline()  # name of seat 1
    seat = fin.readline().strip()
    if seat not in ("0", "1"):
        return
    me = int(seat)
    pos = [[0] * 7, [0] * 7]  # pos[player][token]
    turn = 0  # seat 0 moves first
    while True:
        roll = fin.readline()  # every turn starts with a roll for `turn`
        if not roll:  # input closed: the game is over
            return
        n = roll.split().count("1")
        mover, other = pos[turn], pos[1 - turn]
        moves = legal_moves(mover, other, n)
        if not moves:
            turn = 1 - turn  # skipped silently: the next roll is the other player's
            continue
        if turn == me:
            token = choose(mover, other, n, moves)
            # A pipe is a file: writes are buffered even at a newline, so flush.
            print(token, file=fout, flush=True)
        else:
            line = fin.readline().strip()
            if line == "RETIRE" or not line.isdigit():  # opponent out, or input closed
                return
            token = int(line)  # the referee checked it, so it is legal
        t = mover[token] + n
        mover[token] = t
        if t in SHARED and t in other:  # capture: that token goes back to start
            other[other.index(t)] = 0
        if t not in ROSETTES:  # a rosette means the same player rolls again
            turn = 1 - turn


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass  # the runner closed its end: the game is over
