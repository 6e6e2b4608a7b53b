/* pb_syrk.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/syrk
 * (lower triangle of C := alpha*A*A^T + beta*C), MINI dataset: M=20, N=30
 * (C is N x N, A is N x M).
 * Integer (int32) re-implementation: whole program, XOR checksum of C.
 * alpha=3, beta=2. */
#define M 20
#define N 30

static int A[N][M];
static int C[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = (i * j + 1) % N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (i * j + 2) % M;
}

static void kernel_syrk(int alpha, int beta)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

int main(void)
{
    init_array();
    kernel_syrk(3, 2);
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= C[i][j];
    return sum;
}
