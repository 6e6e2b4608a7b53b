/* pb_symm.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/symm
 * (C := alpha*A*B + beta*C with A symmetric, only its lower triangle
 * read), MINI dataset: M=20, N=30 (A is M x M, B and C are M x N).
 * Integer (int32) re-implementation: whole program, XOR checksum of C.
 * alpha=3, beta=2. */
#define M 20
#define N 30

static int A[M][M];
static int B[M][N];
static int C[M][N];

static void init_array(void)
{
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            C[i][j] = (i * N + j) % 17;
            B[i][j] = (3 * i + 7 * j) % 13;
        }
        for (int j = 0; j <= i; j++)
            A[i][j] = (i * j + 5) % 11;
        for (int j = i + 1; j < M; j++)
            A[i][j] = -999; /* never read */
    }
}

static void kernel_symm(int alpha, int beta)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int temp2 = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
}

int main(void)
{
    init_array();
    kernel_symm(3, 2);
    int sum = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            sum ^= C[i][j];
    return sum;
}
