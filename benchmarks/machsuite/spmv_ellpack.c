/* spmv_ellpack: MachSuite's spmv/ellpack, a sparse matrix in ELLPACK form (every row
   padded to L non-zeros: values and column indices, row-major) times a dense vector,
   on an int32 32x32 matrix with L = 10 as MachSuite has (MachSuite: double 494x494). */
#include <stdint.h>

#define N 32
#define L 10

void ellpack(const int32_t nzval[N * L], const int32_t cols[N * L], const int32_t vec[N],
             int32_t out[N])
{
ellpack_1:
    for (int i = 0; i < N; i++) {
        int32_t sum = out[i];
    ellpack_2:
        for (int j = 0; j < L; j++)
            sum += nzval[j + i * L] * vec[cols[j + i * L]];
        out[i] = sum;
    }
}

static int32_t nzval[N * L], cols[N * L], vec[N], out[N];

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
                nzval[i * L + j] = pad ? 0 : (int32_t)(s >> 12) % 4096 - 2048;
                cols[i * L + j] = pad ? 0 : c;
            }
            s = s * 1103515245u + 12345u;
            vec[i] = (int32_t)(s >> 20) - 2048;
            out[i] = t * i - 5;
        }
        ellpack(nzval, cols, vec, out);
    }
    return 0;
}
