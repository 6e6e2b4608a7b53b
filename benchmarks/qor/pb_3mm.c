/* pb_3mm.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/3mm
 * (E := A*B; F := C*D; G := E*F), MINI dataset: NI=16, NJ=18, NK=20,
 * NL=22, NM=24.
 * Integer (int32) re-implementation: whole program, XOR checksum of G.
 * Inputs are kept small (< 7) so that G cannot overflow. */
#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24

static int A[NI][NK];
static int B[NK][NJ];
static int C[NJ][NM];
static int D[NM][NL];
static int E[NI][NJ];
static int F[NJ][NL];
static int G[NI][NL];

static void init_array(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * k + 1) % 7;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * (j + 1) + 2) % 7;
    for (int j = 0; j < NJ; j++)
        for (int m = 0; m < NM; m++)
            C[j][m] = (j * (m + 3)) % 7;
    for (int m = 0; m < NM; m++)
        for (int l = 0; l < NL; l++)
            D[m][l] = (m * (l + 2) + 2) % 7;
}

static void kernel_3mm(void)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            E[i][j] = 0;
            for (int k = 0; k < NK; k++)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++) {
            F[j][l] = 0;
            for (int m = 0; m < NM; m++)
                F[j][l] += C[j][m] * D[m][l];
        }
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++) {
            G[i][l] = 0;
            for (int j = 0; j < NJ; j++)
                G[i][l] += E[i][j] * F[j][l];
        }
}

int main(void)
{
    init_array();
    kernel_3mm();
    int sum = 0;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            sum ^= G[i][l];
    return sum;
}
