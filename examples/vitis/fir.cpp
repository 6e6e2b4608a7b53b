// A 16-tap FIR filter as a Vitis HLS user writes it: ap_int samples, a shift register
// partitioned into registers, one output per cycle (II=1), m_axi interfaces for Alveo
// (on other targets pyhls warns and builds BRAM-style ports of the declared extents).
//
//   pyhls cosim fir.cpp --top fir --tb fir.cpp
#include <ap_int.h>
#include <stdio.h>

#define TAPS 16
#define N 64

typedef ap_int<16> sample_t;
typedef ap_int<40> acc_t;

static const ap_int<12> coef[TAPS] = {-3, 7, 12, -20, 31, 55, -80, 190,
                                      190, -80, 55, 31, -20, 12, 7, -3};

void fir(const sample_t x[N], ap_int<32> y[N]) {
#pragma HLS INTERFACE m_axi port=x offset=slave bundle=gmem0
#pragma HLS INTERFACE m_axi port=y offset=slave bundle=gmem1
#pragma HLS INTERFACE s_axilite port=return bundle=control
    sample_t shift_reg[TAPS];
#pragma HLS ARRAY_PARTITION variable=shift_reg complete
#pragma HLS ARRAY_PARTITION variable=coef complete
init:
    for (int k = 0; k < TAPS; k++) shift_reg[k] = 0;
sample:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        acc_t acc = 0;
    taps:
        for (int k = TAPS - 1; k > 0; k--) {
            shift_reg[k] = shift_reg[k - 1];
            acc += shift_reg[k] * coef[k];
        }
        shift_reg[0] = x[i];
        acc += x[i] * coef[0];
        y[i] = (ap_int<32>)(acc >> 4);
    }
}

int main() {
    sample_t x[N];
    ap_int<32> y[N];
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < N; i++) x[i] = (sample_t)((i * 2731 + rep * 977) % 65536 - 32768);
        fir(x, y);
        long long sum = 0;
        for (int i = 0; i < N; i++) sum += y[i].to_int64();
        printf("call %d: sum %lld\n", rep, sum);
    }
    return 0;
}
