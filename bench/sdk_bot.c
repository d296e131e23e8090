/* A player for bench/sdk_referee.c (and SdkReferee.java): reads a line "TURN SCORE0 SCORE1" and
 * answers at once with an integer (TURN * 7 + 3) mod 10. With an argument US it first sleeps US
 * microseconds a turn (bench/sdk.sh's memory runs, whose games must stay running while they are
 * measured). Build: cc -O2 -o sdk_bot sdk_bot.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    long us = argc > 1 ? atol(argv[1]) : 0;
    struct timespec think = {us / 1000000, us % 1000000 * 1000L};
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (us > 0) nanosleep(&think, NULL);
        printf("%ld\n", (atol(line) * 7 + 3) % 10);
        fflush(stdout);
    }
    return 0;
}
