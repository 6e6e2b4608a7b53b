/* pb_nussinov.c -- mirrors PolyBench/C 4.2 medley/nussinov
 * (RNA secondary-structure dynamic programming), MINI dataset: N=60.
 * Integer (int32) re-implementation: whole program, XOR checksum of the
 * upper triangle of table. Bases are 0..3; a pair matches when the two
 * bases add up to 3. */
#define N 60

static int seq[N];
static int table[N][N];

#define MAX(a, b) ((a) >= (b) ? (a) : (b))
#define MATCH(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        seq[i] = (i + 1) % 4;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            table[i][j] = 0;
}

static void kernel_nussinov(void)
{
    for (int i = N - 1; i >= 0; i--)
        for (int j = i + 1; j < N; j++) {
            if (j - 1 >= 0)
                table[i][j] = MAX(table[i][j], table[i][j - 1]);
            if (i + 1 < N)
                table[i][j] = MAX(table[i][j], table[i + 1][j]);
            if (j - 1 >= 0 && i + 1 < N) {
                if (i < j - 1)
                    table[i][j] = MAX(table[i][j],
                                      table[i + 1][j - 1] + MATCH(seq[i], seq[j]));
                else
                    table[i][j] = MAX(table[i][j], table[i + 1][j - 1]);
            }
            for (int k = i + 1; k < j; k++)
                table[i][j] = MAX(table[i][j], table[i][k] + table[k + 1][j]);
        }
}

int main(void)
{
    init_array();
    kernel_nussinov();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = i; j < N; j++)
            sum ^= table[i][j] + j;
    return sum;
}
