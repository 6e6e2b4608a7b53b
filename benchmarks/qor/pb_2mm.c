/* pb_2mm.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/2mm
 * (D := alpha*A*B*C + beta*D, through tmp = alpha*A*B), MINI dataset:
 * NI=16, NJ=18, NK=22, NL=24.
 * Integer (int32) re-implementation: whole program, XOR checksum of D.
 * alpha=3, beta=2. */
#define NI 16
#define NJ 18
#define NK 22
#define NL 24

static int tmp[NI][NJ];
static int A[NI][NK];
static int B[NK][NJ];
static int C[NJ][NL];
static int D[NI][NL];

static void init_array(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * k + 1) % NI;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * (j + 1)) % NJ;
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++)
            C[j][l] = (j * (l + 3) + 1) % NL;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            D[i][l] = (i * (l + 2)) % NK;
}

static void kernel_2mm(int alpha, int beta)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            tmp[i][j] = 0;
            for (int k = 0; k < NK; k++)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++) {
            D[i][l] *= beta;
            for (int j = 0; j < NJ; j++)
                D[i][l] += tmp[i][j] * C[j][l];
        }
}

int main(void)
{
    init_array();
    kernel_2mm(3, 2);
    int sum = 0;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            sum ^= D[i][l];
    return sum;
}
