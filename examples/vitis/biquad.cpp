// A biquad IIR filter (direct form I) as a Vitis HLS user writes it: ap_fixed samples
// and coefficients, a wide accumulator, the output rounded and saturated by
// ap_fixed<16,2,AP_RND,AP_SAT>.  The feedback of y[n-1] and y[n-2] is a recurrence:
// the loop is pipelined at the II it allows.
//
//   pyhls cosim biquad.cpp --top biquad --tb biquad.cpp
#include <ap_fixed.h>
#include <stdio.h>

#define N 64

typedef ap_fixed<16, 2, AP_RND, AP_SAT> sample_t;
typedef ap_fixed<18, 3> coef_t;
typedef ap_fixed<40, 8> acc_t;

struct coefs_t {
    coef_t b0, b1, b2, a1, a2;
};

void biquad(const sample_t x[N], sample_t y[N], coefs_t c) {
    sample_t x1 = 0, x2 = 0, y1 = 0, y2 = 0;
filter:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=3
        sample_t x0 = x[i];
        acc_t acc = c.b0 * x0 + c.b1 * x1 + c.b2 * x2 - c.a1 * y1 - c.a2 * y2;
        sample_t y0 = acc;     // rounded to nearest, saturated at [-2, 2)
        y[i] = y0;
        x2 = x1;
        x1 = x0;
        y2 = y1;
        y1 = y0;
    }
}

int main() {
    sample_t x[N], y[N];
    // a resonant low-pass (a gain above 1 near its peak: the output saturates)
    coefs_t c = {coef_t(0.2), coef_t(0.4), coef_t(0.2), coef_t(-1.6), coef_t(0.85)};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++) x[i] = sample_t(((i * 5 + t * 3) % 16 < 8 ? 0.9 : -0.9) - t * 0.05);
        biquad(x, y, c);
        long long sum = 0;
        int sat = 0;
        for (int i = 0; i < N; i++) {
            sum += (long long)y[i].range(15, 0) * (i + 1);
            sat += y[i] == sample_t(2.0) || y[i] == sample_t(-2.0);
        }
        printf("call %d: sum %lld, %d saturated\n", t, sum, sat);
    }
    return 0;
}
