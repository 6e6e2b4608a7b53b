// A fixed-point dot product as a Vitis HLS user writes it: ap_fixed<16,4> operands, a
// rounding and saturating ap_fixed<24,10,AP_RND,AP_SAT> result, both vectors
// partitioned cyclically into 4 banks so that the loop, unrolled by 4, reads 4 elements
// of each per cycle and is pipelined at II=1.
//
//   pyhls cosim dot_fixed.cpp --top dot_fixed --tb dot_fixed.cpp
#include <ap_fixed.h>
#include <stdio.h>

#define N 64

typedef ap_fixed<16, 4> coef_t;
typedef ap_fixed<40, 16> acc_t;
typedef ap_fixed<24, 10, AP_RND, AP_SAT> result_t;

result_t dot_fixed(const coef_t a[N], const coef_t b[N]) {
#pragma HLS ARRAY_PARTITION variable=a cyclic factor=2
#pragma HLS ARRAY_PARTITION variable=b cyclic factor=2
    acc_t acc = 0;
mac:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
#pragma HLS UNROLL factor=2
        acc += a[i] * b[i];
    }
    return result_t(acc);
}

int main() {
    coef_t a[N], b[N];
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++) {   // call 1: correlated, beyond 512: saturated
            a[i] = coef_t(t ? 7.5 - i % 3 * 0.3 : (i * 37 % 101 - 50) / 8.0);
            b[i] = coef_t(t ? 6.9 - i % 5 * 0.4 : (i * 53 % 89 - 44) / 16.0);
        }
        result_t r = dot_fixed(a, b);
        printf("call %d: dot %f (raw %lld)\n", t, r.to_double(), (long long)r.range(23, 0));
    }
    return 0;
}
