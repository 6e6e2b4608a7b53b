// ap_fixed.h -- pyhls's arbitrary-precision fixed-point numbers for C++ kernels.
//
// pyhls's own header (not a vendor's), written for source compatibility with the
// ap_fixed<W, I, Q, O> / ap_ufixed<W, I, Q, O> of Vitis HLS.  It is built on ap_int.h: a
// fixed-point value is an ap_int_base<W, S> of raw bits V (an ap_int over clang's
// _BitInt(W)) worth V * 2^-(W - I), and every operation below is ap_int.h's integer
// arithmetic on V (its result widths, division, comparisons, shifts and bit access).
// It needs clang (clang++ or zig c++) in C++14 or later (pyhls compiles C++17).
//
// Semantics (those of Vitis HLS):
//  * W total bits, I integer bits, F = W - I fraction bits; I may be above W or negative
//    (F < 0 or F > W).  ap_fixed is signed (two's complement), ap_ufixed unsigned.
//  * A value converted into a fixed type (construction and assignment from another fixed
//    type, an ap_int, a C integer, a double or a float) is quantised to F fraction bits by
//    the type's Q, then fitted to W bits by its O:
//      Q: AP_TRN (default: towards minus infinity), AP_TRN_ZERO (towards zero), and to the
//         nearest with a tie going: AP_RND up, AP_RND_ZERO towards zero, AP_RND_INF away
//         from zero, AP_RND_MIN_INF down, AP_RND_CONV to the even neighbour;
//      O: AP_WRAP (default: the low W bits), AP_SAT (the largest or smallest value),
//         AP_SAT_ZERO (zero), AP_SAT_SYM (the largest value or its negation; as in Vitis,
//         a signed value that lands exactly on the smallest one becomes -max too, and
//         -max of a 1-bit ap_fixed is -1).  AP_WRAP_SM and a nonzero N (saturation bits) are not
//         supported (a compile error).
//  * + - * / & | ^ between two fixed values give Vitis's full-precision result types
//    (ap_fixed_rtype): a * b is <W1 + W2, I1 + I2>, a + b and a - b one integer bit more
//    than the wider integer part and the finer fraction (a - b signed), a / b is
//    <W1 + max(F2, 0) + S2, I1 + F2 + S2> (the quotient of a << max(F2, 0) by b, towards
//    zero, computed in Vitis's width), & | ^ the wider integer part and the finer fraction.
//    The result types use AP_TRN / AP_WRAP; assigning to a narrower type applies its Q and
//    O.  A C integer operand counts as an ap_fixed<w, w> of its width (int: <32, 32>), an
//    ap_int<W> as an ap_fixed<W, W>.  There are no arithmetic operators with double or
//    float operands (nor are there in Vitis); comparisons with them compare to_double().
//  * comparisons compare the exact values; unary - gives <W + 1, I + 1> signed; ~ keeps
//    the type.  << and >> shift the raw bits and keep the type (bits shifted out are lost,
//    no quantisation or saturation; a negative signed amount shifts the other way).
//  * x[i] reads and writes raw bit i; x.range(hi, lo) / x(hi, lo) raw bits hi..lo as an
//    ap_uint<W> (readable and assignable, as in ap_int.h); x.range() all of them.
//  * to_double() and to_float() round to the nearest (ties to even), in the normal range
//    of the format (a value beyond it gives infinity, one below the smallest normal value
//    zero); double and float convert implicitly too.  to_int(), to_uint(), to_long(),
//    to_ulong(), to_int64(), to_uint64() and the implicit integer conversions take the
//    integer part rounded towards zero (as C converts a double), wrapped to the C type;
//    to_ap_int_base() gives it as an ap_int of max(I, 1) bits (0 when I <= 0, where
//    Vitis's is not defined).  An ap_int
//    constructed from an ap_fixed takes its integer part likewise.
//  * a double or float converts exactly as its value would (a NaN gives 0, an infinity
//    overflows): constants fold at compile time (a global table of ap_fixed initialised
//    from doubles is a constant), and a conversion at run time is integer logic on the
//    IEEE bits (its exponent and mantissa), as are to_double() and to_float(), so in a
//    synthesised kernel they need no floating-point unit.
//
// Not here (yet): AP_WRAP_SM, saturation bits N, string constructors and to_string,
// arithmetic with floating-point operands, long double and half.  Synthesis: widths as in
// ap_int.h (a product or quotient whose computation is at most 128 bits wide; the
// conversions between fixed types only shift, add and compare, at any width).

#ifndef PYHLS_AP_FIXED_H
#define PYHLS_AP_FIXED_H

#include "ap_int.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbit-int-extension"

// quantisation and overflow modes (Vitis's names and order)
enum ap_q_mode { AP_RND, AP_RND_ZERO, AP_RND_MIN_INF, AP_RND_INF, AP_RND_CONV, AP_TRN, AP_TRN_ZERO };
enum ap_o_mode { AP_SAT, AP_SAT_ZERO, AP_SAT_SYM, AP_WRAP, AP_WRAP_SM };

template <int W, int I, bool S = true, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>
struct ap_fixed_base;

namespace pyhls_ap {

// the bits of a double or float, and back (constant expressions in clang)
constexpr unsigned long long bits_of(double d) { return __builtin_bit_cast(unsigned long long, d); }
constexpr unsigned long long bits_of(float f) { return __builtin_bit_cast(unsigned, f); }
template <class T> constexpr T float_of(unsigned long long b);
template <> constexpr double float_of<double>(unsigned long long b) {
  return __builtin_bit_cast(double, b);
}
template <> constexpr float float_of<float>(unsigned long long b) {
  return __builtin_bit_cast(float, (unsigned)b);
}
// IEEE formats: mantissa bits, exponent bits
template <class T> struct ieee;
template <> struct ieee<double> { static const int M = 52, E = 11; };
template <> struct ieee<float> { static const int M = 23, E = 8; };

// the index of the highest set bit of a nonzero unsigned value, 64 bits at a time
template <int W>
constexpr int msb(const ap_int_base<W, false> &v) {
  int n = -1;
  for (int lo = 0; lo < W; lo += 64) {
    unsigned long long c = (unsigned long long)v.shr(lo).V_;
    if (c) n = lo + 63 - __builtin_clzll(c);
  }
  return n;
}

}  // namespace pyhls_ap

// result types of the binary operators (the rules of Vitis HLS's ap_fixed)
template <int W1, int I1, bool S1, int W2, int I2, bool S2> struct ap_fixed_rtype {
  static const int F1 = W1 - I1, F2 = W2 - I2;
  static const int F = pyhls_ap::max_(F1, F2);     // the finer fraction
  static const int ext_i = pyhls_ap::max_(I1 + (S2 && !S1), I2 + (S1 && !S2));
  static const int mult_w = W1 + W2, mult_i = I1 + I2;
  static const bool mult_s = S1 || S2;
  static const int plus_i = ext_i + 1, plus_w = plus_i + F;
  static const bool plus_s = S1 || S2;
  static const int minus_i = plus_i, minus_w = plus_w;
  static const bool minus_s = true;
  static const int div_w = S2 + W1 + pyhls_ap::max_(F2, 0), div_i = S2 + I1 + F2;
  static const bool div_s = S1 || S2;
  // where Vitis computes the quotient: the dividend shifted, or the divisor, whichever is
  // wider, one bit more for an unsigned operand against a signed one
  static const int div_calc_w = pyhls_ap::max_(W1 + pyhls_ap::max_(F2, 0) + (S2 && !S1),
                                               W2 + (S1 && !S2));
  static const int logic_i = ext_i, logic_w = logic_i + F;
  static const bool logic_s = S1 || S2;
  typedef ap_fixed_base<mult_w, mult_i, mult_s> mult;
  typedef ap_fixed_base<plus_w, plus_i, plus_s> plus;
  typedef ap_fixed_base<minus_w, minus_i, minus_s> minus;
  typedef ap_fixed_base<div_w, div_i, div_s> div;
  typedef ap_fixed_base<logic_w, logic_i, logic_s> logic;
};

template <int W, int I, bool S, ap_q_mode Q, ap_o_mode O, int N> struct ap_fixed_base {
  static_assert(W >= 1, "ap_fixed width must be at least 1");
  static_assert(O != AP_WRAP_SM, "pyhls's ap_fixed.h does not support AP_WRAP_SM");
  static_assert(N == 0, "pyhls's ap_fixed.h does not support saturation bits (N)");
  static const int width = W, iwidth = I, F = W - I;
  static const bool sign_flag = S;
  static const ap_q_mode qmode = Q;
  static const ap_o_mode omode = O;
  typedef ap_int_base<W, S> Raw;
  typedef void pyhls_fixed_tag;            // ap_int.h's constructor from a fixed value

  Raw V;                                   // the value is V * 2^-F

  static constexpr ap_fixed_base from_raw(const Raw &r) {
    ap_fixed_base x{};
    x.V = r;
    return x;
  }

  // ---------------------------------------------------------------- quantisation, overflow
  // whether to add 1 to the floor of a value whose dropped bits are: qb the highest, r
  // any other one set; neg: the value is negative; lsb: the floor's lowest bit
  static constexpr bool round_up(bool neg, bool lsb, bool qb, bool r) {
    return Q == AP_TRN        ? false
           : Q == AP_TRN_ZERO ? neg && (qb || r)
           : Q == AP_RND      ? qb
           : Q == AP_RND_ZERO ? qb && (neg || r)
           : Q == AP_RND_MIN_INF ? qb && r
           : Q == AP_RND_INF  ? qb && (!neg || r)
                              : qb && (lsb || r);   // AP_RND_CONV
  }

  // the exact integer x (the value in units of 2^-F) fitted to W bits by O; S2: whether
  // the value came from a signed type (AP_SAT_SYM's rule for the smallest value)
  template <bool S2, int XW>
  static constexpr ap_fixed_base fit(const ap_int_base<XW, true> &x) {
    typedef ap_int_base<XW, true> X;
    const Raw wrapped = Raw(x);
    if (O == AP_WRAP) return from_raw(wrapped);
    const X hi = x.shr(W - S);             // 0 (or -1 when signed) when it fits
    const bool fits = hi.V_ == 0 || (S && hi.V_ == -1);
    const Raw maxv = Raw::from_bits(Raw::mask(W - S));
    const Raw minv = S ? Raw(~maxv) : Raw(0);
    const Raw symv = Raw(minv | 1);          // -max (-1 at W = 1, as in Vitis)
    if (fits) {
      if (O == AP_SAT_SYM && S && S2 && wrapped == minv) return from_raw(symv);
      return from_raw(wrapped);
    }
    if (O == AP_SAT_ZERO) return from_raw(Raw(0));
    if (x.V_ >= 0) return from_raw(maxv);
    if (O == AP_SAT_SYM && S) return from_raw(symv);
    return from_raw(minv);
  }

  // the value v * 2^(k - F): shifted left by k >= 0 (exact), or right by -k with the
  // dropped bits quantised by Q; then fitted by O.  k need not be a constant (the
  // conversion from a double), but for the conversions between fixed types it is.
  template <bool S2, int VW>
  static constexpr ap_fixed_base scaled(const ap_int_base<VW, true> &v, int k) {
    typedef ap_int_base<VW + W + 3, true> L;
    typedef ap_int_base<VW + 1, true> R;
    if (k >= 0) {
      if (k > W + 1 && v.V_ != 0)           // beyond any W-bit value, low W bits zero
        return fit<S2>(L(v.V_ < 0 ? -1 : 1).shl(W + 1));
      return fit<S2>(L(v).shl(k));
    }
    const int d = -k;
    const R q = R(v).shr(d);                // the floor
    const bool qb = d - 1 < VW ? v.get_bit(d - 1) : v.V_ < 0;
    const bool r = (v & ap_int_base<VW, false>::from_bits(ap_int_base<VW, true>::mask(d - 1))).V_ != 0;
    const bool inc = round_up(v.V_ < 0, q.get_bit(0), qb, r);
    return fit<S2>(R(q + (int)inc));
  }

  template <int W2, int I2, bool S2>
  static constexpr ap_fixed_base from_fixed(const ap_int_base<W2, S2> &raw) {
    return scaled<S2>(ap_int_base<W2 + 1, true>(raw), F - (W2 - I2));
  }

  // a double or float: sign, exponent and mantissa as an exact fixed-point value
  template <class T> static constexpr ap_fixed_base from_float(T d) {
    const int M = pyhls_ap::ieee<T>::M, E = pyhls_ap::ieee<T>::E;
    const unsigned long long b = pyhls_ap::bits_of(d);
    const int e = (int)((b >> M) & ((1ull << E) - 1));
    unsigned long long m = b & ((1ull << M) - 1);
    const bool neg = (b >> (M + E)) & 1;
    typedef ap_int_base<M + 3, true> MV;
    if (e == (1 << E) - 1) {              // infinity overflows, NaN is 0
      if (m) return from_raw(Raw(0));
      return scaled<true>(MV(neg ? -1 : 1), W + 2);
    }
    if (e) m |= 1ull << M;
    const int exp = (e ? e : 1) - ((1 << (E - 1)) - 1) - M;   // value = m * 2^exp
    const MV mv = MV(m);
    return scaled<true>(neg ? MV(-mv) : mv, exp + F);
  }

  // ---------------------------------------------------------------- construction
  ap_fixed_base() = default;
  template <int W2, int I2, bool S2, ap_q_mode Q2, ap_o_mode O2, int N2>
  constexpr ap_fixed_base(const ap_fixed_base<W2, I2, S2, Q2, O2, N2> &o)
      : ap_fixed_base(from_fixed<W2, I2, S2>(o.V)) {}
  template <int W2, bool S2>
  constexpr ap_fixed_base(const ap_int_base<W2, S2> &o) : ap_fixed_base(from_fixed<W2, W2, S2>(o)) {}
  template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>
  constexpr ap_fixed_base(T x)
      : ap_fixed_base(from_fixed<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::W,
                                 pyhls_ap::c_int<T>::signed_>(
            ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(x))) {}
  constexpr ap_fixed_base(double d) : ap_fixed_base(from_float(d)) {}
  constexpr ap_fixed_base(float f) : ap_fixed_base(from_float(f)) {}
  template <int W2, bool S2>
  ap_fixed_base(const ap_bit_ref<W2, S2> &b) : ap_fixed_base(ap_int_base<1, false>((bool)b)) {}
  template <int W2, bool S2>
  ap_fixed_base(const ap_range_ref<W2, S2> &r) : ap_fixed_base(r.get()) {}

  // ---------------------------------------------------------------- conversions
  // the integer part rounded towards zero, in max(I, 1) bits
  constexpr ap_int_base<pyhls_ap::max_(I, 1), S> to_ap_int_base() const {
    typedef ap_int_base<pyhls_ap::max_(I, 1), S> R;
    typedef ap_int_base<W + 1, true> X;
    if (I <= 0) return R(0);
    if (F <= 0) return R(ap_int_base<pyhls_ap::max_(I, 1) + 1, true>(V).shl(-F));
    const X x(V);
    const bool frac = (V & Raw::from_bits(Raw::mask(F))).V_ != 0;
    return R(X(x.shr(F) + (int)(x.V_ < 0 && frac)));
  }
  constexpr int to_int() const { return to_ap_int_base().to_int(); }
  constexpr unsigned to_uint() const { return to_ap_int_base().to_uint(); }
  constexpr long to_long() const { return to_ap_int_base().to_long(); }
  constexpr unsigned long to_ulong() const { return to_ap_int_base().to_ulong(); }
  constexpr long long to_int64() const { return to_ap_int_base().to_int64(); }
  constexpr unsigned long long to_uint64() const { return to_ap_int_base().to_uint64(); }
  constexpr bool to_bool() const { return V.V_ != 0; }
  constexpr bool is_neg() const { return S && V.V_ < 0; }
  static constexpr int length() { return W; }

  // to a double or float: the nearest (ties to even) in the normal range
  template <class T> constexpr T to_ieee() const {
    const int M = pyhls_ap::ieee<T>::M, E = pyhls_ap::ieee<T>::E;
    const int bias = (1 << (E - 1)) - 1;
    typedef ap_int_base<W + 1, false> U;
    if (V.V_ == 0) return T(0);
    const bool neg = S && V.V_ < 0;
    const U mag = neg ? U(-V) : U(V);
    const int n = pyhls_ap::msb(mag);        // value in [2^(n-F), 2^(n-F+1))
    int e = n - F + bias;
    unsigned long long top = 0;              // M + 1 significant bits
    if (n > M) {
      const int sh = n - M;
      top = (unsigned long long)mag.shr(sh).V_;
      const bool rb = mag.get_bit(sh - 1);
      const bool sticky = (mag & U::from_bits(U::mask(sh - 1))).V_ != 0;
      top += rb && (sticky || (top & 1));
      if (top >> (M + 1)) { top >>= 1; ++e; }
    } else {
      top = (unsigned long long)mag.V_ << (M - n);
    }
    if (e >= (1 << E) - 1)                   // beyond the format: infinity
      return pyhls_ap::float_of<T>(((unsigned long long)neg << (M + E)) |
                                   ((unsigned long long)((1 << E) - 1) << M));
    if (e <= 0)                              // below its normal range: zero
      return pyhls_ap::float_of<T>((unsigned long long)neg << (M + E));
    return pyhls_ap::float_of<T>(((unsigned long long)neg << (M + E)) |
                                 ((unsigned long long)e << M) | (top & ((1ull << M) - 1)));
  }
  constexpr double to_double() const { return to_ieee<double>(); }
  constexpr float to_float() const { return to_ieee<float>(); }

  constexpr operator double() const { return to_double(); }
  constexpr operator float() const { return to_float(); }
  constexpr operator bool() const { return V.V_ != 0; }
  constexpr operator char() const { return (char)to_int(); }
  constexpr operator signed char() const { return (signed char)to_int(); }
  constexpr operator unsigned char() const { return (unsigned char)to_uint(); }
  constexpr operator short() const { return (short)to_int(); }
  constexpr operator unsigned short() const { return (unsigned short)to_uint(); }
  constexpr operator int() const { return to_int(); }
  constexpr operator unsigned() const { return to_uint(); }
  constexpr operator long() const { return to_long(); }
  constexpr operator unsigned long() const { return to_ulong(); }
  constexpr operator long long() const { return to_int64(); }
  constexpr operator unsigned long long() const { return to_uint64(); }

  // ---------------------------------------------------------------- bits (of V)
  ap_bit_ref<W, S> operator[](int i) { return V[i]; }
  constexpr bool operator[](int i) const { return V.get_bit(i); }
  ap_bit_ref<W, S> bit(int i) { return V[i]; }
  constexpr bool bit(int i) const { return V.get_bit(i); }
  constexpr bool get_bit(int i) const { return V.get_bit(i); }
  void set_bit(int i, bool b) { V.set_bit(i, b); }
  ap_range_ref<W, S> range(int hi, int lo) { return V.range(hi, lo); }
  constexpr ap_int_base<W, false> range(int hi, int lo) const { return V.get_range(hi, lo); }
  ap_range_ref<W, S> range() { return V.range(); }
  constexpr ap_int_base<W, false> range() const { return V.get_range(W - 1, 0); }
  ap_range_ref<W, S> operator()(int hi, int lo) { return V.range(hi, lo); }
  constexpr ap_int_base<W, false> operator()(int hi, int lo) const { return V.get_range(hi, lo); }

  // ---------------------------------------------------------------- unary
  constexpr ap_fixed_base<W + 1, I + 1, true> operator-() const {
    return ap_fixed_base<W + 1, I + 1, true>::from_raw(-V);
  }
  constexpr ap_fixed_base operator+() const { return *this; }
  constexpr ap_fixed_base operator~() const { return from_raw(~V); }
  constexpr bool operator!() const { return V.V_ == 0; }

  // ---------------------------------------------------------------- shifts (of V)
  template <class T>
  constexpr typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0), ap_fixed_base>::type
  operator<<(T n) const { return from_raw(V << n); }
  template <class T>
  constexpr typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0), ap_fixed_base>::type
  operator>>(T n) const { return from_raw(V >> n); }
  template <int W2, bool S2> constexpr ap_fixed_base operator<<(const ap_int_base<W2, S2> &n) const {
    return from_raw(V << n);
  }
  template <int W2, bool S2> constexpr ap_fixed_base operator>>(const ap_int_base<W2, S2> &n) const {
    return from_raw(V >> n);
  }

  // ---------------------------------------------------------------- assignments
  template <class X> ap_fixed_base &operator+=(const X &x) { return *this = *this + x; }
  template <class X> ap_fixed_base &operator-=(const X &x) { return *this = *this - x; }
  template <class X> ap_fixed_base &operator*=(const X &x) { return *this = *this * x; }
  template <class X> ap_fixed_base &operator/=(const X &x) { return *this = *this / x; }
  template <class X> ap_fixed_base &operator&=(const X &x) { return *this = *this & x; }
  template <class X> ap_fixed_base &operator|=(const X &x) { return *this = *this | x; }
  template <class X> ap_fixed_base &operator^=(const X &x) { return *this = *this ^ x; }
  template <class X> ap_fixed_base &operator<<=(const X &x) { return *this = *this << x; }
  template <class X> ap_fixed_base &operator>>=(const X &x) { return *this = *this >> x; }
  ap_fixed_base &operator++() { return *this = *this + 1; }
  ap_fixed_base &operator--() { return *this = *this - 1; }
  ap_fixed_base operator++(int) { ap_fixed_base t = *this; ++*this; return t; }
  ap_fixed_base operator--(int) { ap_fixed_base t = *this; --*this; return t; }

  // the raw value aligned to Fa >= F fraction bits, exact
  template <int Fa> constexpr ap_int_base<W + Fa - F, S> aligned() const {
    return ap_int_base<W + Fa - F, S>(V).shl(Fa - F);
  }
};

// ---------------------------------------------------------------- binary operators
#define PYHLS_AF_PARAMS1 int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1
#define PYHLS_AF_PARAMS2 int W2, int I2, bool S2, ap_q_mode Q2, ap_o_mode O2, int N2
#define PYHLS_AF_A const ap_fixed_base<W1, I1, S1, Q1, O1, N1> &a
#define PYHLS_AF_B const ap_fixed_base<W2, I2, S2, Q2, O2, N2> &b
#define PYHLS_AF_RT(KIND) typename ap_fixed_rtype<W1, I1, S1, W2, I2, S2>::KIND

// + - & | ^: both operands aligned to the finer fraction, in the result's raw type
#define PYHLS_AF_ALIGNED(OP, KIND)                                                        \
  template <PYHLS_AF_PARAMS1, PYHLS_AF_PARAMS2>                                           \
  constexpr PYHLS_AF_RT(KIND) operator OP(PYHLS_AF_A, PYHLS_AF_B) {                       \
    typedef PYHLS_AF_RT(KIND) R;                                                          \
    typedef typename R::Raw X;                                                            \
    return R::from_raw(X(X(a.template aligned<R::F>()) OP X(b.template aligned<R::F>()))); \
  }
PYHLS_AF_ALIGNED(+, plus)
PYHLS_AF_ALIGNED(-, minus)
PYHLS_AF_ALIGNED(&, logic)
PYHLS_AF_ALIGNED(|, logic)
PYHLS_AF_ALIGNED(^, logic)
#undef PYHLS_AF_ALIGNED

template <PYHLS_AF_PARAMS1, PYHLS_AF_PARAMS2>
constexpr PYHLS_AF_RT(mult) operator*(PYHLS_AF_A, PYHLS_AF_B) {
  typedef PYHLS_AF_RT(mult) R;
  return R::from_raw(typename R::Raw(a.V * b.V));
}

// the quotient of a << max(F2, 0) by b towards zero, computed (and wrapped) where Vitis
// computes it, then in the result's width
template <PYHLS_AF_PARAMS1, PYHLS_AF_PARAMS2>
constexpr PYHLS_AF_RT(div) operator/(PYHLS_AF_A, PYHLS_AF_B) {
  typedef ap_fixed_rtype<W1, I1, S1, W2, I2, S2> RT;
  typedef typename RT::div R;
  typedef ap_int_base<RT::div_calc_w, S1 || S2> C;
  const int sh = pyhls_ap::max_(RT::F2, 0);
  const C num = C(ap_int_base<RT::div_calc_w, S1>(a.V).shl(sh));
  const C den = C(ap_int_base<RT::div_calc_w, S2>(b.V));
  return R::from_raw(typename R::Raw(C(num / den)));
}

#define PYHLS_AF_CMP(OP)                                                                  \
  template <PYHLS_AF_PARAMS1, PYHLS_AF_PARAMS2>                                           \
  constexpr bool operator OP(PYHLS_AF_A, PYHLS_AF_B) {                                    \
    const int F = ap_fixed_rtype<W1, I1, S1, W2, I2, S2>::F;                              \
    return a.template aligned<F>() OP b.template aligned<F>();                            \
  }
PYHLS_AF_CMP(==)
PYHLS_AF_CMP(!=)
PYHLS_AF_CMP(<)
PYHLS_AF_CMP(<=)
PYHLS_AF_CMP(>)
PYHLS_AF_CMP(>=)
#undef PYHLS_AF_CMP

// an ap_int<W> operand counts as an ap_fixed<W, W>, a C integer as the ap_int of its width
#define PYHLS_AF_MIXED(OP)                                                                \
  template <PYHLS_AF_PARAMS1, int W2, bool S2>                                            \
  constexpr auto operator OP(PYHLS_AF_A, const ap_int_base<W2, S2> &b)                    \
      -> decltype(a OP ap_fixed_base<W2, W2, S2>(b)) {                                    \
    return a OP ap_fixed_base<W2, W2, S2>(b);                                             \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1, int W2, bool S2>                                            \
  constexpr auto operator OP(const ap_int_base<W2, S2> &b, PYHLS_AF_A)                    \
      -> decltype(ap_fixed_base<W2, W2, S2>(b) OP a) {                                    \
    return ap_fixed_base<W2, W2, S2>(b) OP a;                                             \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1, class T,                                                    \
            class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>      \
  constexpr auto operator OP(PYHLS_AF_A, T b)                                             \
      -> decltype(a OP ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b)) { \
    return a OP ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b);        \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1, class T,                                                    \
            class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>      \
  constexpr auto operator OP(T b, PYHLS_AF_A)                                             \
      -> decltype(ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b) OP a) { \
    return ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b) OP a;        \
  }
PYHLS_AF_MIXED(+)
PYHLS_AF_MIXED(-)
PYHLS_AF_MIXED(*)
PYHLS_AF_MIXED(/)
PYHLS_AF_MIXED(&)
PYHLS_AF_MIXED(|)
PYHLS_AF_MIXED(^)
PYHLS_AF_MIXED(==)
PYHLS_AF_MIXED(!=)
PYHLS_AF_MIXED(<)
PYHLS_AF_MIXED(<=)
PYHLS_AF_MIXED(>)
PYHLS_AF_MIXED(>=)
#undef PYHLS_AF_MIXED

// comparisons with a double or float compare to_double()
#define PYHLS_AF_CMP_FLOAT(OP)                                                            \
  template <PYHLS_AF_PARAMS1> constexpr bool operator OP(PYHLS_AF_A, double d) {          \
    return a.to_double() OP d;                                                            \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1> constexpr bool operator OP(double d, PYHLS_AF_A) {          \
    return d OP a.to_double();                                                            \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1> constexpr bool operator OP(PYHLS_AF_A, float d) {           \
    return a.to_double() OP (double)d;                                                    \
  }                                                                                       \
  template <PYHLS_AF_PARAMS1> constexpr bool operator OP(float d, PYHLS_AF_A) {           \
    return (double)d OP a.to_double();                                                    \
  }
PYHLS_AF_CMP_FLOAT(==)
PYHLS_AF_CMP_FLOAT(!=)
PYHLS_AF_CMP_FLOAT(<)
PYHLS_AF_CMP_FLOAT(<=)
PYHLS_AF_CMP_FLOAT(>)
PYHLS_AF_CMP_FLOAT(>=)
#undef PYHLS_AF_CMP_FLOAT

#undef PYHLS_AF_PARAMS1
#undef PYHLS_AF_PARAMS2
#undef PYHLS_AF_A
#undef PYHLS_AF_B
#undef PYHLS_AF_RT

// ---------------------------------------------------------------- the user's types
#define PYHLS_AF_USER(NAME, SIGNED)                                                       \
  template <int W, int I, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>         \
  struct NAME : ap_fixed_base<W, I, SIGNED, Q, O, N> {                                    \
    typedef ap_fixed_base<W, I, SIGNED, Q, O, N> Base;                                    \
    NAME() = default;                                                                     \
    constexpr NAME(const Base &b) : Base(b) {}                                            \
    template <int W2, int I2, bool S2, ap_q_mode Q2, ap_o_mode O2, int N2>                \
    constexpr NAME(const ap_fixed_base<W2, I2, S2, Q2, O2, N2> &o) : Base(o) {}           \
    template <int W2, bool S2> constexpr NAME(const ap_int_base<W2, S2> &o) : Base(o) {}  \
    template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type> \
    constexpr NAME(T x) : Base(x) {}                                                      \
    constexpr NAME(double d) : Base(d) {}                                                 \
    constexpr NAME(float f) : Base(f) {}                                                  \
    template <int W2, bool S2> NAME(const ap_bit_ref<W2, S2> &b) : Base(b) {}             \
    template <int W2, bool S2> NAME(const ap_range_ref<W2, S2> &r) : Base(r) {}           \
  };
PYHLS_AF_USER(ap_fixed, true)
PYHLS_AF_USER(ap_ufixed, false)
#undef PYHLS_AF_USER

#pragma clang diagnostic pop

#endif  // PYHLS_AP_FIXED_H
