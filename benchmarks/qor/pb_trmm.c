/* pb_trmm.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/trmm
 * (B := alpha * A^T * B with A unit lower triangular), MINI dataset:
 * M=20, N=30 (A is M x M, B is M x N).
 * Integer (int32) re-implementation: whole program, XOR checksum of B.
 * alpha=3. */
#define M 20
#define N 30

static int A[M][M];
static int B[M][N];

static void init_array(void)
{
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < i; j++)
            A[i][j] = (i + j) % M;
        A[i][i] = 1;
        for (int j = 0; j < N; j++)
            B[i][j] = (N + (i - j)) % N;
    }
}

static void kernel_trmm(int alpha)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

int main(void)
{
    init_array();
    kernel_trmm(3);
    int sum = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            sum ^= B[i][j];
    return sum;
}
