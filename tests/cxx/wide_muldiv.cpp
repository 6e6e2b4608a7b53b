// 128-bit multiply, divide and remainder (tests/test_cxx.py): ap_uint<128> and ap_int<127>
// operands from two 64-bit words each (ap_int.h divides two ap_int<127> in 128 bits),
// with a testbench main of edge values: 0, 1, all ones, the signed extremes, powers of two.
#include <ap_int.h>
#include <stdint.h>
#include <stdio.h>

void wide_muldiv(const uint64_t in[4], uint64_t out[10]) {
  ap_uint<128> a = (ap_uint<128>(in[0]) << 64) | ap_uint<128>(in[1]);
  ap_uint<128> b = (ap_uint<128>(in[2]) << 64) | ap_uint<128>(in[3]);
  ap_int<127> sa = a, sb = b;
  ap_uint<128> p = a * b;
  ap_uint<128> q = b != 0 ? ap_uint<128>(a / b) : ap_uint<128>(0);
  ap_uint<128> r = b != 0 ? ap_uint<128>(a % b) : ap_uint<128>(0);
  ap_int<128> sq = sb != 0 ? ap_int<128>(sa / sb) : ap_int<128>(0);
  ap_int<127> sr = sb != 0 ? ap_int<127>(sa % sb) : ap_int<127>(0);
  out[0] = p.range(63, 0).to_uint64();
  out[1] = p.range(127, 64).to_uint64();
  out[2] = q.range(63, 0).to_uint64();
  out[3] = q.range(127, 64).to_uint64();
  out[4] = r.range(63, 0).to_uint64();
  out[5] = r.range(127, 64).to_uint64();
  out[6] = sq.range(63, 0).to_uint64();
  out[7] = sq.range(127, 64).to_uint64();
  out[8] = sr.range(63, 0).to_uint64();
  out[9] = sr.range(126, 64).to_uint64();
}

int main() {
  const uint64_t M = ~0ull, H = 1ull << 63, E[][2] = {
      {0, 0}, {0, 1}, {M, M}, {H >> 1, 0}, {(H >> 1) - 1, M}, {0, M}, {1, 0}, {0, 3},
      {M, M - 1}, {0x123456789abcdefull, 0xfedcba9876543210ull}, {M >> 1, 7}};
  const int n = sizeof E / sizeof E[0];
  uint64_t in[4], out[10], sum = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j += 2) {
      in[0] = E[i][0]; in[1] = E[i][1]; in[2] = E[(i + j) % n][0]; in[3] = E[(i + j) % n][1];
      wide_muldiv(in, out);
      for (int k = 0; k < 10; k++) sum = sum * 31 + out[k];
    }
  printf("%llx\n", (unsigned long long)sum);
  return 0;
}
