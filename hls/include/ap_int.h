// ap_int.h -- pyhls's arbitrary-precision integers for C++ kernels.
//
// pyhls's own header (not a vendor's), written for source compatibility with the
// ap_int<W> / ap_uint<W> of Vitis HLS: a class template over clang's _BitInt(W), so
// every value is exactly W bits in the LLVM IR pyhls synthesises.  pyhls puts this
// directory on the include path of every C++ input (synthesis and the native testbench).
// It needs clang (clang++ or zig c++) in C++11 or later.
//
// Semantics (those of Vitis HLS):
//  * ap_int<W> is a W-bit two's-complement integer, ap_uint<W> a W-bit unsigned one;
//    conversion from any integer or ap_int keeps the low W bits (wraps).
//  * + - * / % & | ^ between two operands give a result wide enough that no information
//    is lost (a + b: one bit more than the wider operand; a * b: W1 + W2 bits; a - b is
//    signed), computed exactly; an operand of a built-in type counts as its width
//    (int: ap_int<32>, unsigned: ap_uint<32>, long long: ap_int<64>, bool: ap_uint<1>).
//    Assigning the result to a narrower ap_int truncates it.
//  * comparisons compare the mathematical values (ap_uint<8>(255) > ap_int<8>(-1)).
//  * << and >> keep the left operand's type; bits shifted out are lost, a shift by W or
//    more gives 0 (>> of a negative ap_int: -1); a negative signed amount shifts the
//    other way.
//  * x[i] reads and writes bit i; x.range(hi, lo) and x(hi, lo) read and write bits
//    hi..lo (hi >= lo), as an ap_uint<W>; (a, b) and a.concat(b) give an ap_uint of
//    W1 + W2 bits, a's bits above b's (read only).
//  * to_int(), to_uint(), to_long(), to_ulong(), to_int64(), to_uint64(), to_bool(),
//    length(); an ap_int converts implicitly to int / unsigned / long long / unsigned
//    long long by its width and signedness (array indices, if, printf through to_int()).
//
// ap_fixed and ap_ufixed are in ap_fixed.h (built on this header); an ap_int constructed
// from one takes its integer part, rounded towards zero.
//
// Not here (yet): string and floating-point constructors, reversed ranges
// (hi < lo), assignment to a concatenation, and reductions (and_reduce, ...).
// Synthesis: every operation at widths 1..64; wider ap_ints in bitwise operations,
// shifts, + - and comparisons, and * / % whose computation is at most 128 bits wide (a
// product of two ap_int<64>, a division of ap_int<64>s; ap_int.h computes / and % one
// bit wider when both are signed, and holds widths above 64 in multiples of 64); a wider
// * / % or an argument wider than 64 bits is a synthesis error (they all run natively,
// in the testbench).

#ifndef PYHLS_AP_INT_H
#define PYHLS_AP_INT_H

#if !defined(__cplusplus)
#error "ap_int.h is a C++ header"
#endif
#if !defined(__clang__)
#error "pyhls's ap_int.h needs clang's _BitInt (clang++ or zig c++)"
#endif

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbit-int-extension"

namespace pyhls_ap {

constexpr int max_(int a, int b) { return a > b ? a : b; }
constexpr int min_(int a, int b) { return a < b ? a : b; }

// the width stored: W, except that a signed _BitInt needs at least 2 bits (ap_int<1>
// keeps its bit sign-extended in two), and that beyond 64 bits it is a multiple of 64:
// an ap_int<65> (the sum of two ap_int<64>) passed by value is then a whole i128, which
// the optimiser takes apart and narrows, where an i65 would stay in memory.  The bits
// above W are always the sign (ap_int) or zero (ap_uint).
constexpr int stored(int W, bool S) { return W > 64 ? (W + 63) / 64 * 64 : (S && W < 2) ? 2 : W; }
template <int W, bool S> struct store { typedef _BitInt(stored(W, S)) T; };
template <int W> struct store<W, false> { typedef unsigned _BitInt(stored(W, false)) T; };

template <bool C, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };

// the built-in integer types, as the ap_int they count as
template <class T> struct c_int {};
#define PYHLS_C_INT(T, S)                                            \
  template <> struct c_int<T> {                                      \
    static const int W = (int)sizeof(T) * 8;                         \
    static const bool signed_ = S;                                   \
  };
PYHLS_C_INT(char, (char)-1 < 0)
PYHLS_C_INT(signed char, true)
PYHLS_C_INT(unsigned char, false)
PYHLS_C_INT(short, true)
PYHLS_C_INT(unsigned short, false)
PYHLS_C_INT(int, true)
PYHLS_C_INT(unsigned int, false)
PYHLS_C_INT(long, true)
PYHLS_C_INT(unsigned long, false)
PYHLS_C_INT(long long, true)
PYHLS_C_INT(unsigned long long, false)
#undef PYHLS_C_INT
template <> struct c_int<bool> {
  static const int W = 1;
  static const bool signed_ = false;
};

// the C type an ap_int converts to implicitly
template <bool S, bool Wide> struct c_type_w;
template <> struct c_type_w<true, false> { typedef int T; };
template <> struct c_type_w<false, false> { typedef unsigned int T; };
template <> struct c_type_w<true, true> { typedef long long T; };
template <> struct c_type_w<false, true> { typedef unsigned long long T; };

}  // namespace pyhls_ap

template <int W, bool S> struct ap_int_base;
template <int W> struct ap_int;
template <int W> struct ap_uint;
template <int W, bool S> struct ap_bit_ref;
template <int W, bool S> struct ap_range_ref;

// result widths of the binary operators (the rules of Vitis HLS's ap_int)
template <int W1, bool S1, int W2, bool S2> struct ap_rtype {
  static const int plus_w = pyhls_ap::max_(W1 + (S2 && !S1), W2 + (S1 && !S2)) + 1;
  static const bool plus_s = S1 || S2;
  static const int minus_w = plus_w;
  static const bool minus_s = true;
  static const int mult_w = W1 + W2;
  static const bool mult_s = S1 || S2;
  static const int div_w = W1 + S2;
  static const bool div_s = S1 || S2;
  static const int mod_w = pyhls_ap::min_(W1, W2 + (!S2 && S1));
  static const bool mod_s = S1;
  static const int logic_w = pyhls_ap::max_(W1 + (S2 && !S1), W2 + (S1 && !S2));
  static const bool logic_s = S1 || S2;
  // where comparisons are computed: both operands exactly (one bit more than the wider
  // only when the signedness differs), and / and % (one more when both are signed: the
  // quotient of the most negative value by -1)
  static const bool cmp_s = S1 || S2;
  static const int cmp_w = S1 == S2 ? pyhls_ap::max_(W1, W2) : pyhls_ap::max_(W1 + !S1, W2 + !S2);
  static const int dcalc_w = cmp_w + (S1 && S2);
  typedef ap_int_base<plus_w, plus_s> plus;
  typedef ap_int_base<minus_w, minus_s> minus;
  typedef ap_int_base<mult_w, mult_s> mult;
  typedef ap_int_base<div_w, div_s> div;
  typedef ap_int_base<mod_w, mod_s> mod;
  typedef ap_int_base<logic_w, logic_s> logic;
  typedef ap_int_base<cmp_w, cmp_s> cmp;
  typedef ap_int_base<dcalc_w, cmp_s> dcalc;
};

template <int W, bool S> struct ap_int_base {
  static_assert(W >= 1, "ap_int width must be at least 1");
  static const int width = W;
  static const bool sign_flag = S;
  static const int SW = pyhls_ap::stored(W, S);      // the width stored
  typedef typename pyhls_ap::store<W, S>::T V;
  typedef unsigned _BitInt(SW) U;
  typedef typename pyhls_ap::c_type_w<S, (W > 32)>::T C;

  V V_;

  // a bit pattern (its low W bits) as the value, extended to the width stored
  static constexpr V wrap(U u) {
    return SW == W ? (V)u
           : S     ? (V)((V)(U)(u << (SW - W)) >> (SW - W))
                   : (V)(u & (U)(((U)1 << W) - 1));
  }

  // ---------------------------------------------------------------- construction
  ap_int_base() = default;
  template <int W2, bool S2>
  constexpr ap_int_base(const ap_int_base<W2, S2> &o) : V_(wrap((U)o.V_)) {}
  template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>
  constexpr ap_int_base(T x) : V_(wrap((U)x)) {}
  template <int W2, bool S2>
  ap_int_base(const ap_bit_ref<W2, S2> &b) : V_(wrap((U)(bool)b)) {}
  template <int W2, bool S2>
  ap_int_base(const ap_range_ref<W2, S2> &r) : V_(wrap((U)r.get().V_)) {}
  // an ap_fixed (ap_fixed.h): its integer part, rounded towards zero
  template <class T>
  constexpr ap_int_base(const T &f, typename T::pyhls_fixed_tag * = 0)
      : V_(wrap((U)f.to_ap_int_base().V_)) {}

  struct bits_tag {};
  constexpr ap_int_base(bits_tag, U u) : V_(wrap(u)) {}
  static constexpr ap_int_base from_bits(U u) { return ap_int_base(bits_tag(), u); }

  // ---------------------------------------------------------------- conversions
  constexpr operator C() const { return (C)V_; }
  constexpr int to_int() const { return (int)V_; }
  constexpr unsigned to_uint() const { return (unsigned)V_; }
  constexpr long to_long() const { return (long)V_; }
  constexpr unsigned long to_ulong() const { return (unsigned long)V_; }
  constexpr long long to_int64() const { return (long long)V_; }
  constexpr unsigned long long to_uint64() const { return (unsigned long long)V_; }
  constexpr bool to_bool() const { return V_ != 0; }
  static constexpr int length() { return W; }

  // ---------------------------------------------------------------- bits
  static constexpr U mask(int n) { return n >= SW ? (U)~(U)0 : (U)(((U)1 << n) - 1); }
  constexpr bool get_bit(int i) const { return ((U)V_ >> i) & 1; }
  void set_bit(int i, bool b) {
    U u = (U)V_, m = (U)((U)1 << i);
    V_ = wrap(b ? (U)(u | m) : (U)(u & (U)~m));
  }
  constexpr ap_int_base<W, false> get_range(int hi, int lo) const {
    return ap_int_base<W, false>::from_bits(
        (typename ap_int_base<W, false>::U)(((U)V_ >> lo) & mask(hi - lo + 1)));
  }
  template <int W2, bool S2> void set_range(int hi, int lo, const ap_int_base<W2, S2> &v) {
    U m = (U)(mask(hi - lo + 1) << lo);
    U u = (U)((U)V_ & (U)~m);
    V_ = wrap((U)(u | (U)(((U)ap_int_base(v).V_ << lo) & m)));
  }
  ap_bit_ref<W, S> operator[](int i) { return ap_bit_ref<W, S>(*this, i); }
  constexpr bool operator[](int i) const { return get_bit(i); }
  ap_bit_ref<W, S> bit(int i) { return ap_bit_ref<W, S>(*this, i); }
  constexpr bool bit(int i) const { return get_bit(i); }
  ap_range_ref<W, S> range(int hi, int lo) { return ap_range_ref<W, S>(*this, hi, lo); }
  constexpr ap_int_base<W, false> range(int hi, int lo) const { return get_range(hi, lo); }
  ap_range_ref<W, S> range() { return ap_range_ref<W, S>(*this, W - 1, 0); }
  ap_range_ref<W, S> operator()(int hi, int lo) { return range(hi, lo); }
  constexpr ap_int_base<W, false> operator()(int hi, int lo) const { return get_range(hi, lo); }
  template <int W2, bool S2>
  constexpr ap_int_base<W + W2, false> concat(const ap_int_base<W2, S2> &b) const {
    typedef typename ap_int_base<W + W2, false>::U R;
    typedef typename ap_int_base<W2, S2>::U U2;
    return ap_int_base<W + W2, false>::from_bits(
        (R)(((R)(U)V_ << W2) | (R)((U2)b.V_ & ap_int_base<W2, S2>::mask(W2))));
  }

  // ---------------------------------------------------------------- unary
  constexpr ap_int_base<W + 1, true> operator-() const {
    return ap_int_base<W + 1, true>::from_bits(
        (typename ap_int_base<W + 1, true>::U)(-(typename ap_int_base<W + 1, true>::V)V_));
  }
  constexpr ap_int_base operator+() const { return *this; }
  constexpr ap_int_base operator~() const { return from_bits((U)~(U)V_); }
  constexpr bool operator!() const { return V_ == 0; }

  // ---------------------------------------------------------------- shifts
  constexpr ap_int_base shl(unsigned long long n) const {
    return n >= (unsigned long long)W ? from_bits(0) : from_bits((U)((U)V_ << n));
  }
  constexpr ap_int_base shr(unsigned long long n) const {
    return n >= (unsigned long long)W ? from_bits(S && V_ < 0 ? (U)~(U)0 : (U)0)
                                      : from_bits((U)(V_ >> n));
  }
  template <class T>
  constexpr typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0), ap_int_base>::type
  operator<<(T n) const {
    return pyhls_ap::c_int<T>::signed_ && n < 0 ? shr(0ull - (unsigned long long)n)
                                                : shl((unsigned long long)n);
  }
  template <class T>
  constexpr typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0), ap_int_base>::type
  operator>>(T n) const {
    return pyhls_ap::c_int<T>::signed_ && n < 0 ? shl(0ull - (unsigned long long)n)
                                                : shr((unsigned long long)n);
  }
  template <int W2, bool S2> constexpr ap_int_base operator<<(const ap_int_base<W2, S2> &n) const {
    return S2 && n.V_ < 0 ? shr(0ull - (unsigned long long)n.V_) : shl((unsigned long long)n.V_);
  }
  template <int W2, bool S2> constexpr ap_int_base operator>>(const ap_int_base<W2, S2> &n) const {
    return S2 && n.V_ < 0 ? shl(0ull - (unsigned long long)n.V_) : shr((unsigned long long)n.V_);
  }

  // ---------------------------------------------------------------- assignments
  template <class X> ap_int_base &operator+=(const X &x) { return *this = *this + x; }
  template <class X> ap_int_base &operator-=(const X &x) { return *this = *this - x; }
  template <class X> ap_int_base &operator*=(const X &x) { return *this = *this * x; }
  template <class X> ap_int_base &operator/=(const X &x) { return *this = *this / x; }
  template <class X> ap_int_base &operator%=(const X &x) { return *this = *this % x; }
  template <class X> ap_int_base &operator&=(const X &x) { return *this = *this & x; }
  template <class X> ap_int_base &operator|=(const X &x) { return *this = *this | x; }
  template <class X> ap_int_base &operator^=(const X &x) { return *this = *this ^ x; }
  template <class X> ap_int_base &operator<<=(const X &x) { return *this = *this << x; }
  template <class X> ap_int_base &operator>>=(const X &x) { return *this = *this >> x; }
  ap_int_base &operator++() { return *this = *this + 1; }
  ap_int_base &operator--() { return *this = *this - 1; }
  ap_int_base operator++(int) { ap_int_base t = *this; ++*this; return t; }
  ap_int_base operator--(int) { ap_int_base t = *this; --*this; return t; }
};

// a bit of an ap_int, readable and assignable: x[i] = 1
template <int W, bool S> struct ap_bit_ref {
  ap_int_base<W, S> &d;
  int i;
  ap_bit_ref(ap_int_base<W, S> &d_, int i_) : d(d_), i(i_) {}
  operator bool() const { return d.get_bit(i); }
  bool to_bool() const { return d.get_bit(i); }
  ap_bit_ref &operator=(bool b) { d.set_bit(i, b); return *this; }
  ap_bit_ref &operator=(const ap_bit_ref &o) { d.set_bit(i, (bool)o); return *this; }
  template <int W2, bool S2> ap_bit_ref &operator=(const ap_int_base<W2, S2> &v) {
    d.set_bit(i, v.V_ & 1);
    return *this;
  }
  bool operator~() const { return !d.get_bit(i); }
  ap_int_base<1, false> get() const { return ap_int_base<1, false>((bool)*this); }
};

// bits hi..lo of an ap_int, readable (an ap_uint<W>) and assignable: x(7, 4) = 0xA
template <int W, bool S> struct ap_range_ref {
  ap_int_base<W, S> &d;
  int hi, lo;
  ap_range_ref(ap_int_base<W, S> &d_, int hi_, int lo_) : d(d_), hi(hi_), lo(lo_) {}
  ap_int_base<W, false> get() const { return d.get_range(hi, lo); }
  operator ap_int_base<W, false>() const { return get(); }
  operator typename ap_int_base<W, false>::C() const { return (typename ap_int_base<W, false>::C)get(); }
  template <int W2, bool S2> ap_range_ref &operator=(const ap_int_base<W2, S2> &v) {
    d.set_range(hi, lo, v);
    return *this;
  }
  template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>
  ap_range_ref &operator=(T v) {
    d.set_range(hi, lo, ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(v));
    return *this;
  }
  ap_range_ref &operator=(const ap_range_ref &o) { d.set_range(hi, lo, o.get()); return *this; }
  int length() const { return hi - lo + 1; }
  int to_int() const { return get().to_int(); }
  unsigned to_uint() const { return get().to_uint(); }
  long to_long() const { return get().to_long(); }
  unsigned long long to_uint64() const { return get().to_uint64(); }
  long long to_int64() const { return get().to_int64(); }
};

// ---------------------------------------------------------------- binary operators
#define PYHLS_AP_ARITH(OP, KIND)                                                          \
  template <int W1, bool S1, int W2, bool S2>                                             \
  constexpr typename ap_rtype<W1, S1, W2, S2>::KIND operator OP(                          \
      const ap_int_base<W1, S1> &a, const ap_int_base<W2, S2> &b) {                       \
    typedef typename ap_rtype<W1, S1, W2, S2>::KIND R;                                    \
    return R::from_bits((typename R::U)(R(a).V_ OP R(b).V_));                              \
  }
PYHLS_AP_ARITH(+, plus)
PYHLS_AP_ARITH(-, minus)
PYHLS_AP_ARITH(*, mult)
PYHLS_AP_ARITH(&, logic)
PYHLS_AP_ARITH(|, logic)
PYHLS_AP_ARITH(^, logic)
#undef PYHLS_AP_ARITH

// / and %: computed where both operands are exact, then kept in the result's width
#define PYHLS_AP_DIV(OP, KIND)                                                            \
  template <int W1, bool S1, int W2, bool S2>                                             \
  constexpr typename ap_rtype<W1, S1, W2, S2>::KIND operator OP(                          \
      const ap_int_base<W1, S1> &a, const ap_int_base<W2, S2> &b) {                       \
    typedef typename ap_rtype<W1, S1, W2, S2>::KIND R;                                    \
    typedef typename ap_rtype<W1, S1, W2, S2>::dcalc X;                                   \
    return R::from_bits((typename R::U)(typename X::U)(X(a).V_ OP X(b).V_));               \
  }
PYHLS_AP_DIV(/, div)
PYHLS_AP_DIV(%, mod)
#undef PYHLS_AP_DIV

#define PYHLS_AP_CMP(OP)                                                                  \
  template <int W1, bool S1, int W2, bool S2>                                             \
  constexpr bool operator OP(const ap_int_base<W1, S1> &a, const ap_int_base<W2, S2> &b) { \
    typedef typename ap_rtype<W1, S1, W2, S2>::cmp X;                                     \
    return X(a).V_ OP X(b).V_;                                                            \
  }
PYHLS_AP_CMP(==)
PYHLS_AP_CMP(!=)
PYHLS_AP_CMP(<)
PYHLS_AP_CMP(<=)
PYHLS_AP_CMP(>)
PYHLS_AP_CMP(>=)
#undef PYHLS_AP_CMP

// an operand of a built-in integer type counts as the ap_int of its width
#define PYHLS_AP_MIXED(OP)                                                                \
  template <int W, bool S, class T>                                                       \
  constexpr auto operator OP(const ap_int_base<W, S> &a, T b)                             \
      -> decltype(a OP ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b)) { \
    return a OP ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(b);        \
  }                                                                                       \
  template <int W, bool S, class T>                                                       \
  constexpr auto operator OP(T a, const ap_int_base<W, S> &b)                             \
      -> decltype(ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(a) OP b) { \
    return ap_int_base<pyhls_ap::c_int<T>::W, pyhls_ap::c_int<T>::signed_>(a) OP b;        \
  }
PYHLS_AP_MIXED(+)
PYHLS_AP_MIXED(-)
PYHLS_AP_MIXED(*)
PYHLS_AP_MIXED(/)
PYHLS_AP_MIXED(%)
PYHLS_AP_MIXED(&)
PYHLS_AP_MIXED(|)
PYHLS_AP_MIXED(^)
PYHLS_AP_MIXED(==)
PYHLS_AP_MIXED(!=)
PYHLS_AP_MIXED(<)
PYHLS_AP_MIXED(<=)
PYHLS_AP_MIXED(>)
PYHLS_AP_MIXED(>=)
#undef PYHLS_AP_MIXED

// concatenation: (a, b) is a.concat(b); bits and ranges take part as ap_uints
template <int W1, bool S1, int W2, bool S2>
constexpr ap_int_base<W1 + W2, false> operator,(const ap_int_base<W1, S1> &a,
                                                const ap_int_base<W2, S2> &b) {
  return a.concat(b);
}
template <int W1, bool S1, int W2, bool S2>
ap_int_base<W1 + 1, false> operator,(const ap_int_base<W1, S1> &a, const ap_bit_ref<W2, S2> &b) {
  return a.concat(b.get());
}
template <int W1, bool S1, int W2, bool S2>
ap_int_base<1 + W2, false> operator,(const ap_bit_ref<W1, S1> &a, const ap_int_base<W2, S2> &b) {
  return a.get().concat(b);
}
template <int W1, bool S1, int W2, bool S2>
ap_int_base<W1 + W2, false> operator,(const ap_int_base<W1, S1> &a, const ap_range_ref<W2, S2> &b) {
  return a.concat(b.get());
}
template <int W1, bool S1, int W2, bool S2>
ap_int_base<W1 + W2, false> operator,(const ap_range_ref<W1, S1> &a, const ap_int_base<W2, S2> &b) {
  return a.get().concat(b);
}

// ---------------------------------------------------------------- the user's types
template <int W> struct ap_int : ap_int_base<W, true> {
  typedef ap_int_base<W, true> Base;
  ap_int() = default;
  constexpr ap_int(const Base &b) : Base(b) {}
  template <int W2, bool S2> constexpr ap_int(const ap_int_base<W2, S2> &o) : Base(o) {}
  template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>
  constexpr ap_int(T x) : Base(x) {}
  template <int W2, bool S2> ap_int(const ap_bit_ref<W2, S2> &b) : Base(b) {}
  template <int W2, bool S2> ap_int(const ap_range_ref<W2, S2> &r) : Base(r) {}
  template <class T>
  constexpr ap_int(const T &f, typename T::pyhls_fixed_tag * = 0) : Base(f) {}
};

template <int W> struct ap_uint : ap_int_base<W, false> {
  typedef ap_int_base<W, false> Base;
  ap_uint() = default;
  constexpr ap_uint(const Base &b) : Base(b) {}
  template <int W2, bool S2> constexpr ap_uint(const ap_int_base<W2, S2> &o) : Base(o) {}
  template <class T, class = typename pyhls_ap::enable_if<(pyhls_ap::c_int<T>::W > 0)>::type>
  constexpr ap_uint(T x) : Base(x) {}
  template <int W2, bool S2> ap_uint(const ap_bit_ref<W2, S2> &b) : Base(b) {}
  template <int W2, bool S2> ap_uint(const ap_range_ref<W2, S2> &r) : Base(r) {}
  template <class T>
  constexpr ap_uint(const T &f, typename T::pyhls_fixed_tag * = 0) : Base(f) {}
};

#pragma clang diagnostic pop

#endif  // PYHLS_AP_INT_H
