// A C++ function template and a partitioned local buffer as a Vitis HLS user writes
// them: the input is halved into a local buffer, row by row (a perfect nest that Vitis
// would flatten: pyhls keeps the nest and warns), and a template instance folds the
// buffer onto itself, out[i] = buf[i] + buf[2N-1-i], two outputs per iteration (unroll
// factor=2): four reads of buf per cycle, two of even and two of odd words, which a
// cyclic partition into two banks serves at II=1.  The template's loop pragmas apply to
// its instance.
//
//   pyhls cosim fold_tmpl.cpp --top fold_tmpl --tb fold_tmpl.cpp
#include <ap_int.h>
#include <stdio.h>

#define ROWS 4
#define COLS 8
#define HALF (ROWS * COLS / 2)

typedef ap_int<14> data_t;
typedef ap_int<15> sum_t;

template <typename T, typename S, int N>
void mirror_sum(const T buf[2 * N], S out[N]) {
fold:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
#pragma HLS UNROLL factor=2
        out[i] = buf[i] + buf[2 * N - 1 - i];
    }
}

void fold_tmpl(const data_t in[ROWS][COLS], sum_t out[HALF]) {
    data_t buf[ROWS * COLS];
#pragma HLS ARRAY_PARTITION variable=buf cyclic factor=2
rows:
    for (int r = 0; r < ROWS; r++) {
    cols:
        for (int c = 0; c < COLS; c++) {
#pragma HLS LOOP_FLATTEN
#pragma HLS PIPELINE II=1
            buf[r * COLS + c] = in[r][c] >> 1;
        }
    }
    mirror_sum<data_t, sum_t, HALF>(buf, out);
}

int main() {
    data_t in[ROWS][COLS];
    sum_t out[HALF];
    for (int t = 0; t < 2; t++) {
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++) in[r][c] = data_t((r * 977 + c * 131 + t * 4000) % 16384 - 8192);
        fold_tmpl(in, out);
        long sum = 0;
        for (int i = 0; i < HALF; i++) sum += out[i].to_int() * (i + 1);
        printf("call %d: weighted sum %ld\n", t, sum);
    }
    return 0;
}
