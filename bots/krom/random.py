#!/usr/bin/env python3
"""A KROM bot that spends its moves on random legal actions, shooting enemy pieces it can see.

Run: arena duel "python3 bots/krom/random.py" builtin:random --game krom

It keeps no memory between turns: the `state` message sent before each `you` is its whole view
of the board (16 rows of 16 cells, board[y][x]; a cell is '#' or '-' for camo or not, then colour,
kind and hits left if a piece is visible, e.g. '-rf3', '#bg1', '-', '#').

Planning several actions on a view is not exact: a move or make onto a camouflaged space may bump
into a hidden enemy piece (the move is spent, nothing happens), and a shot across camo may hit
something hidden first. So after such an action the spaces involved are "blocked": the plan does
not use or rely on them again this turn, and every action it sends is legal whatever was hidden.
"""
import json
import os
import sys

# This folder contains random.py (this file), which would shadow the standard library's random
# module, as the script's folder is first on the import path.
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != _here]
import random  # noqa: E402

SIZE = 16
DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # 0 north, 1 east, 2 south, 3 west
HITS = {"f": 3, "w": 2, "g": 1}


def send(msg):
    print(json.dumps(msg), flush=True)


def on_board(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def neighbours(x, y):
    for dx, dy in DIRS:
        if on_board(x + dx, y + dy):
            yield x + dx, y + dy


class Plan:
    def __init__(self, rows, me):
        self.me = me  # 'r' or 'b'
        self.camo = {}
        self.piece = {}  # (x, y) -> [colour, kind, hits]
        for y, row in enumerate(rows):
            for x, cell in enumerate(row):
                self.camo[x, y] = cell[0] == "#"
                if len(cell) == 4:
                    self.piece[x, y] = [cell[1], cell[2], int(cell[3])]
        self.blocked = set()
        self.sure = set()  # camouflaged by us this turn while surely empty
        self.actions = []

    def own(self, p, kinds="fwg"):
        pc = self.piece.get(p)
        return pc is not None and pc[0] == self.me and pc[1] in kinds and p not in self.blocked

    def empty(self, p):
        return p not in self.piece and p not in self.blocked

    def doubtful(self, p):
        """Might hide an enemy piece (or one of ours whose place is uncertain)."""
        return p in self.blocked or (self.camo[p] and p not in self.piece and p not in self.sure)

    def chain(self):
        factory = [p for p, pc in self.piece.items() if pc[0] == self.me and pc[1] == "f"]
        seen, todo = set(factory), list(factory)
        while todo:
            p = todo.pop()
            for n in neighbours(*p):
                pc = self.piece.get(n)
                if n not in seen and pc is not None and pc[0] == self.me:
                    seen.add(n)
                    todo.append(n)
        return seen

    def target(self, x, y, d):
        """The enemy piece a shot would surely go for (nothing blocked before it), or None."""
        dx, dy = DIRS[d]
        x, y = x + dx, y + dy
        while on_board(x, y):
            if (x, y) in self.blocked:
                return None
            pc = self.piece.get((x, y))
            if pc is not None:
                return (x, y) if pc[0] != self.me else None
            x, y = x + dx, y + dy
        return None

    def candidates(self):
        chain = self.chain()
        nxt = {n for p in chain for n in neighbours(*p)} - chain
        moves = [["move", x, y, a, b] for (x, y) in list(self.piece) if self.own((x, y), "wg")
                 for (a, b) in neighbours(x, y) if self.empty((a, b))]
        makes = [["make", x, y, kind] for (x, y) in nxt if self.empty((x, y))
                 for kind in ("wall", "gun")]
        camos = [["camo", x, y] for (x, y) in chain | nxt if not self.camo[x, y]]
        fires = [["fire", x, y, d] for (x, y) in list(self.piece) if self.own((x, y), "g")
                 for d in range(4) if self.target(x, y, d)]
        return moves, makes, camos, fires

    def play(self, a):
        """Add an action and update what the plan knows."""
        self.actions.append(a)
        if a[0] == "camo":
            p = (a[1], a[2])
            if not self.camo[p] and p not in self.piece:
                self.sure.add(p)
            self.camo[p] = True
        elif a[0] == "move":
            src, dst = (a[1], a[2]), (a[3], a[4])
            pc = self.piece.pop(src)
            if self.doubtful(dst):
                self.blocked |= {src, dst}
            else:
                self.piece[dst] = pc
        elif a[0] == "make":
            p = (a[1], a[2])
            if self.doubtful(p):
                self.blocked.add(p)
            else:
                self.piece[p] = [self.me, a[3][0], HITS[a[3][0]]]
        elif a[0] == "fire":
            dx, dy = DIRS[a[3]]
            x, y, doubt = a[1] + dx, a[2] + dy, False
            while on_board(x, y):
                doubt = doubt or self.doubtful((x, y))
                pc = self.piece.get((x, y))
                if pc is not None:
                    if doubt:
                        del self.piece[x, y]
                        self.blocked.add((x, y))
                    else:
                        pc[2] -= 1
                        if pc[2] == 0:
                            del self.piece[x, y]
                            self.camo[x, y] = False
                    break
                x, y = x + dx, y + dy

    def choose(self):
        moves, makes, camos, fires = self.candidates()
        if fires and random.random() < 0.5:
            return random.choice(fires)
        options = [(makes, 5), (moves, 3), (camos, 2), (fires, 2)]
        options = [(c, w) for c, w in options if c]
        if not options:
            return ["pass"]
        roll = random.uniform(0, sum(w for _, w in options))
        for c, w in options:
            if roll < w:
                return random.choice(c)
            roll -= w
        return random.choice(options[-1][0])


def main():
    send({"msg": "hello", "nick": "random"})
    my_id, me, rows = None, None, None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("msg")
        if kind == "welcome":
            my_id = msg["id"]
            send({"msg": "join"})
        elif kind == "start":
            ids = [p["id"] for p in msg["game"]["players"]]
            me = "r" if ids[0] == my_id else "b"
            print(f"playing {'red' if me == 'r' else 'blue'}", file=sys.stderr)
        elif kind == "state":
            rows = msg["board"]
        elif kind == "you":
            plan = Plan(rows, me)
            for _ in range(msg["moves"]):
                plan.play(plan.choose())
            send({"msg": "move", "moves": plan.actions})
        elif kind == "over":
            print("over:", json.dumps(msg["results"]), file=sys.stderr)
            break


if __name__ == "__main__":
    main()
