/* pb_adi.c -- mirrors PolyBench/C 4.2 stencils/adi
 * (alternating-direction implicit solver: a column sweep then a row
 * sweep per time step, each a tridiagonal forward pass and a backward
 * substitution), MINI dataset: TSTEPS=20, N=20.
 * Integer (int32) re-implementation in Q8 fixed point (256 = 1.0):
 * whole program, XOR checksum of u. The coefficients are those of the
 * reference for N=20, TSTEPS=20 (mul1 = 40, mul2 = 20, so a = c = -20,
 * b = 41, d = f = -10, e = 21); the divisors are guarded against zero. */
#define TSTEPS 20
#define N 20
#define ONE 256

static int u[N][N];
static int v[N][N];
static int p[N][N];
static int q[N][N];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            u[i][j] = (i + N - j) * ONE / N;
}

static void kernel_adi(void)
{
    const int a = -20, b = 41, c = -20;
    const int d = -10, e = 21, f = -10;

    for (int t = 1; t <= TSTEPS; t++) {
        /* column sweep */
        for (int i = 1; i < N - 1; i++) {
            v[0][i] = ONE;
            p[i][0] = 0;
            q[i][0] = v[0][i];
            for (int j = 1; j < N - 1; j++) {
                int den = a * p[i][j - 1] + b * ONE;
                if (den == 0)
                    den = 1;
                p[i][j] = -c * ONE * ONE / den;
                q[i][j] = (-d * u[j][i - 1] + (1 + 2 * d) * u[j][i]
                           - f * u[j][i + 1] - a * q[i][j - 1]) * ONE / den;
            }
            v[N - 1][i] = ONE;
            for (int j = N - 2; j >= 1; j--)
                v[j][i] = p[i][j] * v[j + 1][i] / ONE + q[i][j];
        }
        /* row sweep */
        for (int i = 1; i < N - 1; i++) {
            u[i][0] = ONE;
            p[i][0] = 0;
            q[i][0] = u[i][0];
            for (int j = 1; j < N - 1; j++) {
                int den = d * p[i][j - 1] + e * ONE;
                if (den == 0)
                    den = 1;
                p[i][j] = -f * ONE * ONE / den;
                q[i][j] = (-a * v[i - 1][j] + (1 + 2 * a) * v[i][j]
                           - c * v[i + 1][j] - d * q[i][j - 1]) * ONE / den;
            }
            u[i][N - 1] = ONE;
            for (int j = N - 2; j >= 1; j--)
                u[i][j] = p[i][j] * u[i][j + 1] / ONE + q[i][j];
        }
    }
}

int main(void)
{
    init_array();
    kernel_adi();
    int sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum ^= u[i][j];
    return sum;
}
