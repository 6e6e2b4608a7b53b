/* spmv_crs: MachSuite's spmv/crs, a sparse matrix (compressed row storage: values,
   column indices, row delimiters) times a dense vector, on an int32 32x32 matrix with
   up to 128 non-zeros (MachSuite: double 494x494, 1666 non-zeros). */
#include <stdint.h>

#define N 32
#define NNZ 128

void spmv(const int32_t val[NNZ], const int32_t cols[NNZ], const int32_t rowDelimiters[N + 1],
          const int32_t vec[N], int32_t out[N])
{
spmv_1:
    for (int i = 0; i < N; i++) {
        int32_t sum = 0;
        int tmp_begin = rowDelimiters[i];
        int tmp_end = rowDelimiters[i + 1];
    spmv_2:
        for (int j = tmp_begin; j < tmp_end; j++)
            sum += val[j] * vec[cols[j]];
        out[i] = sum;
    }
}

static int32_t val[NNZ], cols[NNZ], rows[N + 1], vec[N], out[N];

int main(void)
{
    uint32_t s = 21u;
    for (int t = 0; t < 2; t++) {
        int n = 0;
        for (int i = 0; i < N; i++) {
            rows[i] = n;
            for (int j = 0; j < N && n < NNZ; j++) {
                s = s * 1103515245u + 12345u;
                if ((s >> 24) % 8 == 0 || (i + j + t) % 9 == 0) {
                    s = s * 1103515245u + 12345u;
                    val[n] = (int32_t)(s >> 16) - 32768;
                    cols[n++] = j;
                }
            }
        }
        rows[N] = n;
        for (int i = 0; i < N; i++) {
            s = s * 1103515245u + 12345u;
            vec[i] = (int32_t)(s >> 20) - 2048;
        }
        spmv(val, cols, rows, vec, out);
    }
    return 0;
}
