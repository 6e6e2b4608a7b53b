// An ap_int kernel co-simulated with its testbench main (tests/test_cxx.py): a FIR with
// ap_int<17> samples and ap_uint<7> coefficients, the accumulator an ap_int<33>, bit
// fields packed with range() and concatenation.
#include <ap_int.h>
#include <stdint.h>
#include <stdio.h>

typedef ap_int<17> sample_t;
typedef ap_uint<7> coef_t;

static const coef_t COEF[4] = {3, 17, 17, 3};

uint64_t ap_fir(const int32_t in[16], uint64_t out[16]) {
  sample_t hist[4] = {0, 0, 0, 0};
  ap_int<33> acc_all = 0;
  for (int i = 0; i < 16; i++) {
    for (int k = 3; k > 0; k--) hist[k] = hist[k - 1];
    hist[0] = in[i];                      // wraps to 17 bits
    ap_int<33> acc = 0;
    for (int k = 0; k < 4; k++) acc += hist[k] * COEF[k];
    acc_all += acc;
    ap_uint<1> neg = acc[32];
    ap_uint<20> mag = (acc >> 4).range(19, 0);
    mag[0] = neg;
    out[i] = (neg, mag, ap_uint<7>(i)).to_uint64();
  }
  return acc_all.to_uint64();
}

int main() {
  int32_t in[16];
  uint64_t out[16];
  for (int r = 0; r < 2; r++) {
    for (int i = 0; i < 16; i++) in[i] = (i * 40503 + r * 7919) % 200001 - 100000;
    uint64_t s = ap_fir(in, out);
    printf("%llu %llu\n", (unsigned long long)s, (unsigned long long)out[7]);
  }
  return 0;
}
