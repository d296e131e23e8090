#!/usr/bin/env python3
"""A dama bot for Code Colosseum's live server stream, written from the server's behaviour.

Usage: dama_live.py [RESULT_FILE [RULES]]
It reads its colour from 'Sei i Bianchi' / 'Sei i Neri', keeps the position from the boards
the server draws, checks every move the server relays against its own move generator, plays a
random legal move when its 'Turno ...!' and prompt arrive, and exits with status 1 on any line
it does not expect. At a clean end it appends 'ok <colour> <result line>' to RESULT_FILE.
RULES is 'server' (the default), the server's move check: any step, or jumps stopped after any
of them, each checked on the board before the move (each piece taken once here); a side loses
when it has no move but a king's down-left one. Or 'fid': compulsory capture, complete multiple
captures, the precedence among captures.
"""
import random
import re
import sys

HEADER = "   A  B  C  D  E  F  G  H"
PROMPT = [
    "Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare",
    "Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...",
]
START = [
    " n n n n", "n n n n ", " n n n n", "        ",
    "        ", "b b b b ", " b b b b", "b b b b ",
]


def fail(why):
    sys.stderr.write("dama_live: " + why + "\n")
    sys.exit(1)


def read():
    line = sys.stdin.readline()
    if not line:
        fail("the stream ended early")
    if not line.endswith("\n"):
        fail("a line without its newline: %r" % line)
    return line[:-1]


def expect(text):
    line = read()
    if line != text:
        fail("expected %r, got %r" % (text, line))


def read_board():
    """A drawn board: blank line, header, 8 rows, header, blank line."""
    expect("")
    expect(HEADER)
    rows = []
    for r in range(8):
        line = read()
        m = re.fullmatch(r"%d ((?:\[[ bnBN]\]){8}) %d" % (r + 1, r + 1), line)
        if not m:
            fail("not board row %d: %r" % (r + 1, line))
        rows.append(m.group(1)[1::3])
    expect(HEADER)
    expect("")
    return [list(row) for row in rows]


def owner(cell):
    return {"b": 0, "B": 0, "n": 1, "N": 1}.get(cell)


def captures_from(g, seat, r, c, king, path, taken, out):
    forward = -1 if seat == 0 else 1
    more = False
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        if not king and dr != forward:
            continue
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= tr < 8 and 0 <= tc < 8) or g[tr][tc] != " ":
            continue
        victim = g[mr][mc]
        if owner(victim) != 1 - seat or (victim in "BN" and not king):
            continue
        g[mr][mc] = "x"  # taken pieces stay until the move ends: no second jump over them
        captures_from(g, seat, tr, tc, king, path + [(tr, tc)], taken + [victim in "BN"], out)
        g[mr][mc] = victim
        more = True
    if not more and taken:
        out.append((path, taken, king))


def legal_moves(g, seat):
    caps, steps = [], []
    forward = -1 if seat == 0 else 1
    for r in range(8):
        for c in range(8):
            piece = g[r][c]
            if owner(piece) != seat:
                continue
            king = piece in "BN"
            g[r][c] = " "
            captures_from(g, seat, r, c, king, [(r, c)], [], caps)
            g[r][c] = piece
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                tr, tc = r + dr, c + dc
                if (king or dr == forward) and 0 <= tr < 8 and 0 <= tc < 8 and g[tr][tc] == " ":
                    steps.append([(r, c), (tr, tc)])
    if not caps:
        return steps
    most = max(len(t) for _, t, _ in caps)
    caps = [x for x in caps if len(x[1]) == most]
    if any(k for _, _, k in caps):
        caps = [x for x in caps if x[2]]
    most_kings = max(sum(t) for _, t, _ in caps)
    caps = [x for x in caps if sum(x[1]) == most_kings]
    first = min([i for i, k in enumerate(t) if k] for _, t, _ in caps)
    return [p for p, t, _ in caps if [i for i, k in enumerate(t) if k] == first]


def server_jumps(g, seat, king, path, taken, out):
    """Jumps on the board before the move (the start square stays occupied), each piece once."""
    r, c = path[-1]
    for dr, dc in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        if not king and dr != (-1 if seat == 0 else 1):
            continue
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= tr < 8 and 0 <= tc < 8) or g[tr][tc] != " " or (mr, mc) in taken:
            continue
        victim = g[mr][mc]
        if owner(victim) == 1 - seat and (king or victim in "bn"):
            out.append(path + [(tr, tc)])
            server_jumps(g, seat, king, path + [(tr, tc)], taken + [(mr, mc)], out)


def server_moves(g, seat):
    out = []
    for r in range(8):
        for c in range(8):
            if owner(g[r][c]) != seat:
                continue
            king = g[r][c] in "BN"
            for dr, dc in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
                tr, tc = r + dr, c + dc
                ahead = dr == (-1 if seat == 0 else 1)
                if (king or ahead) and 0 <= tr < 8 and 0 <= tc < 8 and g[tr][tc] == " ":
                    out.append([(r, c), (tr, tc)])
            server_jumps(g, seat, king, [(r, c)], [], out)
    # The server's own test misses a king's move down and to the left: without another, lost.
    seen = [p for p in out if not (g[p[0][0]][p[0][1]] in "BN" and p[1][0] > p[0][0]
                                   and p[1][1] < p[0][1])]
    return out if seen else []


def play(g, path):
    g = [row[:] for row in g]
    (r, c) = path[0]
    piece = g[r][c]
    g[r][c] = " "
    for (a, b), (x, y) in zip(path, path[1:]):
        if abs(x - a) == 2:
            g[(a + x) // 2][(b + y) // 2] = " "
    r, c = path[-1]
    if piece == "b" and r == 0:
        piece = "B"
    if piece == "n" and r == 7:
        piece = "N"
    g[r][c] = piece
    return g


def name(sq):
    return "%d%s" % (sq[0] + 1, "ABCDEFGH"[sq[1]])


def main():
    result_file = sys.argv[1] if len(sys.argv) > 1 else None
    rules = sys.argv[2] if len(sys.argv) > 2 else "server"
    moves_of = {"server": server_moves, "fid": legal_moves}[rules]
    read()  # white's name
    read()  # black's name
    expect("Avvio la partita di dama...")
    board = read_board()
    if board != [list(row) for row in START]:
        fail("not the starting position")
    colour = read()
    if colour not in ("Sei i Bianchi", "Sei i Neri"):
        fail("expected my colour, got %r" % colour)
    me = 0 if colour == "Sei i Bianchi" else 1
    mine = ["Turno bianco!", "Turno nero!"][me]
    ends = {
        "I bianchi vincono la partita!", "I neri vincono la partita!", "La partita è patta.",
        "Non hai più pedine disponibili.", "Non hai più mosse disponibili.",
        "I bianchi non hanno più mosse disponibili.", "I neri non hanno più mosse disponibili.",
    }
    while True:
        line = read()
        if line == mine:
            expect(PROMPT[0])
            expect(PROMPT[1])
            moves = moves_of(board, me)
            if not moves:
                fail("asked to move with no legal move")
            path = random.choice(moves)
            sys.stdout.write(" ".join(name(s) for s in path) + "\n")
            sys.stdout.flush()
            board = play(board, path)
            if read_board() != board:
                fail("the board after my move is not what I expected")
        elif line == "Attendi il tuo turno!":
            echo = read()
            if not re.fullmatch(r"(?:[1-8][A-H] ){2,}", echo):
                fail("expected the opponent's move, got %r" % echo)
            path = [(int(t[0]) - 1, "ABCDEFGH".index(t[1])) for t in echo.split()]
            if path not in moves_of(board, 1 - me):
                fail("the opponent's move %r is not legal" % echo)
            board = play(board, path)
            if read_board() != board:
                fail("the board after the opponent's move is not what I expected")
        elif line in ends:
            said = [line]
            while said[-1] in ends:
                said.append(read())
            if said[-1] != "" or not re.search("vincono|patta", said[-2]):
                fail("an unexpected end: %r" % said)
            expect("Game Over ;)")
            expect("")
            if sys.stdin.readline() != "":
                fail("more after the end")
            if result_file:
                with open(result_file, "a") as f:
                    f.write("ok %s %s\n" % (["white", "black"][me], said[-2]))
            return
        else:
            fail("unexpected line %r" % line)


main()
