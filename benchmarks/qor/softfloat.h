/* softfloat.h: IEEE-754 binary64 add, multiply, divide, conversion and comparison in
   64-bit integer arithmetic only (round to nearest even, SoftFloat-style), shared by the
   CHStone-style programs ch_dfadd, ch_dfmul, ch_dfdiv and ch_dfsin.  Every function is
   static: a program keeps only those it calls. */
#ifndef QOR_SOFTFLOAT_H
#define QOR_SOFTFLOAT_H

/* a program calls only some of these */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

/* ---- soft-float core: IEEE-754 binary64 on 64-bit integers only ---- */
typedef unsigned long long u64;
typedef unsigned int u32;

#define F64_DEFAULT_NAN 0xFFF8000000000000ULL /* x86 "real indefinite" */
#define SIG_MASK 0x000FFFFFFFFFFFFFULL
#define HIDDEN 0x0010000000000000ULL

static u64 frac_of(u64 a) { return a & SIG_MASK; }
static int exp_of(u64 a) { return (int)((a >> 52) & 0x7FF); }
static int sign_of(u64 a) { return (int)(a >> 63); }

/* sign, exponent and significand are added (not or-ed) so that a significand carry
   rounds up into the exponent */
static u64 pack(int sign, int exp, u64 sig)
{
    return ((u64)sign << 63) + ((u64)exp << 52) + sig;
}

static int is_nan(u64 a) { return exp_of(a) == 0x7FF && frac_of(a) != 0; }

/* SSE rule: the first NaN operand, made quiet */
static u64 propagate_nan(u64 a, u64 b)
{
    if (is_nan(a))
        return a | 0x0008000000000000ULL;
    return b | 0x0008000000000000ULL;
}

/* shift right, or-ing every bit shifted out into the lowest bit (sticky) */
static u64 shift_right_jam(u64 a, int count)
{
    if (count == 0)
        return a;
    if (count < 64)
        return (a >> count) | (u64)((a << ((-count) & 63)) != 0);
    return (u64)(a != 0);
}

static int clz64(u64 a)
{
    int n = 0;
    if (a == 0)
        return 64;
    if ((a >> 32) == 0) { n += 32; a <<= 32; }
    if ((a >> 48) == 0) { n += 16; a <<= 16; }
    if ((a >> 56) == 0) { n += 8; a <<= 8; }
    if ((a >> 60) == 0) { n += 4; a <<= 4; }
    if ((a >> 62) == 0) { n += 2; a <<= 2; }
    if ((a >> 63) == 0) { n += 1; }
    return n;
}

/* zSig: integer bit at bit 62, ten rounding bits below bit 10; round to nearest even */
static u64 round_and_pack(int sign, int exp, u64 sig)
{
    int round_bits = (int)(sig & 0x3FF);
    if ((unsigned)exp >= 0x7FD) {
        if (exp > 0x7FD) /* overflow */
            return pack(sign, 0x7FF, 0);
        if (exp == 0x7FD && (sig + 0x200) >> 63)
            return pack(sign, 0x7FF, 0);
        if (exp < 0) { /* tiny: denormalise */
            sig = shift_right_jam(sig, -exp);
            exp = 0;
            round_bits = (int)(sig & 0x3FF);
        }
    }
    sig = (sig + 0x200) >> 10;
    if (round_bits == 0x200)
        sig &= ~(u64)1; /* tie: to even */
    if (sig == 0)
        exp = 0;
    return pack(sign, exp, sig);
}

/* ---- shared by multiplication and division ---- */
/* 64 x 64 -> 128 from four 32 x 32 products */
static void mul64_to_128(u64 a, u64 b, u64 *hi, u64 *lo)
{
    u64 a_hi = a >> 32, a_lo = a & 0xFFFFFFFFULL;
    u64 b_hi = b >> 32, b_lo = b & 0xFFFFFFFFULL;
    u64 z1 = a_lo * b_lo;
    u64 mid_a = a_lo * b_hi, mid_b = a_hi * b_lo;
    u64 z0 = a_hi * b_hi;
    mid_a += mid_b;
    z0 += ((u64)(mid_a < mid_b) << 32) + (mid_a >> 32);
    mid_a <<= 32;
    z1 += mid_a;
    z0 += (u64)(z1 < mid_a);
    *hi = z0;
    *lo = z1;
}

/* subnormal significand -> normalised significand (hidden bit at 52) and exponent */
static u64 normalize_subnormal(u64 sig, int *exp)
{
    int shift = clz64(sig) - 11;
    *exp = 1 - shift;
    return sig << shift;
}

/* ---- addition ---- */
static u64 normalize_round_and_pack(int sign, int exp, u64 sig)
{
    int shift = clz64(sig) - 1;
    return round_and_pack(sign, exp - shift, sig << shift);
}

static u64 add_sigs(u64 a, u64 b, int sign)
{
    int a_exp = exp_of(a), b_exp = exp_of(b);
    u64 a_sig = frac_of(a) << 9, b_sig = frac_of(b) << 9, z_sig;
    int exp_diff = a_exp - b_exp, z_exp;
    if (exp_diff > 0) {
        if (a_exp == 0x7FF)
            return a_sig ? propagate_nan(a, b) : a;
        if (b_exp == 0)
            --exp_diff;
        else
            b_sig |= 0x2000000000000000ULL;
        b_sig = shift_right_jam(b_sig, exp_diff);
        z_exp = a_exp;
    } else if (exp_diff < 0) {
        if (b_exp == 0x7FF)
            return b_sig ? propagate_nan(a, b) : pack(sign, 0x7FF, 0);
        if (a_exp == 0)
            ++exp_diff;
        else
            a_sig |= 0x2000000000000000ULL;
        a_sig = shift_right_jam(a_sig, -exp_diff);
        z_exp = b_exp;
    } else {
        if (a_exp == 0x7FF)
            return (a_sig | b_sig) ? propagate_nan(a, b) : a;
        if (a_exp == 0)
            return pack(sign, 0, (a_sig + b_sig) >> 9);
        z_sig = 0x4000000000000000ULL + a_sig + b_sig;
        return round_and_pack(sign, a_exp, z_sig);
    }
    a_sig |= 0x2000000000000000ULL;
    z_sig = (a_sig + b_sig) << 1;
    --z_exp;
    if (z_sig >> 63) {
        z_sig = a_sig + b_sig;
        ++z_exp;
    }
    return round_and_pack(sign, z_exp, z_sig);
}

static u64 sub_sigs(u64 a, u64 b, int sign)
{
    int a_exp = exp_of(a), b_exp = exp_of(b);
    u64 a_sig = frac_of(a) << 10, b_sig = frac_of(b) << 10, z_sig;
    int exp_diff = a_exp - b_exp, z_exp;
    int b_bigger;
    if (exp_diff > 0) {
        if (a_exp == 0x7FF)
            return a_sig ? propagate_nan(a, b) : a;
        if (b_exp == 0)
            --exp_diff;
        else
            b_sig |= 0x4000000000000000ULL;
        b_sig = shift_right_jam(b_sig, exp_diff);
        a_sig |= 0x4000000000000000ULL;
        b_bigger = 0;
    } else if (exp_diff < 0) {
        if (b_exp == 0x7FF)
            return b_sig ? propagate_nan(a, b) : pack(sign ^ 1, 0x7FF, 0);
        if (a_exp == 0)
            ++exp_diff;
        else
            a_sig |= 0x4000000000000000ULL;
        a_sig = shift_right_jam(a_sig, -exp_diff);
        b_sig |= 0x4000000000000000ULL;
        b_bigger = 1;
    } else {
        if (a_exp == 0x7FF)
            return (a_sig | b_sig) ? propagate_nan(a, b) : F64_DEFAULT_NAN;
        if (a_exp == 0) {
            a_exp = 1;
            b_exp = 1;
        }
        if (a_sig == b_sig)
            return pack(0, 0, 0); /* exact zero: +0 when rounding to nearest */
        b_bigger = a_sig < b_sig;
    }
    if (b_bigger) {
        z_sig = b_sig - a_sig;
        z_exp = b_exp;
        sign ^= 1;
    } else {
        z_sig = a_sig - b_sig;
        z_exp = a_exp;
    }
    return normalize_round_and_pack(sign, z_exp - 1, z_sig);
}

static u64 f64_add(u64 a, u64 b)
{
    int a_sign = sign_of(a), b_sign = sign_of(b);
    if (a_sign == b_sign)
        return add_sigs(a, b, a_sign);
    return sub_sigs(a, b, a_sign);
}

/* ---- multiplication ---- */
static u64 f64_mul(u64 a, u64 b)
{
    int a_exp = exp_of(a), b_exp = exp_of(b), z_exp;
    u64 a_sig = frac_of(a), b_sig = frac_of(b), z0, z1;
    int sign = sign_of(a) ^ sign_of(b);
    if (a_exp == 0x7FF) {
        if (a_sig || (b_exp == 0x7FF && b_sig))
            return propagate_nan(a, b);
        if ((b_exp | (int)(b_sig != 0)) == 0)
            return F64_DEFAULT_NAN; /* inf * 0 */
        return pack(sign, 0x7FF, 0);
    }
    if (b_exp == 0x7FF) {
        if (b_sig)
            return propagate_nan(a, b);
        if ((a_exp | (int)(a_sig != 0)) == 0)
            return F64_DEFAULT_NAN; /* 0 * inf */
        return pack(sign, 0x7FF, 0);
    }
    if (a_exp == 0) {
        if (a_sig == 0)
            return pack(sign, 0, 0);
        a_sig = normalize_subnormal(a_sig, &a_exp);
    }
    if (b_exp == 0) {
        if (b_sig == 0)
            return pack(sign, 0, 0);
        b_sig = normalize_subnormal(b_sig, &b_exp);
    }
    z_exp = a_exp + b_exp - 0x3FF;
    a_sig = (a_sig | HIDDEN) << 10;
    b_sig = (b_sig | HIDDEN) << 11;
    mul64_to_128(a_sig, b_sig, &z0, &z1);
    z0 |= (u64)(z1 != 0);
    if (((z0 << 1) >> 63) == 0) {
        z0 <<= 1;
        --z_exp;
    }
    return round_and_pack(sign, z_exp, z0);
}

/* ---- division ---- */
static void sub128(u64 a0, u64 a1, u64 b0, u64 b1, u64 *z0, u64 *z1)
{
    *z1 = a1 - b1;
    *z0 = a0 - b0 - (u64)(a1 < b1);
}

static void add128(u64 a0, u64 a1, u64 b0, u64 b1, u64 *z0, u64 *z1)
{
    u64 lo = a1 + b1;
    *z1 = lo;
    *z0 = a0 + b0 + (u64)(lo < a1);
}

/* an estimate of floor((a0:a1) / b), b normalised (bit 63 set), at most 2 too large */
static u64 estimate_div128_to_64(u64 a0, u64 a1, u64 b)
{
    u64 b0, b1, rem0, rem1, term0, term1, z;
    if (b <= a0)
        return 0xFFFFFFFFFFFFFFFFULL;
    b0 = b >> 32;
    z = (b0 << 32 <= a0) ? 0xFFFFFFFF00000000ULL : (a0 / b0) << 32;
    mul64_to_128(b, z, &term0, &term1);
    sub128(a0, a1, term0, term1, &rem0, &rem1);
    while (rem0 >> 63) {
        z -= 0x100000000ULL;
        b1 = b << 32;
        add128(rem0, rem1, b0, b1, &rem0, &rem1);
    }
    rem0 = (rem0 << 32) | (rem1 >> 32);
    z |= (b0 << 32 <= rem0) ? 0xFFFFFFFFULL : rem0 / b0;
    return z;
}

static u64 f64_div(u64 a, u64 b)
{
    int a_exp = exp_of(a), b_exp = exp_of(b), z_exp;
    u64 a_sig = frac_of(a), b_sig = frac_of(b), z_sig;
    u64 rem0, rem1, term0, term1;
    int sign = sign_of(a) ^ sign_of(b);
    if (a_exp == 0x7FF) {
        if (a_sig)
            return propagate_nan(a, b);
        if (b_exp == 0x7FF)
            return b_sig ? propagate_nan(a, b) : F64_DEFAULT_NAN; /* inf / inf */
        return pack(sign, 0x7FF, 0);
    }
    if (b_exp == 0x7FF)
        return b_sig ? propagate_nan(a, b) : pack(sign, 0, 0);
    if (b_exp == 0) {
        if (b_sig == 0) {
            if ((a_exp | (int)(a_sig != 0)) == 0)
                return F64_DEFAULT_NAN; /* 0 / 0 */
            return pack(sign, 0x7FF, 0); /* x / 0 */
        }
        b_sig = normalize_subnormal(b_sig, &b_exp);
    }
    if (a_exp == 0) {
        if (a_sig == 0)
            return pack(sign, 0, 0);
        a_sig = normalize_subnormal(a_sig, &a_exp);
    }
    z_exp = a_exp - b_exp + 0x3FD;
    a_sig = (a_sig | HIDDEN) << 10;
    b_sig = (b_sig | HIDDEN) << 11;
    if (b_sig <= a_sig + a_sig) {
        a_sig >>= 1;
        ++z_exp;
    }
    z_sig = estimate_div128_to_64(a_sig, 0, b_sig);
    if ((z_sig & 0x1FF) <= 2) {
        mul64_to_128(b_sig, z_sig, &term0, &term1);
        sub128(a_sig, 0, term0, term1, &rem0, &rem1);
        while (rem0 >> 63) {
            --z_sig;
            add128(rem0, rem1, 0, b_sig, &rem0, &rem1);
        }
        z_sig |= (u64)(rem1 != 0);
    }
    return round_and_pack(sign, z_exp, z_sig);
}

/* ---- conversion and comparison ---- */
static u64 f64_neg(u64 a) { return a ^ 0x8000000000000000ULL; }
static u64 f64_abs(u64 a) { return a & 0x7FFFFFFFFFFFFFFFULL; }

static u64 i32_to_f64(int a)
{
    int sign = a < 0, shift;
    u64 mag;
    if (a == 0)
        return 0;
    mag = sign ? (u64)(0u - (u32)a) : (u64)(u32)a;
    shift = clz64(mag) - 11;
    return pack(sign, 0x432 - shift, mag << shift);
}

/* a <= b for operands that are not NaN */
static int f64_le(u64 a, u64 b)
{
    int a_sign = sign_of(a), b_sign = sign_of(b);
    if (a_sign != b_sign)
        return a_sign || ((a | b) << 1) == 0;
    return a == b || (a_sign ^ (a < b));
}

#pragma GCC diagnostic pop

#endif
