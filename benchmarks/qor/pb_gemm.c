/* pb_gemm.c -- mirrors PolyBench/C 4.2 linear-algebra/blas/gemm
 * (C := alpha*A*B + beta*C), MINI dataset: NI=20, NJ=25, NK=30.
 * Integer (int32) re-implementation: whole program (initialisation,
 * kernel, XOR checksum of C returned by main). alpha=3, beta=2. */
#define NI 20
#define NJ 25
#define NK 30

static int A[NI][NK];
static int B[NK][NJ];
static int C[NI][NJ];

static void init_array(void)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = (i * j + 1) % NI;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * (k + 1)) % NK;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * (j + 2)) % NJ;
}

static void kernel_gemm(int alpha, int beta)
{
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (int k = 0; k < NK; k++)
            for (int j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

int main(void)
{
    init_array();
    kernel_gemm(3, 2);
    int sum = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            sum ^= C[i][j];
    return sum;
}
