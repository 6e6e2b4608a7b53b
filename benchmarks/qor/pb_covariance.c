/* pb_covariance.c -- mirrors PolyBench/C 4.2 datamining/covariance
 * (column means, centring, covariance matrix with its symmetric copy),
 * MINI dataset: M=28, N=32 (data is N x M, cov is M x M).
 * Integer (int32) re-implementation: whole program, XOR checksum of cov.
 * Divisions by float_n and (float_n - 1) become integer divisions by N
 * and N-1. */
#define M 28
#define N 32

static int data[N][M];
static int cov[M][M];
static int mean[M];

static void init_array(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = (i * j) % M * 8;
}

static void kernel_covariance(void)
{
    for (int j = 0; j < M; j++) {
        mean[j] = 0;
        for (int i = 0; i < N; i++)
            mean[j] += data[i][j];
        mean[j] /= N;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] -= mean[j];
    for (int i = 0; i < M; i++)
        for (int j = i; j < M; j++) {
            cov[i][j] = 0;
            for (int k = 0; k < N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (N - 1);
            cov[j][i] = cov[i][j];
        }
}

int main(void)
{
    init_array();
    kernel_covariance();
    int sum = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            sum ^= cov[i][j];
    return sum;
}
