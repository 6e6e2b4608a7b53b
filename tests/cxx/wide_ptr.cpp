// Integers wider than 64 bits through the top's pointers: a scalar argument or return
// value of more than 64 bits is an error (the C ABI splits it), an array of them is not.
#include <ap_int.h>
#include <stdio.h>

typedef unsigned _BitInt(96) u96;

extern "C" void wide_ptr(const ap_uint<128> *a, const ap_uint<128> *b, ap_uint<128> *out, u96 *r96,
              int n) {
  for (int i = 0; i < n; i++) {
    ap_uint<128> x = a[i], y = b[i];
    out[i] = (x + y) ^ (x * 3);
    u96 v = (u96)(x >> 16);
    r96[i] = v * 5 + (u96)y.to_uint64();
  }
}

int main() {
  ap_uint<128> a[8], b[8], out[8];
  u96 r[8];
  ap_uint<128> ones = 0;
  ones = ~ones;
  ap_uint<128> e[8] = {0, 1, ones, ones >> 1, ap_uint<128>(1) << 127, ap_uint<128>(0xFFFFFFFFFFFFFFFFull),
                       (ap_uint<128>(0x0123456789ABCDEFull) << 64) | ap_uint<128>(0xFEDCBA9876543210ull),
                       ap_uint<128>(3) << 64};
  for (int i = 0; i < 8; i++) { a[i] = e[i]; b[i] = e[7 - i] ^ (ap_uint<128>(i) << 100); }
  wide_ptr(a, b, out, r, 8);
  for (int i = 0; i < 8; i++) { a[i] = e[(i * 3) % 8] + 12345; b[i] = ~e[i]; }
  wide_ptr(a, b, out, r, 5);
  unsigned s = 0;
  for (int i = 0; i < 8; i++) s ^= (unsigned)out[i].to_uint64() ^ (unsigned)r[i];
  printf("%u\n", s);
  return 0;
}
