/* pb_seidel_2d.c -- mirrors PolyBench/C 4.2 stencils/seidel-2d
 * (in-place 9-point Gauss-Seidel averaging), MINI dataset: TSTEPS=20, N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of A.
 * The division by 9.0 becomes an integer division by 9. */
#define TSTEPS 20
#define N 40

static int A[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i * (j + 2) + 2) % N * 64;
}

static void kernel_seidel_2d(void)
{
    for (int t = 0; t <= TSTEPS - 1; t++)
        for (int i = 1; i <= N - 2; i++)
            for (int j = 1; j <= N - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9;
}

int main(void)
{
    init_array();
    kernel_seidel_2d();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= A[i][j];
    return sum;
}
