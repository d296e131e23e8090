/* Roshambo bot for arena / Code Colosseum, stdio channel: plays at random.
 *
 * Build: cc -O2 -Wall -Wextra -o random random.c
 * It is kept lean (no allocation, one fflush per move) so it can serve as the
 * opponent in long benchmarks of 10,000 rounds and more.
 */
#define _POSIX_C_SOURCE 200809L /* for getpid() even under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Reads one line into buf without its line ending; returns 0 at end of input.
 * A line longer than buf (a very long player name) is read to its end and cut,
 * so it is never mistaken for the next line. */
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

int main(void)
{
    static const char *const moves[] = {"ROCK\n", "PAPER\n", "SCISSORS\n"};
    char line[256];
    long rounds, i;

    /* time alone would give two copies started in the same second the same
     * moves; mixing in the pid keeps them apart. */
    srand((unsigned)time(NULL) ^ (unsigned)getpid());

    /* Our name and the opponent's: not needed here. Then the number of rounds. */
    if (!read_line(line, sizeof line) || !read_line(line, sizeof line) ||
        !read_line(line, sizeof line))
        return 0;
    rounds = strtol(line, NULL, 10);

    for (i = 0; i < rounds; i++) {
        fputs(moves[rand() % 3], stdout);
        /* stdout is a pipe, so it is fully buffered: flush, or the referee
         * never sees the move. */
        fflush(stdout);
        /* The opponent's move, RETIRE, or end of input: only the first matters. */
        if (!read_line(line, sizeof line) || strcmp(line, "RETIRE") == 0)
            return 0;
    }
    return 0;
}
