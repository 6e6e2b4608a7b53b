// ap_int / ap_uint operations at widths 1, 7, 17, 33 and 64 (tests/test_cxx.py): every
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

void apint_ops(const int64_t in[3], int64_t out[5 * NOPS]) {
  ops<1>(in[0], in[1], in[2], out);
  ops<7>(in[0], in[1], in[2], out + NOPS);
  ops<17>(in[0], in[1], in[2], out + 2 * NOPS);
  ops<33>(in[0], in[1], in[2], out + 3 * NOPS);
  ops<64>(in[0], in[1], in[2], out + 4 * NOPS);
}
