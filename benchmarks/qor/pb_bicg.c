/* pb_bicg.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/bicg
 * (BiCG sub-kernel: s := A^T*r, q := A*p), MINI dataset: M=38, N=42
 * (A is N x M).
 * Integer (int32) re-implementation: whole program, XOR checksum of s and q. */
#define M 38
#define N 42

static int A[N][M];
static int s[M];
static int q[N];
static int p[M];
static int r[N];

static void init_array(void)
{
    for (int i = 0; i < M; i++)
        p[i] = i % M;
    for (int i = 0; i < N; i++) {
        r[i] = i % N;
        for (int j = 0; j < M; j++)
            A[i][j] = (i * (j + 1)) % N;
    }
}

static void kernel_bicg(void)
{
    for (int i = 0; i < M; i++)
        s[i] = 0;
    for (int i = 0; i < N; i++) {
        q[i] = 0;
        for (int j = 0; j < M; j++) {
            s[j] += r[i] * A[i][j];
            q[i] += A[i][j] * p[j];
        }
    }
}

int main(void)
{
    init_array();
    kernel_bicg();
    int sum = 0;
    for (int i = 0; i < M; i++)
        sum ^= s[i];
    for (int i = 0; i < N; i++)
        sum ^= q[i];
    return sum;
}
