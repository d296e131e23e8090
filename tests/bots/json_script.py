#!/usr/bin/env python3
"""A scripted bot for the JSON protocol games, for tests.

Usage: json_script.py RECORD REQUEST MOVE...
Sends REQUEST (a JSON text such as '{"game": "tictactoe"}'), then answers each state with
result 0 with the next MOVE, a JSON value, using the token just received. A MOVE written
'badtoken:VALUE' sends VALUE with a wrong token; 'raw:TEXT' sends TEXT as it is. After the moves
run out (or the game ends) it reads to the end. Every line read goes to RECORD, every line sent
too, prefixed with '>'.
"""
import json
import sys

record = open(sys.argv[1], "w")
request, moves = sys.argv[2], sys.argv[3:]


def send(text):
    record.write(">" + text + "\n")
    record.flush()
    print(text, flush=True)


send(request)
for line in sys.stdin:
    record.write(line)
    record.flush()
    state = json.loads(line)
    if "token" not in state or state.get("result", 0) != 0 or not moves:
        continue
    move = moves.pop(0)
    if move.startswith("raw:"):
        send(move[4:])
    elif move.startswith("badtoken:"):
        send(json.dumps({"token": "not-the-token", "move": json.loads(move[9:])}))
    else:
        send(json.dumps({"token": state["token"], "move": json.loads(move)}))
