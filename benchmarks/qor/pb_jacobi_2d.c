/* pb_jacobi_2d.c -- mirrors PolyBench/C 4.2 stencils/jacobi-2d
 * (5-point averaging, ping-pong between A and B), MINI dataset:
 * TSTEPS=20, N=30.
 * Integer (int32) re-implementation: whole program, XOR checksum of A.
 * The 0.2 factor becomes an integer division by 5. */
#define TSTEPS 20
#define N 30

static int A[N][N];
static int B[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * (j + 2) + 2) % N * 64;
            B[i][j] = (i * (j + 3) + 3) % N * 64;
        }
}

static void kernel_jacobi_2d(void)
{
    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = (A[i][j] + A[i][j - 1] + A[i][j + 1]
                           + A[i + 1][j] + A[i - 1][j]) / 5;
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = (B[i][j] + B[i][j - 1] + B[i][j + 1]
                           + B[i + 1][j] + B[i - 1][j]) / 5;
    }
}

int main(void)
{
    init_array();
    kernel_jacobi_2d();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= A[i][j];
    return sum;
}
