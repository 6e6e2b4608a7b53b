// An ap_fixed kernel co-simulated with its testbench main (tests/test_cxx.py): a Q1.14
// FIR whose coefficients are a table of doubles folded to ap_fixed<18, 2> constants,
// the accumulator an ap_fixed<40, 8>, the output rounded to nearest even and saturated
// (AP_RND_CONV, AP_SAT), a gain given as a double's bits (converted at run time, in
// hardware, by integer logic on its IEEE fields), and the energy a 64 x 64-bit product
// (a 128-bit multiply) of the sums of squares, returned rounded to an int.
#include <ap_fixed.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef ap_fixed<16, 2> sample_t;                       // Q1.14
typedef ap_fixed<16, 2, AP_RND_CONV, AP_SAT> out_t;
typedef ap_fixed<18, 2> coef_t;

#define TAPS 8
#define N 32

static const coef_t COEF[TAPS] = {-0.0312, 0.0625, 0.1875, 0.28125,
                                  0.28125, 0.1875, 0.0625, -0.0312};

int apfixed_fir(const int16_t in[N], int16_t out[N], uint64_t gain_bits) {
  double g;
  memcpy(&g, &gain_bits, 8);
  const ap_ufixed<12, 4, AP_RND> gain = g;            // run-time double -> fixed
  sample_t hist[TAPS];
  for (int k = 0; k < TAPS; k++) hist[k] = 0;
  ap_fixed<64, 24> e_in = 0, e_out = 0;
  for (int i = 0; i < N; i++) {
    for (int k = TAPS - 1; k > 0; k--) hist[k] = hist[k - 1];
    sample_t x;
    x.range(15, 0) = in[i];                             // the raw Q1.14 bits
    hist[0] = x;
    ap_fixed<40, 8> acc = 0;
    for (int k = 0; k < TAPS; k++) acc += hist[k] * COEF[k];
    out_t y = acc * gain;
    out[i] = (int16_t)y.range(15, 0).to_int();
    e_in += x * x;
    e_out += y * y;
  }
  ap_fixed<128, 48> ratio = e_out * e_in;                // 64 x 64 bits
  return (ratio >> 4).to_int();
}

int main() {
  int16_t in[N], out[N];
  const double gains[3] = {1.0, 2.75, 0.4};
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < N; i++)
      in[i] = (int16_t)sample_t((i % 7 - 3) * 0.29 + r * 0.1 - (i > 20 ? 1.5 : 0.0)).range(15, 0).to_int();
    uint64_t gb;
    memcpy(&gb, &gains[r], 8);
    int e = apfixed_fir(in, out, gb);
    printf("%d %d %d %f\n", e, out[3], out[N - 1], out_t(0.5).to_double());
  }
  return 0;
}
