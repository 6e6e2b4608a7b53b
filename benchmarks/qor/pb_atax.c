/* pb_atax.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/atax
 * (y := A^T * (A*x)), MINI dataset: M=38, N=42.
 * Integer (int32) re-implementation: whole program, XOR checksum of y. */
#define M 38
#define N 42

static int A[M][N];
static int x[N];
static int y[N];
static int tmp[M];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        x[i] = 1 + i % 7;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i + j) % N;
}

static void kernel_atax(void)
{
    for (int i = 0; i < N; i++)
        y[i] = 0;
    for (int i = 0; i < M; i++) {
        tmp[i] = 0;
        for (int j = 0; j < N; j++)
            tmp[i] += A[i][j] * x[j];
        for (int j = 0; j < N; j++)
            y[j] += A[i][j] * tmp[i];
    }
}

int main(void)
{
    init_array();
    kernel_atax();
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= y[i];
    return sum;
}
