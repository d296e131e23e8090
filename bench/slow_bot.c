/* A roshambo bot that thinks: it sleeps MS milliseconds (argv[1], default 100) before each move,
 * then plays ROCK. For the memory bench, whose games must stay running while it measures.
 * Build: cc -O2 -o slow_bot slow_bot.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    long ms = argc > 1 ? atol(argv[1]) : 100, rounds, i;
    struct timespec think = {ms / 1000, ms % 1000 * 1000000L};
    char line[256];

    /* Own name, the opponent's, the number of rounds. */
    for (i = 0; i < 3; i++)
        if (!fgets(line, sizeof line, stdin))
            return 0;
    rounds = atol(line);
    for (i = 0; i < rounds; i++) {
        nanosleep(&think, NULL);
        fputs("ROCK\n", stdout);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return 0;
    }
    return 0;
}
