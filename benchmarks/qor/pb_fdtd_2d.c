/* pb_fdtd_2d.c -- mirrors PolyBench/C 4.2 stencils/fdtd-2d
 * (2-D finite-difference time-domain: ey, ex, hz field updates),
 * MINI dataset: TMAX=20, NX=20, NY=30.
 * Integer (int32) re-implementation: whole program, XOR checksum of
 * ex, ey, hz. The 0.5 factors become /2, the 0.7 factor becomes *7/10. */
#define TMAX 20
#define NX 20
#define NY 30

static int ex[NX][NY];
static int ey[NX][NY];
static int hz[NX][NY];
static int fict[TMAX];

static void init_array(void)
{
    for (int t = 0; t < TMAX; t++)
        fict[t] = t * 16;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = (i * (j + 1)) % NX * 16;
            ey[i][j] = (i * (j + 2)) % NY * 16;
            hz[i][j] = (i * (j + 3)) % NX * 16;
        }
}

static void kernel_fdtd_2d(void)
{
    for (int t = 0; t < TMAX; t++) {
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - (hz[i][j] - hz[i - 1][j]) / 2;
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - (hz[i][j] - hz[i][j - 1]) / 2;
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - (ex[i][j + 1] - ex[i][j]
                                       + ey[i + 1][j] - ey[i][j]) * 7 / 10;
    }
}

int main(void)
{
    init_array();
    kernel_fdtd_2d();
    int sum = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            sum ^= ex[i][j] ^ (ey[i][j] * 3) ^ (hz[i][j] * 5);
    return sum;
}
