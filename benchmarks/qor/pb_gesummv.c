/* pb_gesummv.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/gesummv
 * (y := alpha*A*x + beta*B*x), MINI dataset: N=30.
 * Integer (int32) re-implementation: whole program, XOR checksum of y.
 * alpha=3, beta=2. */
#define N 30

static int A[N][N];
static int B[N][N];
static int tmp[N];
static int x[N];
static int y[N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = i % N;
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * j + 1) % N;
            B[i][j] = (i * j + 2) % N;
        }
    }
}

static void kernel_gesummv(int alpha, int beta)
{
    for (int i = 0; i < N; i++) {
        tmp[i] = 0;
        y[i] = 0;
        for (int j = 0; j < N; j++) {
            tmp[i] += A[i][j] * x[j];
            y[i] += B[i][j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

int main(void)
{
    init_array();
    kernel_gesummv(3, 2);
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= y[i];
    return sum;
}
