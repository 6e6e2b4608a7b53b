/* pb_durbin.c -- mirrors PolyBench/C 4.2 linear-algebra/solvers/durbin
 * (Levinson-Durbin recursion for a Toeplitz system), MINI dataset: N=40.
 * Integer (int32) re-implementation in Q12 fixed point (4096 = 1.0):
 * whole program, XOR checksum of y. r is an AR(1)-like autocorrelation
 * (r[k] = 0.9^(k+1)), which keeps |alpha| < 1 and every value small.
 * The division by beta is guarded against zero. */
#define N 40
#define ONE 4096

static int r[N];
static int y[N];
static int z[N];

static void init_array(void)
{
    int v = ONE;
    for (int i = 0; i < N; i++) {
        v = v * 9 / 10;
        r[i] = v;
    }
}

static void kernel_durbin(void)
{
    int alpha, beta, sum;

    y[0] = -r[0];
    beta = ONE;
    alpha = -r[0];
    for (int k = 1; k < N; k++) {
        beta = (ONE - alpha * alpha / ONE) * beta / ONE;
        sum = 0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        int den = beta != 0 ? beta : 1;
        alpha = -((r[k] + sum / ONE) * ONE / den);
        for (int i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1] / ONE;
        for (int i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

int main(void)
{
    init_array();
    kernel_durbin();
    int cs = 0;
    for (int i = 0; i < N; i++)
        cs ^= y[i];
    return cs;
}
