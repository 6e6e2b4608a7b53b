/* pb_heat_3d.c -- mirrors PolyBench/C 4.2 stencils/heat-3d
 * (3-D heat equation, 7-point stencil, ping-pong between A and B),
 * MINI dataset: TSTEPS=20, N=10.
 * Integer (int32) re-implementation: whole program, XOR checksum of A.
 * The 0.125 factor becomes an integer division by 8 of the sum of the
 * three second differences. */
#define TSTEPS 20
#define N 10

static int A[N][N][N];
static int B[N][N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                A[i][j][k] = (i + j + (N - k)) * 100;
                B[i][j][k] = A[i][j][k];
            }
}

static void kernel_heat_3d(void)
{
    for (int t = 1; t <= TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = (A[i + 1][j][k] - 2 * A[i][j][k] + A[i - 1][j][k]
                                  + A[i][j + 1][k] - 2 * A[i][j][k] + A[i][j - 1][k]
                                  + A[i][j][k + 1] - 2 * A[i][j][k] + A[i][j][k - 1]) / 8
                                 + A[i][j][k];
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = (B[i + 1][j][k] - 2 * B[i][j][k] + B[i - 1][j][k]
                                  + B[i][j + 1][k] - 2 * B[i][j][k] + B[i][j - 1][k]
                                  + B[i][j][k + 1] - 2 * B[i][j][k] + B[i][j][k - 1]) / 8
                                 + B[i][j][k];
    }
}

int main(void)
{
    init_array();
    kernel_heat_3d();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                sum ^= A[i][j][k];
    return sum;
}
