// ap_int / ap_uint operations at widths 1, 7, 17, 33 and 64, and across widths and
// signedness (tests/test_cxx.py): every
// result as a 64-bit pattern; the operands come in as 64-bit patterns, wrapped to W bits.
#include <ap_int.h>
#include <stdint.h>

#define NOPS 40

template <int W>
static void ops(int64_t x, int64_t y, int64_t z, int64_t *o) {
  ap_int<W> a = x, b = y;
  ap_uint<W> u = x, v = y;
  int sh = (int)(z & 127) - 32;          // negative, in range, and W or more
  int i = (int)((uint64_t)z % W);
  int j = (int)(((uint64_t)z >> 8) % W);
  int hi = i > j ? i : j, lo = i > j ? j : i;
  int k = 0;
  o[k++] = (a + b).to_int64();
  o[k++] = (a - b).to_int64();
  o[k++] = (a * b).to_int64();
  o[k++] = (u + v).to_int64();
  o[k++] = (u - v).to_int64();
  o[k++] = (u * b).to_int64();
  o[k++] = (a & v).to_int64();
  o[k++] = (a | v).to_int64();
  o[k++] = (a ^ b).to_int64();
  o[k++] = (~u).to_int64();
  o[k++] = (-a).to_int64();
  o[k++] = (a << sh).to_int64();
  o[k++] = (a >> sh).to_int64();
  o[k++] = (u >> sh).to_int64();
  o[k++] = (u << (unsigned)(z & 127)).to_int64();
  o[k++] = a < b;
  o[k++] = u < v;
  o[k++] = a == b;
  o[k++] = u >= v;
  o[k++] = a < 3;
  o[k++] = a[i];
  o[k++] = u.range(hi, lo).to_int64();
  ap_uint<W> w = u;
  w[j] = !w[j];
  w(hi, lo) = b;
  o[k++] = w.to_int64();
  ap_int<W> t = a;
  t += 1;
  t *= b;
  t -= 7;
  t >>= 1;
  o[k++] = t.to_int64();
  o[k++] = (a, u).to_uint64();
  o[k++] = ap_uint<W>(a).to_uint64();
  o[k++] = ap_int<W>(u).to_int64();
  o[k++] = a.to_int();
  o[k++] = u.to_uint();
  o[k++] = (int64_t)a.length();
  if constexpr (W < 64) {                // the exact mixed-sign forms need W + 2 bits
    o[k++] = u < a;
    o[k++] = (u + a).to_int64();
    o[k++] = b != 0 ? (a / b).to_int64() : 0;
    o[k++] = b != 0 ? (a % b).to_int64() : 0;
    o[k++] = v != 0 ? (u / v).to_int64() : 0;
    o[k++] = v != 0 ? (u % v).to_int64() : 0;
  }
}

// operands of different widths and signedness, built-in operands, implicit conversions
static void cross(int64_t x, int64_t y, int64_t z, int64_t *o) {
  ap_int<7> a = x;
  ap_uint<17> u = y;
  ap_int<33> b = z;
  ap_uint<1> one = x >> 3;
  ap_int<1> s1 = y;
  int k = 0;
  o[k++] = (a + u).to_int64();
  o[k++] = (a - u).to_int64();
  o[k++] = (a * u).to_int64();
  o[k++] = (u * b).to_int64();
  o[k++] = (a & u).to_int64();
  o[k++] = (u | b).to_int64();
  o[k++] = (a ^ b).to_int64();
  o[k++] = a < u;
  o[k++] = b >= u;
  o[k++] = a == s1;
  o[k++] = a != 0 ? (b / a).to_int64() : 0;
  o[k++] = a != 0 ? (u % a).to_int64() : 0;
  o[k++] = (b + 1000000000000LL).to_int64();
  o[k++] = (u + 5u).to_int64();
  o[k++] = (7 - a).to_int64();
  o[k++] = (one, s1, a).to_uint64();
  o[k++] = a.concat(u).to_uint64();
  o[k++] = u.to_long();
  o[k++] = (int64_t)b.to_uint64();
  o[k++] = b.to_long();
  ap_int<17> t = u;
  o[k++] = t.to_int64();
  ap_uint<7> r = b;
  o[k++] = r.to_int64();
  int ci = a;
  unsigned cu = u;
  long long cl = b;
  o[k++] = ci;
  o[k++] = cu;
  o[k++] = cl;
  o[k++] = (a > 0 ? 1 : 0) + (u ? 2 : 0);
  o[k++] = (-b).to_int64();
  o[k++] = (b << 40).to_int64();
  o[k++] = (b << (int)(x & 31)).to_int64();
  o[k++] = s1.to_int64();
  o[k++] = one.to_int64();
}

void apint_ops(const int64_t in[3], int64_t out[6 * NOPS]) {
  ops<1>(in[0], in[1], in[2], out);
  ops<7>(in[0], in[1], in[2], out + NOPS);
  ops<17>(in[0], in[1], in[2], out + 2 * NOPS);
  ops<33>(in[0], in[1], in[2], out + 3 * NOPS);
  ops<64>(in[0], in[1], in[2], out + 4 * NOPS);
  cross(in[0], in[1], in[2], out + 5 * NOPS);
}
