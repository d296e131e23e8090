/* A Tron bot for the N-player benchmark (benches/nplayer.rs): the first move that keeps it in,
 * at the same small cost whatever the number of players, so that what the benchmark compares
 * is arena's work per move, not the bot's.
 *
 * It keeps its own grid as a CodinGame bot must: marks each head it is told of, and clears the
 * ribbon of a player whose line reads -1 -1 -1 -1.
 */
#include <stdio.h>
#include <string.h>

#define W 30
#define H 20

static signed char grid[W * H];

int main(void)
{
    static const int DX[4] = {0, 0, -1, 1}, DY[4] = {-1, 1, 0, 0};
    static const char *WORDS[4] = {"UP", "DOWN", "LEFT", "RIGHT"};
    int n, p;
    memset(grid, -1, sizeof grid);
    while (scanf("%d %d", &n, &p) == 2) {
        int hx = 0, hy = 0;
        for (int i = 0; i < n; i++) {
            int x0, y0, x1, y1;
            if (scanf("%d %d %d %d", &x0, &y0, &x1, &y1) != 4)
                return 0;
            if (x0 < 0) {
                for (int c = 0; c < W * H; c++)
                    if (grid[c] == i)
                        grid[c] = -1;
                continue;
            }
            grid[y0 * W + x0] = grid[y1 * W + x1] = (signed char)i;
            if (i == p) {
                hx = x1;
                hy = y1;
            }
        }
        int move = 0;
        for (int d = 0; d < 4; d++) {
            int x = hx + DX[d], y = hy + DY[d];
            if (x >= 0 && x < W && y >= 0 && y < H && grid[y * W + x] < 0) {
                move = d;
                break;
            }
        }
        printf("%s\n", WORDS[move]);
        fflush(stdout);
    }
    return 0;
}
