/* pb_lu.c -- mirrors PolyBench/C 4.2 linear-algebra/solvers/lu
 * (in-place LU decomposition without pivoting), MINI dataset: N=40.
 * Integer (int32) re-implementation: whole program, XOR checksum of A.
 * Same loop nest and operations as the float kernel, in integers (the
 * division truncates). A is diagonally dominant; the division by the
 * pivot is guarded against zero anyway. */
#define N 40

static int A[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j + 1) % N;
        A[i][i] = 2 * N;
    }
}

static void kernel_lu(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            int d = A[j][j];
            A[i][j] /= (d != 0 ? d : 1);
        }
        for (int j = i; j < N; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

int main(void)
{
    init_array();
    kernel_lu();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= A[i][j];
    return sum;
}
