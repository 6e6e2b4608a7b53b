// ap_fixed / ap_ufixed operations (tests/test_cxx.py): for pairs of formats from 1 to 128
// bits (I below 0 and above W among them), the full-precision + - * / & | ^, comparisons,
// unary - and ~, shifts, conversions into narrower types under every quantisation mode
// and each overflow mode, from a double (given as its bits: a run-time conversion), to double,
// float, int and ap_int.  Every result's raw bits go out as 64-bit words.
//
// in: x0 x1 (x's raw bits, low word first), y0 y1, s (shift amount: low 8 bits less 16),
//     d (a double's bits), n (an int); out: APF_NOUT words (the last ones 0).
#include <ap_fixed.h>

typedef unsigned long long u64;

#define APF_NOUT 700

template <class X> static void put(const X &x, u64 *&o) {
  *o++ = x.range(X::width > 64 ? 63 : X::width - 1, 0).to_uint64();
  if (X::width > 64) *o++ = x.range(X::width - 1, X::width > 64 ? 64 : 0).to_uint64();
}

template <class X> static X from_words(u64 lo, u64 hi) {
  ap_uint<X::width> u = hi;
  u = (u << (X::width > 64 ? 64 : 0)) | ap_uint<X::width>(lo);
  X x;
  x.range(X::width - 1, 0) = u;
  return x;
}

static u64 bits(double d) {
  u64 b;
  __builtin_memcpy(&b, &d, 8);
  return b;
}

static u64 bits(float f) {
  unsigned b;
  __builtin_memcpy(&b, &f, 4);
  return b;
}

// x into ap_fixed<W, I, Q, O> and ap_ufixed<W, I, Q, O> (each overflow mode once)
template <int W, int I, ap_q_mode Q, class X> static void conv_o(const X &x, u64 *&o) {
  put(ap_fixed<W, I, Q, AP_WRAP>(x), o);
  put(ap_fixed<W, I, Q, AP_SAT>(x), o);
  put(ap_fixed<W, I, Q, AP_SAT_SYM>(x), o);
  put(ap_ufixed<W, I, Q, AP_SAT_ZERO>(x), o);
  put(ap_ufixed<W, I, Q, AP_SAT>(x), o);
}

template <int W, int I, class X> static void conv(const X &x, u64 *&o) {
  conv_o<W, I, AP_TRN>(x, o);
  conv_o<W, I, AP_TRN_ZERO>(x, o);
  conv_o<W, I, AP_RND>(x, o);
  conv_o<W, I, AP_RND_ZERO>(x, o);
  conv_o<W, I, AP_RND_INF>(x, o);
  conv_o<W, I, AP_RND_MIN_INF>(x, o);
  conv_o<W, I, AP_RND_CONV>(x, o);
}

// MULDIV: whether a * b and a / b are computed in at most 128 bits (the datapath's
// limit); CONV: what goes into A's format under every quantisation mode (0: a + b, 1: the
// double, 2: a * b)
template <class A, class B, bool MULDIV, int CONV>
static void pair(const u64 *in, u64 *&o) {
  const A a = from_words<A>(in[0], in[1]);
  const B b = from_words<B>(in[2], in[3]);
  const int s = (int)(in[4] & 255) - 16;
  double d;
  __builtin_memcpy(&d, &in[5], 8);
  const int n = (int)in[6];
  put(a + b, o);
  put(a - b, o);
  put(a & b, o);
  put(a | b, o);
  put(b ^ a, o);
  *o++ = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 |
         (a != b) << 5 | (a == 0) << 6 | (a < n) << 7 | (b > -3) << 8 | (a < 0.25) << 9;
  put(-a, o);
  put(~b, o);
  put(a << s, o);
  put(a >> s, o);
  put(b >> (unsigned)(s & 31), o);
  put(a + n, o);
  put(n - b, o);
  if (A::width <= 96) put(a * 3, o);   // (a product of at most 128 bits)
  A t = a;
  t += b;
  put(t, o);
  t = a;
  t++;
  put(t, o);
  t -= 1;
  put(t, o);
  put(A(d), o);
  put(ap_fixed<A::width, A::iwidth, AP_RND_CONV, AP_SAT>(d), o);
  put(A(n), o);
  *o++ = bits(a.to_double());
  *o++ = bits(b.to_float());
  *o++ = (u64)a.to_int64();
  *o++ = (u64)(long long)b.to_int();
  *o++ = (u64)ap_int<12>(a).to_int64();
  *o++ = (u64)(int)a;
  if (CONV == 0) conv<A::width, A::iwidth>(a + b, o);
  if (CONV == 1) conv<A::width, A::iwidth>(d, o);
  if (MULDIV) {
    const auto p = a * b;
    put(p, o);
    if (CONV == 2) conv<A::width, A::iwidth>(p, o);
    B bn = b;
    if (bn == 0) bn[0] = 1;
    const auto q = a / bn;
    put(q, o);
    *o++ = bits(p.to_double());
    t = a;
    t *= b;
    put(t, o);
  }
}

void apfixed_ops(const u64 in[7], u64 out[APF_NOUT]) {
  u64 *o = out;
  pair<ap_fixed<1, 1>, ap_ufixed<1, 0>, true, 0>(in, o);
  pair<ap_fixed<7, 3>, ap_ufixed<9, 5>, true, 1>(in, o);
  pair<ap_fixed<8, 12>, ap_fixed<10, -2>, true, 2>(in, o);
  pair<ap_fixed<17, 9>, ap_fixed<17, 9>, true, 0>(in, o);
  pair<ap_fixed<33, 20>, ap_ufixed<31, 1>, true, 1>(in, o);
  pair<ap_fixed<64, 32>, ap_fixed<64, 32>, true, 2>(in, o);
  pair<ap_fixed<100, 40>, ap_fixed<28, 8>, true, 1>(in, o);
  pair<ap_ufixed<128, 64>, ap_fixed<128, 70>, false, 0>(in, o);
}
