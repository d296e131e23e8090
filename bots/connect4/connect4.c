/* Connect four bot for arena, JSON protocol over stdio, in plain C99.
 *
 * Build: cc -O2 -Wall -Wextra -o connect4 connect4.c
 *
 * Strategy, in order: win at once if possible; else block the opponent's
 * immediate win; else play the legal column nearest the centre (the centre
 * columns belong to the most lines of four).
 *
 * The referee's lines are small, flat JSON objects, so instead of a JSON
 * library the bot looks up the few keys it needs with find_key().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 6
#define COLS 7

/* Reads one whole line of any length into *buf (a malloc'd buffer of *cap
 * bytes, grown as needed), without its line ending. Returns 0 at end of input.
 * The final state carries the game's history and log, which can be longer
 * than any fixed buffer. */
static int read_line(char **buf, size_t *cap)
{
    size_t len = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (len + 1 >= *cap) {
            *cap *= 2;
            *buf = realloc(*buf, *cap);
            if (!*buf)
                exit(1);
        }
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return 0;
    if (len > 0 && (*buf)[len - 1] == '\r')
        len--;
    (*buf)[len] = '\0';
    return 1;
}

/* Returns a pointer to the value of "key" in a JSON line, or NULL. Inside a
 * JSON string a quote is escaped (\"), so text within the log can never match
 * "key" followed by a colon the way a real key does. */
static const char *find_key(const char *line, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strchr(line, '"'); p; p = strchr(p + 1, '"')) {
        if (strncmp(p + 1, key, n) == 0 && p[n + 1] == '"') {
            const char *v = p + n + 2;
            while (*v == ' ')
                v++;
            if (*v == ':') {
                v++;
                while (*v == ' ')
                    v++;
                return v;
            }
        }
    }
    return NULL;
}

/* Copies the JSON string value of key, escapes and all (so it can be sent
 * back as it came), into out. Returns 0 if the key is missing or too long. */
static int find_string(const char *line, const char *key, char *out, size_t size)
{
    const char *v = find_key(line, key);
    size_t len = 0;
    if (!v || *v++ != '"')
        return 0;
    while (*v && *v != '"') {
        if (*v == '\\' && v[1]) /* keep an escape pair together */
            out[len++] = *v++;
        out[len++] = *v++;
        if (len + 2 >= size)
            return 0;
    }
    out[len] = '\0';
    return 1;
}

/* The integer value of key, or fallback if the key is missing. */
static int find_int(const char *line, const char *key, int fallback)
{
    const char *v = find_key(line, key);
    return v ? (int)strtol(v, NULL, 10) : fallback;
}

/* The row a piece dropped into column c lands on, or -1 if c is full.
 * Row 0 is the top, so the piece falls to the highest-numbered empty row. */
static int drop_row(const char *board, int c)
{
    for (int r = ROWS - 1; r >= 0; r--)
        if (board[r * COLS + c] == ' ')
            return r;
    return -1;
}

/* Would piece p at (r, c) make four in a row? Counts p's pieces on both sides
 * of the cell along each of the four directions. */
static int wins_at(const char *board, int r, int c, char p)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++) {
        int count = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            int rr = r + sign * dirs[d][0], cc = c + sign * dirs[d][1];
            while (rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS &&
                   board[rr * COLS + cc] == p) {
                count++;
                rr += sign * dirs[d][0];
                cc += sign * dirs[d][1];
            }
        }
        if (count >= 4)
            return 1;
    }
    return 0;
}

/* A column where piece p wins at once, or -1. */
static int winning_column(const char *board, char p)
{
    for (int c = 0; c < COLS; c++) {
        int r = drop_row(board, c);
        if (r >= 0 && wins_at(board, r, c, p))
            return c;
    }
    return -1;
}

static int choose(const char *board, char me, char them)
{
    static const int by_centre[COLS] = {3, 2, 4, 1, 5, 0, 6};
    int c = winning_column(board, me);
    if (c < 0)
        c = winning_column(board, them); /* drop there first to block it */
    for (int i = 0; c < 0 && i < COLS; i++)
        if (drop_row(board, by_centre[i]) >= 0)
            c = by_centre[i];
    return c;
}

int main(void)
{
    size_t cap = 256;
    char *line = malloc(cap), token[64], board[ROWS * COLS + 8];
    char me, them;
    int first;

    if (!line)
        return 1;

    puts("{\"game\": \"connect4\"}");
    fflush(stdout); /* stdout is a pipe, fully buffered: flush every line */

    /* The acknowledgement says whether we are player 1 or player 2. */
    if (!read_line(&line, &cap) || !find_key(line, "player"))
        return 0; /* input closed, or refused with {"log": ...} */
    first = find_int(line, "player", 1) == 1;

    while (read_line(&line, &cap)) {
        if (find_int(line, "result", 0) != 0)
            break; /* the final state: the game is over */
        if (!find_string(line, "token", token, sizeof token) ||
            !find_string(line, "board", board, sizeof board) ||
            strlen(board) != ROWS * COLS)
            continue;
        /* Player 1 is b and player 2 r in arena's default dialect (the original
         * server's, protocol=server), x and o with protocol=docs. On a board
         * with neither, the letters do not matter yet. */
        if (strpbrk(board, "br")) {
            me = first ? 'b' : 'r';
            them = first ? 'r' : 'b';
        } else {
            me = first ? 'x' : 'o';
            them = first ? 'o' : 'x';
        }
        printf("{\"token\": \"%s\", \"move\": %d}\n", token, choose(board, me, them));
        fflush(stdout);
    }
    free(line);
    return 0;
}
