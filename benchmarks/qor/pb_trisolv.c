/* pb_trisolv.c -- mirrors PolyBench/C 4.2 linear-algebra/solvers/trisolv
 * (forward substitution L*x = b), MINI dataset: N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of x.
 * L is strictly diagonally dominant (diagonal 4*N, off-diagonal < 4), so
 * the divisor is never zero and x stays bounded. */
#define N 40

static int L[N][N];
static int x[N];
static int b[N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = -999;
        b[i] = i * 1000;
        for (int j = 0; j < i; j++)
            L[i][j] = (i + N - j + 1) % 4;
        L[i][i] = 4 * N;
    }
}

static void kernel_trisolv(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}

int main(void)
{
    init_array();
    kernel_trisolv();
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= x[i];
    return sum;
}
