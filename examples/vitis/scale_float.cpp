// A float kernel with AXI4-Lite scalar arguments as a Vitis HLS user writes it for
// Alveo: y = max(gain * x + bias, 0) over n elements on two m_axi bundles, the gain,
// the bias and n in the s_axilite control registers.  The loop is pipelined at II=1 on
// pyhls's IEEE single-precision units (bit-exact with the native run).
//
//   pyhls cosim scale_float.cpp --top scale_float --tb scale_float.cpp
#include <stdio.h>

#define MAX_N 64

extern "C" void scale_float(const float *x, float *y, float gain, float bias, int n) {
#pragma HLS INTERFACE m_axi port=x offset=slave bundle=gmem0 depth=64
#pragma HLS INTERFACE m_axi port=y offset=slave bundle=gmem1 depth=64
#pragma HLS INTERFACE s_axilite port=gain
#pragma HLS INTERFACE s_axilite port=bias
#pragma HLS INTERFACE s_axilite port=n
#pragma HLS INTERFACE s_axilite port=return
relu:
    for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
#pragma HLS LOOP_TRIPCOUNT min=1 max=64
        float v = gain * x[i] + bias;
        y[i] = v > 0.0f ? v : 0.0f;
    }
}

int main() {
    static float x[MAX_N], y[MAX_N];
    int lens[2] = {40, 64};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < MAX_N; i++) {
            x[i] = (i - 20) * 0.37f + t;
            y[i] = -1.0f;
        }
        scale_float(x, y, 1.5f - t, 0.25f * t - 2.0f, lens[t]);
        double sum = 0;
        for (int i = 0; i < MAX_N; i++) sum += y[i] * (i % 5 + 1);
        printf("n %d: sum %.6f\n", lens[t], sum);
    }
    return 0;
}
