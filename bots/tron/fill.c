/* Tron Battle bot for arena (CodinGame's protocol) over stdio, in plain C99.
 *
 * Build: cc -O2 -Wall -Wextra -o fill fill.c
 *
 * Strategy: for each move that keeps it in, split the free cells by who can get to each
 * first, the players moving in turn order (a Voronoi split), and take the move that leaves it
 * the most cells. Once no other cycle can reach its area, it only fills: the move that keeps
 * the most room, and of equal ones the move with the fewest free neighbours, which runs
 * along walls and ribbons and wastes no space behind it.
 *
 * Each turn brings `N P`, then `X0 Y0 X1 Y1` per player (-1 -1 -1 -1 for a player out). The
 * ribbons are not sent: the bot keeps its own grid. Between two of its turns every other
 * cycle moves once, so marking each head records every ribbon cell; the cells of a player who
 * went out are cleared first, as its ribbon disappears from the game.
 */
#include <stdio.h>
#include <string.h>

#define W 30
#define H 20
#define CELLS (W * H)
#define MAXP 4
#define FREE (-1)
#define FAR 0x7fff

static int grid[CELLS]; /* the owner of each cell, or FREE */
static const int DX[4] = {0, 0, -1, 1};
static const int DY[4] = {-1, 1, 0, 0};
static const char *WORDS[4] = {"UP", "DOWN", "LEFT", "RIGHT"};

static int on_grid(int x, int y)
{
    return x >= 0 && x < W && y >= 0 && y < H;
}

/* The neighbour of cell c in direction d, or -1 off the grid. */
static int step(int c, int d)
{
    int x = c % W + DX[d], y = c / W + DY[d];
    return on_grid(x, y) ? y * W + x : -1;
}

static int is_free(int c)
{
    return c >= 0 && grid[c] == FREE;
}

/* Moves from `from` to every free cell through free cells (FAR: out of reach). */
static void distances(int from, short *dist)
{
    static int queue[CELLS];
    int head = 0, tail = 0;
    for (int i = 0; i < CELLS; i++)
        dist[i] = FAR;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int n = step(c, d);
            if (is_free(n) && dist[n] == FAR) {
                dist[n] = (short)(dist[c] + 1);
                queue[tail++] = n;
            }
        }
    }
}

static int free_neighbours(int c)
{
    int k = 0;
    for (int d = 0; d < 4; d++)
        k += is_free(step(c, d));
    return k;
}

/* How good it is for player `me`, whose head is now at `at`, that the players move next in
 * `order` (k of them, `me` last): the cells it gets first, times 16; alone, its room times
 * 16 minus its free neighbours. */
static int score(int me, int at, const int *order, const int *heads, int k)
{
    static short dist[MAXP][CELLS];
    for (int r = 0; r < k; r++)
        distances(order[r] == me ? at : heads[order[r]], dist[r]);
    int mine = 0, room = 0, alone = 1;
    for (int c = 0; c < CELLS; c++) {
        int best = FAR * MAXP, owner = -1, mine_too = 0, others_too = 0;
        for (int r = 0; r < k; r++) {
            if (dist[r][c] == FAR || dist[r][c] == 0)
                continue;
            /* The r-th player to move enters a cell d moves away at time r + (d - 1) * k. */
            int t = r + (dist[r][c] - 1) * k;
            if (order[r] == me)
                mine_too = 1;
            else
                others_too = 1;
            if (t < best) {
                best = t;
                owner = order[r];
            }
        }
        mine += owner == me;
        room += mine_too;
        if (mine_too && others_too)
            alone = 0;
    }
    return alone ? 16 * room - free_neighbours(at) : 16 * mine;
}

/* The best move for player p, or 0 (UP) when every move loses. */
static int choose(int n, int p, const int *heads, const int *in)
{
    int order[MAXP], k = 0;
    for (int i = 1; i <= n; i++) {
        int q = (p + i) % n;
        if (in[q])
            order[k++] = q;
    }
    int best = 0, best_score = -1;
    for (int d = 0; d < 4; d++) {
        int to = step(heads[p], d);
        if (!is_free(to))
            continue;
        grid[to] = p;
        int s = free_neighbours(to) == 0 ? 0 : 1 + score(p, to, order, heads, k);
        grid[to] = FREE;
        if (s > best_score) {
            best = d;
            best_score = s;
        }
    }
    return best;
}

int main(void)
{
    int n, p;
    for (int i = 0; i < CELLS; i++)
        grid[i] = FREE;
    while (scanf("%d%d", &n, &p) == 2) {
        int rows[MAXP][4], heads[MAXP], in[MAXP];
        if (n < 2 || n > MAXP || p < 0 || p >= n)
            return 1;
        for (int i = 0; i < n; i++) {
            int *r = rows[i];
            if (scanf("%d%d%d%d", &r[0], &r[1], &r[2], &r[3]) != 4)
                return 1;
            if (r[0] != -1 && (!on_grid(r[0], r[1]) || !on_grid(r[2], r[3])))
                return 1;
        }
        for (int i = 0; i < n; i++) {
            in[i] = rows[i][0] != -1;
            for (int c = 0; c < CELLS && !in[i]; c++)
                if (grid[c] == i)
                    grid[c] = FREE;
        }
        for (int i = 0; i < n; i++) {
            if (!in[i])
                continue;
            grid[rows[i][1] * W + rows[i][0]] = i;
            heads[i] = rows[i][3] * W + rows[i][2];
            grid[heads[i]] = i;
        }
        printf("%s\n", WORDS[choose(n, p, heads, in)]);
        fflush(stdout); /* stdout is a pipe: without this the move stays in a buffer */
    }
    return 0;
}
