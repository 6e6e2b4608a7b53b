/* pb_floyd_warshall.c -- mirrors PolyBench/C 4.2 medley/floyd-warshall
 * (all-pairs shortest paths), MINI dataset: N=60.
 * Integer (int32) re-implementation: whole program, XOR checksum of path.
 * Missing edges are weight 999, as in the reference initialisation. */
#define N 60

static int path[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            path[i][j] = i * j % 7 + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }
}

static void kernel_floyd_warshall(void)
{
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j]
                                 ? path[i][j]
                                 : path[i][k] + path[k][j];
}

int main(void)
{
    init_array();
    kernel_floyd_warshall();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= path[i][j] * (j + 1);
    return sum;
}
