// ap_ints wider than 64 bits in the operations pyhls's datapath has for them: bitwise,
// shifts, addition, subtraction, comparisons (tests/test_cxx.py, co-simulated).
#include <ap_int.h>
#include <stdint.h>

void ap_wide(const uint64_t in[4], uint64_t out[9]) {
  ap_uint<100> a = ap_uint<100>(in[0]) << 36 | ap_uint<100>(in[1]);
  ap_uint<100> b = (ap_uint<100>(in[2]) << 36) ^ ap_uint<100>(in[3]);
  ap_int<90> s = ap_int<90>(a) - ap_int<90>(b);
  ap_uint<100> c = a + b;
  ap_int<64> x = (int64_t)in[0];
  ap_uint<64> y = in[3];
  out[0] = (c >> 37).to_uint64();
  out[1] = ((a & ~b) >> 20).to_uint64();
  out[2] = a < b;
  out[3] = s < 0;
  out[4] = (s >> (int)(in[3] & 63)).to_uint64();
  out[5] = ((c << (int)(in[1] & 31)) >> 40).to_uint64();
  out[6] = (x < y) + 2 * (x == y) + 4 * (y >= x);
  out[7] = (x + y).range(64, 1).to_uint64();
  out[8] = s.range(89, 30).to_uint64();
}
