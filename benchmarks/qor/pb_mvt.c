/* pb_mvt.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/mvt
 * (x1 += A*y1; x2 += A^T*y2), MINI dataset: N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of x1, x2. */
#define N 40

static int A[N][N];
static int x1[N];
static int x2[N];
static int y_1[N];
static int y_2[N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        x1[i] = i % N;
        x2[i] = (i + 1) % N;
        y_1[i] = (i + 3) % N;
        y_2[i] = (i + 4) % N;
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j) % N;
    }
}

static void kernel_mvt(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x1[i] += A[i][j] * y_1[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x2[i] += A[j][i] * y_2[j];
}

int main(void)
{
    init_array();
    kernel_mvt();
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= x1[i] ^ (x2[i] << 1);
    return sum;
}
