/* A player for bench/sdk_referee.c (and SdkReferee.java): reads a line "TURN SCORE0 SCORE1" and
 * answers at once with an integer (TURN * 7 + 3) mod 10. With an argument US it first thinks
 * (sleeps) from US / 2 to 3 * US / 2 microseconds a turn, drawn from the turn number, the same in
 * every run: as real bots, whose answers do not come a fixed time after their input (a referee
 * that polls every millisecond, as the SDK does, would otherwise always find an answer at the same
 * point between two polls). Build: cc -O2 -o sdk_bot sdk_bot.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    long us = argc > 1 ? atol(argv[1]) : 0;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (us > 0) {
            unsigned long h = (unsigned long)atol(line) * 2654435761UL % 1000; /* 0..999 */
            long t = us / 2 + us * h / 1000;
            struct timespec think = {t / 1000000, t % 1000000 * 1000L};
            nanosleep(&think, NULL);
        }
        printf("%ld\n", (atol(line) * 7 + 3) % 10);
        fflush(stdout);
    }
    return 0;
}
