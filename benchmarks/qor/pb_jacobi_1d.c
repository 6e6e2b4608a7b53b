/* pb_jacobi_1d.c -- mirrors PolyBench/C 4.2 stencils/jacobi-1d
 * (3-point averaging, ping-pong between A and B), MINI dataset:
 * TSTEPS=20, N=30.
 * Integer (int32) re-implementation: whole program, XOR checksum of A.
 * The 0.33333 factor becomes an integer division by 3. */
#define TSTEPS 20
#define N 30

static int A[N];
static int B[N];

static void init_array(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = (i + 2) * 100;
        B[i] = (i + 3) * 100;
    }
}

static void kernel_jacobi_1d(void)
{
    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3;
        for (int i = 1; i < N - 1; i++)
            A[i] = (B[i - 1] + B[i] + B[i + 1]) / 3;
    }
}

int main(void)
{
    init_array();
    kernel_jacobi_1d();
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum ^= A[i];
    return sum;
}
