/* pb_syr2k.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/syr2k
 * (lower triangle of C := alpha*A*B^T + alpha*B*A^T + beta*C), MINI
 * dataset: M=20, N=30 (C is N x N, A and B are N x M).
 * Integer (int32) re-implementation: whole program, XOR checksum of C.
 * alpha=3, beta=2. */
#define M 20
#define N 30

static int A[N][M];
static int B[N][M];
static int C[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = (i * j + 1) % N;
            B[i][j] = (i * j + 2) % M;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (i * j + 3) % N;
}

static void kernel_syr2k(int alpha, int beta)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}

int main(void)
{
    init_array();
    kernel_syr2k(3, 2);
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= C[i][j];
    return sum;
}
