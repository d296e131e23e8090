/* Royal Game of Ur bot for arena / Code Colosseum, stdio channel: always moves
 * the lowest-numbered token that can move.
 *
 * Build: cc -O2 -Wall -Wextra -o first first.c
 *
 * The referee sends only rolls and the opponent's token numbers, so the bot
 * replays every move to know the board. Positions: 0 = start, 1..14 = track,
 * 15 = finished; cells 5..12 are shared and numbered the same for both
 * players; 4, 8 and 14 are rosettes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKENS 7
#define DONE 15

static int pos[2][TOKENS]; /* pos[player][token], all at start */

/* Reads one line into buf without its line ending; returns 0 at end of input.
 * Overlong lines (a long player name) are read to their end and cut. */
static int read_line(char *buf, int size)
{
    if (!fgets(buf, size, stdin))
        return 0;
    if (!strchr(buf, '\n')) {
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
    }
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

static int occupied(const int *tokens, int cell)
{
    for (int i = 0; i < TOKENS; i++)
        if (tokens[i] == cell)
            return i;
    return -1;
}

static int rosette(int cell) { return cell == 4 || cell == 8 || cell == 14; }

static int legal(int player, int token, int n)
{
    int p = pos[player][token], t = p + n;
    if (n == 0 || p == DONE || t > DONE) /* leaving needs the exact count */
        return 0;
    if (t != DONE && occupied(pos[player], t) >= 0) /* any number may finish */
        return 0;
    if (t == 8 && occupied(pos[1 - player], 8) >= 0) /* the shared rosette is safe */
        return 0;
    return 1;
}

int main(void)
{
    char line[256];
    int me, turn = 0; /* seat 0 moves first */

    /* Both names (unused), then our seat. */
    if (!read_line(line, sizeof line) || !read_line(line, sizeof line) ||
        !read_line(line, sizeof line))
        return 0;
    me = atoi(line);

    /* Every turn starts with a roll for `turn`; end of input ends the game. */
    while (read_line(line, sizeof line)) {
        int n = 0, token = -1, t, hit;
        for (char *c = line; *c; c++)
            n += *c == '1';

        for (int i = 0; i < TOKENS && token < 0; i++)
            if (legal(turn, i, n))
                token = i;
        if (token < 0) { /* no move: nothing is sent, the other player rolls */
            turn = 1 - turn;
            continue;
        }

        if (turn == me) {
            printf("%d\n", token);
            fflush(stdout); /* stdout is a pipe, fully buffered: flush each move */
        } else {
            /* The opponent's token (already checked by the referee), RETIRE,
             * or end of input. */
            if (!read_line(line, sizeof line) || strcmp(line, "RETIRE") == 0)
                return 0;
            token = atoi(line);
            if (token < 0 || token >= TOKENS)
                return 0;
        }

        t = pos[turn][token] += n;
        hit = (t >= 5 && t <= 12) ? occupied(pos[1 - turn], t) : -1;
        if (hit >= 0) /* capture: back to start */
            pos[1 - turn][hit] = 0;
        if (!rosette(t)) /* a rosette gives the same player another roll */
            turn = 1 - turn;
    }
    return 0;
}
