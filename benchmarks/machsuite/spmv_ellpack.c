/* spmv_ellpack: MachSuite's spmv/ellpack, a sparse matrix in ELLPACK form (every row
   padded to L non-zeros: values and column indices, row-major) times a dense vector,
   in double precision as MachSuite has (TYPE double), on a 32x32 matrix with MachSuite's
   L = 10 (MachSuite: 494x494).  Each row's sum is one chain of double additions, in the
   C order (no reassociation: the result is bit-exact). */
#include <stdint.h>

#define N 32
#define L 10

void ellpack(const double nzval[N * L], const int32_t cols[N * L], const double vec[N],
             double out[N])
{
ellpack_1:
    for (int i = 0; i < N; i++) {
        double sum = out[i];
    ellpack_2:
        for (int j = 0; j < L; j++)
            sum += nzval[j + i * L] * vec[cols[j + i * L]];
        out[i] = sum;
    }
}

static double nzval[N * L], vec[N], out[N];
static int32_t cols[N * L];

int main(void)
{
    uint32_t s = 77u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++) {
            int c = 0;
            for (int j = 0; j < L; j++) {       /* padding: zeros at column 0, as MachSuite */
                s = s * 1103515245u + 12345u;
                c += 1 + (int)((s >> 24) % 3);
                int pad = c >= N || (s >> 16) % 5 == 0;
                nzval[i * L + j] = pad ? 0.0 : ((int32_t)(s >> 8) % 65536) / 1024.0 - 31.5;
                cols[i * L + j] = pad ? 0 : c;
            }
            s = s * 1103515245u + 12345u;
            vec[i] = ((int32_t)(s >> 12) % 100000) / 777.0;
            out[i] = t * 0.25 * i - 5.0;
        }
        ellpack(nzval, cols, vec, out);
    }
    return 0;
}
