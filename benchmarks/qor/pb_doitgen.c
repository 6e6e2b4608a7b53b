/* pb_doitgen.c -- mirrors PolyBench/C 4.2 linear-algebra/kernels/doitgen
 * (multiresolution analysis kernel: A[r][q][:] := A[r][q][:] * C4),
 * MINI dataset: NQ=8, NR=10, NP=12.
 * Integer (int32) re-implementation: whole program, XOR checksum of A. */
#define NQ 8
#define NR 10
#define NP 12

static int A[NR][NQ][NP];
static int C4[NP][NP];
static int sum[NP];

static void init_array(void)
{
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                A[r][q][p] = (r * q + p) % NP;
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NP; j++)
            C4[i][j] = (i * j) % NP;
}

static void kernel_doitgen(void)
{
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
                sum[p] = 0;
                for (int s = 0; s < NP; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < NP; p++)
                A[r][q][p] = sum[p];
        }
}

int main(void)
{
    init_array();
    kernel_doitgen();
    int cs = 0;
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                cs ^= A[r][q][p];
    return cs;
}
