/* pb_cholesky.c -- mirrors PolyBench/C 4.2 linear-algebra/solvers/cholesky
 * (in-place Cholesky decomposition, lower triangle), MINI dataset: N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of the
 * lower triangle of A. sqrt becomes a 16-step bit-by-bit integer square
 * root (negative arguments give 0); the division by the diagonal is
 * guarded against zero. */
#define N 40

static int A[N][N];

static int isqrt(int v)
{
    unsigned x = v > 0 ? (unsigned)v : 0u;
    unsigned res = 0;
    unsigned bit = 1u << 30;
    for (int s = 0; s < 16; s++) {
        if (x >= res + bit) {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (int)res;
}

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++) {
            A[i][j] = (i * j + 1) % N * 8;
            A[j][i] = A[i][j];
        }
        A[i][i] = 200 * N;
    }
}

static void kernel_cholesky(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            int d = A[j][j];
            A[i][j] /= (d != 0 ? d : 1);
        }
        for (int k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = isqrt(A[i][i]);
    }
}

int main(void)
{
    init_array();
    kernel_cholesky();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            sum ^= A[i][j] + j;
    return sum;
}
