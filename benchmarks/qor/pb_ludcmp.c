/* pb_ludcmp.c -- mirrors PolyBench/C 4.2 linear-algebra/solvers/ludcmp
 * (LU decomposition followed by forward and back substitution to solve
 * A*x = b), MINI dataset: N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of x.
 * Same loop nests and operations as the float kernel, in integers (the
 * divisions truncate). A is diagonally dominant; the divisions by the
 * pivots are guarded against zero anyway. */
#define N 40

static int A[N][N];
static int b[N];
static int x[N];
static int y[N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = 0;
        y[i] = 0;
        b[i] = (i + 1) * 50;
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j + 3) % N;
        A[i][i] = 2 * N;
    }
}

static void kernel_ludcmp(void)
{
    int w;

    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            w = A[i][j];
            for (int k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            int d = A[j][j];
            A[i][j] = w / (d != 0 ? d : 1);
        }
        for (int j = i; j < N; j++) {
            w = A[i][j];
            for (int k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    for (int i = 0; i < N; i++) {
        w = b[i];
        for (int j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (int i = N - 1; i >= 0; i--) {
        w = y[i];
        for (int j = i + 1; j < N; j++)
            w -= A[i][j] * x[j];
        int d = A[i][i];
        x[i] = w / (d != 0 ? d : 1);
    }
}

int main(void)
{
    init_array();
    kernel_ludcmp();
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= x[i];
    return sum;
}
