/* pyhls's libm: the elementary functions a design calls, in portable C that pyhls
 * synthesises like the user's own code (hls.frontend._libm links it into the program).
 * Written for pyhls (Apache-2.0).  The golden model runs the same code, so hardware and
 * native execution agree bit for bit; the accuracy against glibc is measured by
 * benchmarks/libm_accuracy.py (benchmarks/results/libm_accuracy.md).
 *
 * The rules this code keeps, for hardware:
 *  - no loops but fmod's long division: range reduction is straight-line (Payne-Hanek in 64/128-bit integers
 *    against a 20-word table of 2/pi; small tables of atan(k/16), and of 1/c, log c
 *    and 2^(j/32) for pow), polynomials are Taylor series evaluated by Horner's rule, with
 *    coefficients written as exact fractions (clang rounds them once);
 *  - no fused multiply-add (compiled with -ffp-contract=off): every operation rounds
 *    once, as on the hardware's IEEE units and the golden model's x86-64 SSE2;
 *  - no branch on a NaN's sign or payload (the hardware's units return the canonical
 *    quiet NaN, the host its own): NaNs are tested for, then returned or made anew;
 *  - powers of two built from their bits, scaled in two steps where a result may be
 *    subnormal, so that it rounds once.
 * Every function is static: each public wrapper (exp.c, ...) is compiled on its own. */
#ifndef PYHLS_LIBM_H
#define PYHLS_LIBM_H

#include <stdint.h>

typedef union { double f; uint64_t u; } pyhls_d64;
typedef union { float f; uint32_t u; } pyhls_f32;

static inline uint64_t pyhls_dbits(double x) { pyhls_d64 v; v.f = x; return v.u; }
static inline double pyhls_dfrom(uint64_t u) { pyhls_d64 v; v.u = u; return v.f; }
static inline uint32_t pyhls_fbits(float x) { pyhls_f32 v; v.f = x; return v.u; }
static inline float pyhls_ffrom(uint32_t u) { pyhls_f32 v; v.u = u; return v.f; }

/* 2^k for a k in the normal range [-1022, 1023] (float: [-126, 127]) */
static inline double pyhls_pow2(int k) { return pyhls_dfrom((uint64_t)(k + 1023) << 52); }
static inline float pyhls_pow2f(int k) { return pyhls_ffrom((uint32_t)(k + 127) << 23); }

#define PYHLS_INF __builtin_inf()
#define PYHLS_INFF __builtin_inff()
#define PYHLS_NAN __builtin_nan("")
#define PYHLS_NANF __builtin_nanf("")

/* ln 2 split in two: HI has 32 significant bits, so k * HI is exact for |k| < 2^21;
 * LO is ln 2 - HI rounded (ln 2 to 300 bits, by 2 atanh(1/3) in integers) */
#define PYHLS_LN2_HI 0x1.62e42feep-1
#define PYHLS_LN2_LO 0x1.a39ef35793c76p-33
#define PYHLS_INV_LN2 0x1.71547652b82fep0
/* float: HI has 16 significant bits (k * HI exact for |k| < 2^8) */
#define PYHLS_LN2_HIF 0x1.62e4p-1f
#define PYHLS_LN2_LOF ((float)(0x1.62e42fefa39ef358p-1 - 0x1.62e4p-1))
#define PYHLS_INV_LN2F 0x1.715476p0f

/* ------------------------------------------------------------------------ exp */

/* y * 2^k for y in [0.5, 2] and k in [-1100, 1030]: two exact scalings by normal powers
 * of two, so that only the last multiply rounds (overflow to inf, subnormal results) */
static inline double pyhls_scale(double y, int k) {
    int k1 = k >> 1;
    return y * pyhls_pow2(k1) * pyhls_pow2(k - k1);
}

static inline float pyhls_scalef(float y, int k) {
    int k1 = k >> 1;
    return y * pyhls_pow2f(k1) * pyhls_pow2f(k - k1);
}

static inline double pyhls_exp(double x) {
    if (x != x)
        return x;
    if (x > 710.0)                      /* e^710 > DBL_MAX; inf too */
        return PYHLS_INF;
    if (x < -746.0)                     /* below half the least subnormal; -inf too */
        return 0.0;
    /* x = k ln2 + r, |r| <= ln2 / 2 (k * LN2_HI and x - k * LN2_HI are exact) */
    int k = (int)(x * PYHLS_INV_LN2 + (x < 0 ? -0.5 : 0.5));
    double r = (x - k * PYHLS_LN2_HI) - k * PYHLS_LN2_LO;
    /* e^r = 1 + r + r^2 (1/2! + r/3! + ... + r^11/13!): the last term below 2^-60 */
    double q = 1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720
             + r * (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880 + r * (1.0 / 3628800
             + r * (1.0 / 39916800 + r * (1.0 / 479001600 + r * (1.0 / 6227020800.0)))))))))));
    double y = 1.0 + (r + r * r * q);
    return pyhls_scale(y, k);
}

static inline float pyhls_expf(float x) {
    if (x != x)
        return x;
    if (x > 89.0f)
        return PYHLS_INFF;
    if (x < -104.0f)
        return 0.0f;
    int k = (int)(x * PYHLS_INV_LN2F + (x < 0 ? -0.5f : 0.5f));
    float r = (x - k * PYHLS_LN2_HIF) - k * PYHLS_LN2_LOF;
    /* 1 + r + r^2 (1/2! + ... + r^6/8!): the last term below 2^-28 */
    float q = 1.0f / 2 + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720
            + r * (1.0f / 5040 + r * (1.0f / 40320))))));
    float y = 1.0f + (r + r * r * q);
    return pyhls_scalef(y, k);
}

/* ------------------------------------------------------------------------ tanh */

/* tanh |x| = t / (t + 2), t = e^2|x| - 1 = 2^k (1 + e^r - 1) - 1 with r = rh - rl:
 * (2^k - 1) + 2^k rh is a sum of two exact terms (one rounding), the rest is small */
static inline double pyhls_tanh(double x) {
    if (x != x)
        return x;
    double a = x < 0 ? -x : x;
    if (a < 0x1p-28)                    /* tanh x = x rounded (and -0 stays -0) */
        return x;
    if (a > 22.0)                       /* 1 - tanh 22 < 2^-62 */
        return x < 0 ? -1.0 : 1.0;
    double y = 2.0 * a;
    int k = (int)(y * PYHLS_INV_LN2 + 0.5);
    double rh = y - k * PYHLS_LN2_HI, rl = k * PYHLS_LN2_LO;
    double r = rh - rl;
    double q = 1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720
             + r * (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880 + r * (1.0 / 3628800
             + r * (1.0 / 39916800 + r * (1.0 / 479001600 + r * (1.0 / 6227020800.0)))))))))));
    double s = pyhls_pow2(k);
    double t = ((s - 1.0) + s * rh) + s * (r * r * q - rl);
    double v = t / (t + 2.0);
    return x < 0 ? -v : v;
}

static inline float pyhls_tanhf(float x) {
    if (x != x)
        return x;
    float a = x < 0 ? -x : x;
    if (a < 0x1p-13f)
        return x;
    if (a > 9.0f)                       /* 1 - tanh 9 < 2^-25 */
        return x < 0 ? -1.0f : 1.0f;
    float y = 2.0f * a;
    int k = (int)(y * PYHLS_INV_LN2F + 0.5f);
    float rh = y - k * PYHLS_LN2_HIF, rl = k * PYHLS_LN2_LOF;
    float r = rh - rl;
    float q = 1.0f / 2 + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720
            + r * (1.0f / 5040 + r * (1.0f / 40320))))));
    float s = pyhls_pow2f(k);
    float t = ((s - 1.0f) + s * rh) + s * (r * r * q - rl);
    float v = t / (t + 2.0f);
    return x < 0 ? -v : v;
}

/* ------------------------------------------------------------------------ log */

static inline double pyhls_log(double x) {
    if (x != x)
        return x;
    if (x < 0)
        return PYHLS_NAN;
    if (x == 0)
        return -PYHLS_INF;
    if (x == PYHLS_INF)
        return x;
    uint64_t u = pyhls_dbits(x);
    int k = 0;
    if ((u >> 52) == 0) {               /* subnormal: scaled into the normal range */
        u = pyhls_dbits(x * 0x1p54);
        k = -54;
    }
    uint64_t m = u & 0x000fffffffffffffULL;
    k += (int)(u >> 52) - 1023;
    /* x = 2^k (1 + f), 1 + f in [sqrt(2)/2, sqrt(2)) */
    if (m > 0x6a09e667f3bccULL) {
        k += 1;
        m |= 0x3feULL << 52;
    } else {
        m |= 0x3ffULL << 52;
    }
    double f = pyhls_dfrom(m) - 1.0;
    /* log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| < 0.172:
     * = f - f^2/2 + s (f^2/2 + R), R = 2 s^2/3 + 2 s^4/5 + ... (to s^22: below 2^-60) */
    double s = f / (2.0 + f);
    double z = s * s;
    double R = z * (2.0 / 3 + z * (2.0 / 5 + z * (2.0 / 7 + z * (2.0 / 9 + z * (2.0 / 11
             + z * (2.0 / 13 + z * (2.0 / 15 + z * (2.0 / 17 + z * (2.0 / 19 + z * (2.0 / 21
             + z * (2.0 / 23)))))))))));
    double hfsq = 0.5 * f * f;
    double dk = (double)k;
    return dk * PYHLS_LN2_HI - ((hfsq - (s * (hfsq + R) + dk * PYHLS_LN2_LO)) - f);
}

static inline float pyhls_logf(float x) {
    if (x != x)
        return x;
    if (x < 0)
        return PYHLS_NANF;
    if (x == 0)
        return -PYHLS_INFF;
    if (x == PYHLS_INFF)
        return x;
    uint32_t u = pyhls_fbits(x);
    int k = 0;
    if ((u >> 23) == 0) {
        u = pyhls_fbits(x * 0x1p25f);
        k = -25;
    }
    uint32_t m = u & 0x7fffffU;
    k += (int)(u >> 23) - 127;
    if (m > 0x3504f3U) {
        k += 1;
        m |= 0x7eU << 23;
    } else {
        m |= 0x7fU << 23;
    }
    float f = pyhls_ffrom(m) - 1.0f;
    float s = f / (2.0f + f);
    float z = s * s;
    float R = z * (2.0f / 3 + z * (2.0f / 5 + z * (2.0f / 7 + z * (2.0f / 9 + z * (2.0f / 11
            + z * (2.0f / 13))))));
    float hfsq = 0.5f * f * f;
    float dk = (float)k;
    return dk * PYHLS_LN2_HIF - ((hfsq - (s * (hfsq + R) + dk * PYHLS_LN2_LOF)) - f);
}

/* ------------------------------------------------------------ sin and cos */

/* The bits of 2/pi after the binary point, 64 a word, the first word zero (so that a
 * window may start up to 64 bits before the point).  tests/test_libm.py checks them
 * against 2/pi computed there (pi by Machin's formula in integers). */
static const uint64_t pyhls_2opi[21] = {
    0,
    0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL,
    0xfe5163abdebbc561ULL, 0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL,
    0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL, 0xe99c7026b45f7e41ULL,
    0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
    0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL,
    0x7527bac7ebe5f17bULL, 0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL,
    0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL,
};

/* pi/2 * 2^63, rounded */
#define PYHLS_PIO2_Q63 0xc90fdaa22168c235ULL

typedef unsigned __int128 pyhls_u128;

/* a * b in full, from four 32 x 32-bit products: a 64 x 64-bit multiplier would be one
 * combinational operator longer than a clock period */
static inline pyhls_u128 pyhls_mul64(uint64_t a, uint64_t b) {
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return ((pyhls_u128)hi << 64) | ((mid << 32) | (uint32_t)ll);
}

/* 64 bits of the table from bit position p (0: the first bit of word 0) */
static inline uint64_t pyhls_2opi_bits(int p) {
    int j = p >> 6, s = p & 63;
    return (pyhls_2opi[j] << s) | ((pyhls_2opi[j + 1] >> 1) >> (63 - s));
}

/* The reduction of |x| = m 2^e (m < 2^53, |x| >= pi/4, e <= 971) by pi/2: returns the
 * quadrant n (mod 4) and r = |x| - n pi/2 in [-pi/4, pi/4] as r = (-1)^neg P 2^-sc with
 * P in [2^127, 2^128).  Payne-Hanek: |x| 2/pi mod 4 from a 192-bit window of 2/pi that
 * starts two bits above m's weight (the bits before it give multiples of 4), which
 * leaves 126 bits after the quadrant's: enough for the worst cancellation of a double
 * near a multiple of pi/2 (61 bits). */
static inline int pyhls_rem_pio2(uint64_t m, int e, pyhls_u128 *P, int *sc, int *neg) {
    int p = e + 62;                     /* the bit of weight 2^(e-1) of 2/pi */
    uint64_t w0 = pyhls_2opi_bits(p), w1 = pyhls_2opi_bits(p + 64), w2 = pyhls_2opi_bits(p + 128);
    /* F = m (w0 w1 w2) mod 2^192, three words H M L: 2 bits of quadrant, 190 of fraction */
    pyhls_u128 p2 = pyhls_mul64(m, w2), p1 = pyhls_mul64(m, w1);
    pyhls_u128 c = (p2 >> 64) + (uint64_t)p1;
    uint64_t M = (uint64_t)c, L = (uint64_t)p2;
    uint64_t H = m * w0 + (uint64_t)(p1 >> 64) + (uint64_t)(c >> 64);
    int n = (int)(H >> 62);
    pyhls_u128 f = ((pyhls_u128)((H << 2) | (M >> 62)) << 64) | ((M << 2) | (L >> 62));
    *neg = (int)(f >> 127);             /* fraction >= 1/2: the next quadrant, r < 0 */
    if (*neg) {
        n += 1;
        f = -f;
    }
    /* r = f 2^-128 pi/2: f normalised, times pi/2 in 64 bits */
    uint64_t fh = (uint64_t)(f >> 64), fl = (uint64_t)f;
    int lz = fh ? __builtin_clzll(fh | 1) : 64 + __builtin_clzll(fl | 1);
    f <<= lz;
    pyhls_u128 prod = pyhls_mul64((uint64_t)(f >> 64), PYHLS_PIO2_Q63);
    int top = (int)(prod >> 127);
    *P = prod << (1 - top);
    *sc = lz + 127 + (1 - top);
    return n & 3;
}

/* sin(r + lo) for |r| <= pi/4, |lo| < ulp(r): r + r^3 (-1/3! + r^2/5! - ... + r^18/21!) */
static inline double pyhls_ksin(double r, double lo) {
    double z = r * r;
    double p = -1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880
             + z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0
             + z * (1.0 / 355687428096000.0 + z * (-1.0 / 121645100408832000.0
             + z * (1.0 / 51090942171709440000.0)))))))));
    return r + (r * z * p + lo * (1.0 - 0.5 * z));
}

/* cos(r + lo): 1 - r^2/2 + r^4 (1/4! - r^2/6! + ... + r^16/20!), the rounding of
 * 1 - r^2/2 carried along */
static inline double pyhls_kcos(double r, double lo) {
    double z = r * r;
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    double q = 1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800
             + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0
             + z * (-1.0 / 6402373705728000.0 + z * (1.0 / 2432902008176640000.0))))))));
    return w + (((1.0 - w) - hz) + (z * z * q - r * lo));
}

static inline float pyhls_ksinf(float r, float lo) {
    float z = r * r;
    float p = -1.0f / 6 + z * (1.0f / 120 + z * (-1.0f / 5040 + z * (1.0f / 362880
            + z * (-1.0f / 39916800))));
    return r + (r * z * p + lo * (1.0f - 0.5f * z));
}

static inline float pyhls_kcosf(float r, float lo) {
    float z = r * r;
    float hz = 0.5f * z;
    float w = 1.0f - hz;
    float q = 1.0f / 24 + z * (-1.0f / 720 + z * (1.0f / 40320 + z * (-1.0f / 3628800
            + z * (1.0f / 479001600))));
    return w + (((1.0f - w) - hz) + (z * z * q - r * lo));
}

/* |x| = n pi/2 + r + lo (a: |x|'s bits, finite, |x| >= 2^-27), |r| <= pi/4: returns n mod 4
 * (0 and r = |x| below pi/4) */
static inline int pyhls_reduce_pio2(uint64_t a, double *rp, double *lop) {
    double r = pyhls_dfrom(a), lo = 0.0;
    int n = 0;
    if (a >= 0x3fe921fb54442d18ULL) {   /* |x| >= pi/4 */
        pyhls_u128 P;
        int sc, neg;
        int e = (int)(a >> 52) - 1075;
        uint64_t m = (a & 0x000fffffffffffffULL) | (1ULL << 52);
        n = pyhls_rem_pio2(m, e, &P, &sc, &neg);
        /* r = P 2^-sc: its top 53 bits exactly, the next 63 (truncated) */
        r = (double)(int64_t)(uint64_t)(P >> 75) * pyhls_pow2(75 - sc);
        uint64_t rest = (uint64_t)((P & (((pyhls_u128)1 << 75) - 1)) >> 12);
        lo = (double)(int64_t)rest * pyhls_pow2(12 - sc);
        if (neg) {
            r = -r;
            lo = -lo;
        }
    }
    *rp = r;
    *lop = lo;
    return n;
}

/* sin (want_cos 0) or cos (1) of a double */
static inline double pyhls_sincos(double x, int want_cos) {
    uint64_t u = pyhls_dbits(x);
    uint64_t a = u & 0x7fffffffffffffffULL;
    int sign = (int)(u >> 63);
    if (a >= 0x7ff0000000000000ULL)     /* NaN: itself; inf: a NaN made anew */
        return a > 0x7ff0000000000000ULL ? x : PYHLS_NAN;
    if (a < 0x3e50000000000000ULL)      /* |x| < 2^-26: sin x = x, cos x = 1 rounded */
        return want_cos ? 1.0 : x;
    double r, lo;
    int n = pyhls_reduce_pio2(a, &r, &lo);
    double s;
    if (want_cos) {
        /* cos: n 0 cos r, 1 -sin r, 2 -cos r, 3 sin r (even in x) */
        s = (n & 1) ? pyhls_ksin(r, lo) : pyhls_kcos(r, lo);
        if (((n + 1) >> 1) & 1)
            s = -s;
        return s;
    }
    /* sin: n 0 sin r, 1 cos r, 2 -sin r, 3 -cos r (odd in x) */
    s = (n & 1) ? pyhls_kcos(r, lo) : pyhls_ksin(r, lo);
    if ((n >> 1) ^ sign)
        s = -s;
    return s;
}

static inline float pyhls_sincosf(float x, int want_cos) {
    uint32_t u = pyhls_fbits(x);
    uint32_t a = u & 0x7fffffffU;
    int sign = (int)(u >> 31);
    if (a >= 0x7f800000U)
        return a > 0x7f800000U ? x : PYHLS_NANF;
    if (a < 0x39800000U)                /* |x| < 2^-12 */
        return want_cos ? 1.0f : x;
    float ax = pyhls_ffrom(a), r = ax, lo = 0.0f;
    int n = 0;
    if (a >= 0x3f490fdbU) {             /* |x| >= pi/4 */
        pyhls_u128 P;
        int sc, neg;
        int e = (int)(a >> 23) - 150;
        uint64_t m = (a & 0x7fffffU) | (1U << 23);
        n = pyhls_rem_pio2(m, e, &P, &sc, &neg);
        /* top 24 bits exactly, the next 40 rounded; each scale in two normal steps */
        uint64_t top = (uint64_t)(P >> 64);
        r = (float)(int32_t)(uint32_t)(top >> 40) * pyhls_pow2f(40 - 60) * pyhls_pow2f(124 - sc);
        lo = (float)(int64_t)(top & ((1ULL << 40) - 1)) * pyhls_pow2f(-60) * pyhls_pow2f(124 - sc);
        if (neg) {
            r = -r;
            lo = -lo;
        }
    }
    float s;
    if (want_cos) {
        s = (n & 1) ? pyhls_ksinf(r, lo) : pyhls_kcosf(r, lo);
        if (((n + 1) >> 1) & 1)
            s = -s;
        return s;
    }
    s = (n & 1) ? pyhls_kcosf(r, lo) : pyhls_ksinf(r, lo);
    if ((n >> 1) ^ sign)
        s = -s;
    return s;
}

/* ------------------------------------------------------------ floor and ceil */

/* floor (up 0) or ceil (up 1) by the bits: the fraction's bits cleared, after adding
 * their mask (a carry into the integer part) when the result moves away from zero */
static inline double pyhls_round_to(double x, int up) {
    uint64_t u = pyhls_dbits(x);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    int neg = (int)(u >> 63);
    if (e >= 52)                        /* integral, inf, NaN */
        return x;
    if (e < 0) {                        /* |x| < 1 */
        if ((u << 1) == 0)
            return x;
        if (up)
            return neg ? -0.0 : 1.0;
        return neg ? -1.0 : 0.0;
    }
    uint64_t mask = 0x000fffffffffffffULL >> e;
    if ((u & mask) == 0)
        return x;
    if (neg != up)
        u += mask;
    return pyhls_dfrom(u & ~mask);
}

static inline float pyhls_round_tof(float x, int up) {
    uint32_t u = pyhls_fbits(x);
    int e = (int)((u >> 23) & 0xff) - 127;
    int neg = (int)(u >> 31);
    if (e >= 23)
        return x;
    if (e < 0) {
        if ((u << 1) == 0)
            return x;
        if (up)
            return neg ? -0.0f : 1.0f;
        return neg ? -1.0f : 0.0f;
    }
    uint32_t mask = 0x7fffffU >> e;
    if ((u & mask) == 0)
        return x;
    if (neg != up)
        u += mask;
    return pyhls_ffrom(u & ~mask);
}

/* ------------------------------------------------------------ trunc and round */

/* trunc: the fraction's bits cleared; round (half away from zero): half a unit of the
 * integer part added to the magnitude first (its carry may reach the exponent) */
static inline double pyhls_trunc_round(double x, int half_up) {
    uint64_t u = pyhls_dbits(x);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    uint64_t sign = u & 0x8000000000000000ULL;
    if (e >= 52)                        /* integral, inf, NaN */
        return x;
    if (e < 0) {                        /* |x| < 1: +-0, or +-1 for round of |x| >= 1/2 */
        if (half_up && e == -1)
            return pyhls_dfrom(sign | 0x3ff0000000000000ULL);
        return pyhls_dfrom(sign);
    }
    uint64_t mask = 0x000fffffffffffffULL >> e;
    if ((u & mask) == 0)
        return x;
    if (half_up)
        u += (mask >> 1) + 1;
    return pyhls_dfrom(u & ~mask);
}

static inline float pyhls_trunc_roundf(float x, int half_up) {
    uint32_t u = pyhls_fbits(x);
    int e = (int)((u >> 23) & 0xff) - 127;
    uint32_t sign = u & 0x80000000U;
    if (e >= 23)
        return x;
    if (e < 0) {
        if (half_up && e == -1)
            return pyhls_ffrom(sign | 0x3f800000U);
        return pyhls_ffrom(sign);
    }
    uint32_t mask = 0x7fffffU >> e;
    if ((u & mask) == 0)
        return x;
    if (half_up)
        u += (mask >> 1) + 1;
    return pyhls_ffrom(u & ~mask);
}

/* ------------------------------------------------ exact sums and products */

/* s + e = a + b exactly (Knuth's two-sum, any magnitudes) */
static inline double pyhls_two_sum(double a, double b, double *e) {
    double s = a + b;
    double bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* p + e = a * b exactly (Dekker, halves by Veltkamp's split with 2^27 + 1; no fused
 * multiply-add): |a|, |b| < 2^995 and no partial product below 2^-1021 */
static inline double pyhls_two_prod(double a, double b, double *e) {
    double ca = 134217729.0 * a, cb = 134217729.0 * b;
    double ah = ca - (ca - a), bh = cb - (cb - b);
    double al = a - ah, bl = b - bh;
    double p = a * b;
    *e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return p;
}

/* ------------------------------------------------------------ atan and atan2 */

/* atan(k/16) for k = 0..16, in two parts (hi rounded, lo the rest rounded): computed
 * and checked by tests/test_libm.py */
static const double pyhls_atan_k16[17][2] = {
    {0x0.0p+0, 0x0.0p+0},
    {0x1.ff55bb72cfdeap-5, -0x1.c934d86d23f1dp-60},
    {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
    {0x1.7b97b4bce5b02p-3, 0x1.347b0b4f881cap-58},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
    {0x1.362773707ebccp-2, -0x1.963a544b672d8p-57},
    {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
    {0x1.a64eec3cc23fdp-2, -0x1.24dec1b50b7ffp-56},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
    {0x1.0657e94db30d0p-1, -0x1.d5b495f6349e6p-56},
    {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
    {0x1.345f01cce37bbp-1, 0x1.1021137c71102p-55},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
    {0x1.5d58987169b18p-1, 0x1.0028e4bc5e7cap-57},
    {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
    {0x1.819d0b7158a4dp-1, -0x1.bf76229d3b917p-56},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
};

#define PYHLS_PIO2_HI 0x1.921fb54442d18p0
#define PYHLS_PIO2_LO 0x1.1a62633145c07p-54
#define PYHLS_PI_HI 0x1.921fb54442d18p1
#define PYHLS_PI_LO 0x1.1a62633145c07p-53

/* atan(a + da) for 0 <= a <= 2^62 (|da| < ulp(a)) as h + l, |l| a few ulp of h:
 *  a < 1/8: the Taylor series a - a^3/3 + ... - a^19/19 (the next term below 2^-58 a);
 *  1/8 <= a <= 1: atan(c) + atan(t), c = k/16 nearest a, t = (16a - k) / (16 + k a),
 *    |t| <= 1/32 (16a - k exact);
 *  a > 1: pi/2 - atan(c) - atan(t), c = k/16 nearest 1/a, t = (16 - k a) / (16 a + k)
 *    with 16 - k a exact (a split so that k times its high part is exact);
 *  atan(t) = t - t^3/3 + ... + t^13/13 (the next term below 2^-70), and da / (1 + a^2) */
static inline double pyhls_atan_core(double a, double da, double *lo) {
    double z, p, t, tz, q;
    if (a < 0.125) {
        z = a * a;
        p = -1.0 / 3 + z * (1.0 / 5 + z * (-1.0 / 7 + z * (1.0 / 9 + z * (-1.0 / 11
          + z * (1.0 / 13 + z * (-1.0 / 15 + z * (1.0 / 17 + z * (-1.0 / 19))))))));
        *lo = a * z * p + da / (1.0 + z);
        return a;
    }
    int recip = a > 1.0;
    int k;
    if (recip) {
        k = (int)(16.0 / a + 0.5);
        double ah = pyhls_dfrom(pyhls_dbits(a) & ~0x1fULL), al = a - ah;
        t = ((16.0 - k * ah) - k * al) / (16.0 * a + k);
    } else {
        k = (int)(16.0 * a + 0.5);
        t = (16.0 * a - k) / (16.0 + k * a);
    }
    tz = t * t;
    q = -1.0 / 3 + tz * (1.0 / 5 + tz * (-1.0 / 7 + tz * (1.0 / 9 + tz * (-1.0 / 11
      + tz * (1.0 / 13)))));
    double at = t + t * tz * q;
    double dd = da / (1.0 + a * a);
    double ch = pyhls_atan_k16[k][0], cl = pyhls_atan_k16[k][1];
    if (recip) {
        double h = PYHLS_PIO2_HI - ch;     /* exact error: pi/2 > ch */
        double e = (PYHLS_PIO2_HI - h) - ch;
        *lo = (e + (PYHLS_PIO2_LO - cl)) - at + dd;
        return h;
    }
    *lo = cl + at + dd;
    return ch;
}

static inline double pyhls_atan(double x) {
    uint64_t u = pyhls_dbits(x);
    uint64_t a = u & 0x7fffffffffffffffULL;
    double r;
    if (a > 0x7ff0000000000000ULL)      /* NaN */
        return x;
    if (a < 0x3e40000000000000ULL)      /* |x| < 2^-27: atan x = x rounded */
        return x;
    if (a > 0x43d0000000000000ULL) {    /* |x| > 2^62, inf: pi/2 rounded */
        r = PYHLS_PIO2_HI;
    } else {
        double lo, h = pyhls_atan_core(pyhls_dfrom(a), 0.0, &lo);
        r = h + lo;
    }
    return (u >> 63) ? -r : r;
}

/* atan2(y, x): the special cases of C99 Annex F; otherwise q = |y| / |x| with its
 * rounding error dq (by an exact product, both scaled first by a power of two that
 * keeps the product's parts normal), atan(q + dq) = h + l, and pi - (h + l) for x < 0 */
static inline double pyhls_atan2(double y, double x) {
    uint64_t ux = pyhls_dbits(x), uy = pyhls_dbits(y);
    uint64_t ax = ux & 0x7fffffffffffffffULL, ay = uy & 0x7fffffffffffffffULL;
    int xneg = (int)(ux >> 63), yneg = (int)(uy >> 63);
    double r;
    if (ax > 0x7ff0000000000000ULL)     /* NaN */
        return x;
    if (ay > 0x7ff0000000000000ULL)
        return y;
    if (ay == 0) {                      /* +-0 for x > 0 or +0, +-pi for x < 0 or -0 */
        if (!xneg)
            return y;
        r = PYHLS_PI_HI;
    } else if (ax == 0) {
        r = PYHLS_PIO2_HI;
    } else if (ax == 0x7ff0000000000000ULL) {
        if (ay == 0x7ff0000000000000ULL)
            r = xneg ? 0x1.2d97c7f3321d2p1 : 0x1.921fb54442d18p-1;  /* 3pi/4, pi/4 */
        else
            r = xneg ? PYHLS_PI_HI : 0.0;
    } else if (ay == 0x7ff0000000000000ULL) {
        r = PYHLS_PIO2_HI;
    } else {
        int ex = (int)(ax >> 52), ey = (int)(ay >> 52);
        double fx = pyhls_dfrom(ax), fy = pyhls_dfrom(ay);
        if (ey - ex > 61) {             /* |y/x| > 2^60: pi/2 rounded (x < 0 too) */
            r = PYHLS_PIO2_HI;
        } else if (ex - ey > 61) {      /* |y/x| < 2^-60: |y/x| rounded, or pi rounded */
            r = xneg ? PYHLS_PI_HI : fy / fx;
        } else {
            if (ex > 0x7ff - 100 || ey > 0x7ff - 100) {
                fx *= 0x1p-600;
                fy *= 0x1p-600;
            } else if (ex < 100 || ey < 100) {
                fx *= 0x1p600;
                fy *= 0x1p600;
            }
            double q = fy / fx, pe;
            double p = pyhls_two_prod(q, fx, &pe);
            double dq = ((fy - p) - pe) / fx;
            double lo, h = pyhls_atan_core(q, dq, &lo);
            if (xneg) {
                double s = PYHLS_PI_HI - h;
                double e = (PYHLS_PI_HI - s) - h;
                r = s + ((e + PYHLS_PI_LO) - lo);
            } else {
                r = h + lo;
            }
        }
    }
    return yneg ? -r : r;
}

/* the float functions in double (every float and its result is exact in double; the
 * one rounding to float is within an ulp) */
static inline float pyhls_atanf(float x) { return (float)pyhls_atan((double)x); }
static inline float pyhls_atan2f(float y, float x) {
    return (float)pyhls_atan2((double)y, (double)x);
}

/* ------------------------------------------------------------------------ pow */

/* 1/c (rounded) for c = 1 + j/64, j = -19..27, and -log(1/c) of that double in two
 * parts: computed and checked by tests/test_libm.py */
static const double pyhls_log_tab[47][3] = {
    {0x1.6c16c16c16c17p+0, -0x1.68ac83e9c6a15p-2, 0x1.acd8a9145ff44p-57},
    {0x1.642c8590b2164p+0, -0x1.522ae0738a3d7p-2, -0x1.3840b263acb43p-56},
    {0x1.5c9882b931057p+0, -0x1.3c25277333183p-2, -0x1.152d81af5713ap-56},
    {0x1.5555555555555p+0, -0x1.269621134db91p-2, -0x1.e0efadd9db02ap-56},
    {0x1.4e5e0a72f0539p+0, -0x1.1178e8227e47ap-2, -0x1.b8ce2d07f1cb7p-56},
    {0x1.47ae147ae147bp+0, -0x1.f991c6cb3b37ap-3, -0x1.ecca0cdf30143p-58},
    {0x1.4141414141414p+0, -0x1.d1037f2655e7bp-3, 0x1.3f3adb7b71cbcp-58},
    {0x1.3b13b13b13b14p+0, -0x1.a93ed3c8ad9e5p-3, -0x1.bcafa9de97202p-57},
    {0x1.3521cfb2b78c1p+0, -0x1.823c16551a3c0p-3, -0x1.6dcd318f4187ep-57},
    {0x1.2f684bda12f68p+0, -0x1.5bf406b543db0p-3, 0x1.1f5b44c0df7f7p-61},
    {0x1.29e4129e4129ep+0, -0x1.365fcb0159014p-3, -0x1.bea08d2dca256p-57},
    {0x1.2492492492492p+0, -0x1.1178e8227e47ap-3, 0x1.0e63a5f01c693p-58},
    {0x1.1f7047dc11f70p+0, -0x1.da7276384469ep-4, -0x1.401fa71733017p-58},
    {0x1.1a7b9611a7b96p+0, -0x1.9335e5d594988p-4, 0x1.478a85704ccb7p-58},
    {0x1.15b1e5f75270dp+0, -0x1.4d3115d207eacp-4, -0x1.da7d0b1e10b2fp-60},
    {0x1.1111111111111p+0, -0x1.08598b59e3a06p-4, 0x1.dd7009902bf32p-58},
    {0x1.0c9714fbcda3bp+0, -0x1.894aa149fb34bp-5, 0x1.2ba0b44cfaee5p-59},
    {0x1.0842108421084p+0, -0x1.0415d89e74440p-5, -0x1.c05cf1d753621p-59},
    {0x1.0410410410410p+0, -0x1.0205658935837p-6, -0x1.27c8e8416e717p-60},
    {0x1.0000000000000p+0, 0x0.0p+0, 0x0.0p+0},
    {0x1.f81f81f81f820p-1, 0x1.fc0a8b0fc03c4p-7, -0x1.83092c5964281p-62},
    {0x1.f07c1f07c1f08p-1, 0x1.f829b0e7832f8p-6, 0x1.33e3f04f1ef25p-60},
    {0x1.e9131abf0b767p-1, 0x1.77458f632dcffp-5, 0x1.8d3ca87b92968p-63},
    {0x1.e1e1e1e1e1e1ep-1, 0x1.f0a30c01162a8p-5, 0x1.85f325c5bbacdp-59},
    {0x1.dae6076b981dbp-1, 0x1.341d7961bd1d0p-4, -0x1.3599f227becbbp-58},
    {0x1.d41d41d41d41dp-1, 0x1.6f0d28ae56b4ep-4, -0x1.20db323097324p-59},
    {0x1.cd85689039b0bp-1, 0x1.a926d3a4ad562p-4, -0x1.d7a16eab1e2adp-59},
    {0x1.c71c71c71c71cp-1, 0x1.e27076e2af2eap-4, -0x1.61578001e015ap-60},
    {0x1.c0e070381c0e0p-1, 0x1.0d77e7cd08e5bp-3, 0x1.9a5dc5e9030adp-57},
    {0x1.bacf914c1bad0p-1, 0x1.29552f81ff521p-3, 0x1.301771c407dc0p-57},
    {0x1.b4e81b4e81b4fp-1, 0x1.44d2b6ccb7d1cp-3, 0x1.7d3d950f87e23p-59},
    {0x1.af286bca1af28p-1, 0x1.5ff3070a793d6p-3, -0x1.bc60efafc6f6cp-58},
    {0x1.a98ef606a63bep-1, 0x1.7ab890210d907p-3, -0x1.1072534a57e7dp-57},
    {0x1.a41a41a41a41ap-1, 0x1.9525a9cf456b6p-3, -0x1.26fb3e2b1d1dap-57},
    {0x1.9ec8e951033d9p-1, 0x1.af3c94e80bff3p-3, 0x1.a3398064df33ep-57},
    {0x1.999999999999ap-1, 0x1.c8ff7c79a9a20p-3, -0x1.4f689f8434011p-57},
    {0x1.948b0fcd6e9e0p-1, 0x1.e27076e2af2e8p-3, -0x1.61578001e015ep-59},
    {0x1.8f9c18f9c18fap-1, 0x1.fb9186d5e3e29p-3, 0x1.355519b0de535p-57},
    {0x1.8acb90f6bf3aap-1, 0x1.0a324e27390e2p-2, 0x1.bdcfde8061c03p-56},
    {0x1.8618618618618p-1, 0x1.1675cababa60fp-2, 0x1.ce63eab883727p-61},
    {0x1.8181818181818p-1, 0x1.22941fbcf7966p-2, -0x1.dbd7ac258a2bdp-58},
    {0x1.7d05f417d05f4p-1, 0x1.2e8e2bae11d31p-2, -0x1.1e99b72bd7bf2p-57},
    {0x1.78a4c8178a4c8p-1, 0x1.3a64c556945eap-2, 0x1.cbcd735d03424p-60},
    {0x1.745d1745d1746p-1, 0x1.4618bc21c5ec2p-2, -0x1.7a42642661c62p-61},
    {0x1.702e05c0b8170p-1, 0x1.51aad872df82ep-2, -0x1.d8db0a7cc1543p-56},
    {0x1.6c16c16c16c17p-1, 0x1.5d1bdbf5809cap-2, -0x1.7dc9c7c23801fp-56},
    {0x1.6816816816817p-1, 0x1.686c81e9b14adp-2, 0x1.710af840538e3p-56},
};

/* 2^(j/32) for j = 0..31 in two parts: computed and checked by tests/test_libm.py */
static const double pyhls_exp2_32[32][2] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55},
    {0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54},
    {0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54},
    {0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55},
    {0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54},
    {0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54},
    {0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55},
    {0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55},
    {0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54},
    {0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55},
    {0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59},
    {0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56},
    {0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55},
    {0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54},
    {0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54},
    {0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54},
    {0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55},
    {0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55},
    {0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54},
    {0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54},
    {0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57},
    {0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56},
    {0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54},
    {0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54},
    {0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56},
    {0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55},
    {0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56},
    {0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55},
    {0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54},
    {0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54},
    {0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54},
};

/* y: 0 not an integer, 1 an odd integer, 2 an even integer (ay: |y|'s bits, finite) */
static inline int pyhls_int_kind(uint64_t ay) {
    int e = (int)(ay >> 52) - 1023;
    if (e >= 53)
        return 2;
    if (e < 0)
        return 0;
    uint64_t m = (ay & 0x000fffffffffffffULL) | (1ULL << 52);
    uint64_t mask = (1ULL << (52 - e)) - 1;
    if (m & mask)
        return 0;
    return ((m >> (52 - e)) & 1) ? 1 : 2;
}

/* log m as h + l (returned: h) for |x| = 2^k m (ax: its bits, finite, nonzero; k set),
 * m in [sqrt(2)/2, sqrt(2)): m / c = 1 + z exactly for the c = 1 + j/64 nearest m
 * (a Dekker product with the table's 1/c), |z| < 0.0112, log m = -log(1/c) + log(1 + z),
 * log(1 + z) = z - z^2/2 + z^3 (1/3 - ... + z^8/11) with z and z^2/2 in two parts:
 * the error below 2^-66 |log m| */
static inline double pyhls_logm_dd(uint64_t ax, int *kp, double *lo) {
    uint64_t u = ax;
    int k = 0;
    if ((u >> 52) == 0) {               /* subnormal: scaled into the normal range */
        u = pyhls_dbits(pyhls_dfrom(u) * 0x1p54);
        k = -54;
    }
    uint64_t mb = u & 0x000fffffffffffffULL;
    k += (int)(u >> 52) - 1023;
    if (mb > 0x6a09e667f3bccULL) {
        k += 1;
        mb |= 0x3feULL << 52;
    } else {
        mb |= 0x3ffULL << 52;
    }
    *kp = k;
    double m = pyhls_dfrom(mb);
    int j = (int)((m - 1.0) * 64.0 + 19.5);      /* (m - 1) 64 exact: j + 19 nearest */
    double pl, ph = pyhls_two_prod(m, pyhls_log_tab[j][0], &pl);
    double zl, zh = pyhls_two_sum(ph - 1.0, pl, &zl);   /* ph - 1 exact */
    double sql, sqh = pyhls_two_prod(zh, zh, &sql);
    double P = 1.0 / 3 + zh * (-1.0 / 4 + zh * (1.0 / 5 + zh * (-1.0 / 6 + zh * (1.0 / 7
             + zh * (-1.0 / 8 + zh * (1.0 / 9 + zh * (-1.0 / 10 + zh * (1.0 / 11))))))));
    double t2, t1 = pyhls_two_sum(zh, -0.5 * sqh, &t2);
    double e1, s1 = pyhls_two_sum(pyhls_log_tab[j][1], t1, &e1);
    double l = (e1 + t2) + pyhls_log_tab[j][2] + ((zl - zh * zl) - 0.5 * sql + zh * sqh * P);
    double h = s1 + l;
    *lo = (s1 - h) + l;
    return h;
}

/* log|x| as h + l (returned: h), ax as for pyhls_logm_dd */
static inline double pyhls_ln_dd(uint64_t ax, double *lo) {
    int k;
    double ml, mh = pyhls_logm_dd(ax, &k, &ml);
    double dk = (double)k;
    double e, s = pyhls_two_sum(dk * PYHLS_LN2_HI, mh, &e);
    double l = e + (dk * PYHLS_LN2_LO + ml);
    double h = s + l;
    *lo = (s - h) + l;
    return h;
}

/* 2^(N/32) e^(rh + rl) for |rh + rl| <= ln2/64 (+ a little) and N/32 in [-1100, 1030]:
 * 2^n 2^(j/32) (1 + S), N = 32 n + j, 2^(j/32) from the table in two parts, S = e^r - 1
 * by Taylor's series to r^7/7!, the power of two applied in two exact halves (a
 * subnormal result rounds twice: within an ulp) */
static inline double pyhls_exp_core(int N, double rh, double rl) {
    int j = N & 31, n = (N - j) / 32;
    double p = rh + rl;
    double q = 1.0 / 2 + p * (1.0 / 6 + p * (1.0 / 24 + p * (1.0 / 120 + p * (1.0 / 720
             + p * 1.0 / 5040))));
    double S = rh + (rl + p * p * q);
    double th = pyhls_exp2_32[j][0], tl = pyhls_exp2_32[j][1];
    return pyhls_scale(th + (tl + th * S), n);
}

/* pow(x, y): Annex F's special cases; otherwise |x|^y = e^(y log|x|) with log|x| as a
 * double-double (pyhls_ln_dd) times y as a double-double (w = y log|x|, error below
 * 2^-64 |w|), then e^w = 2^(N/32) e^r, |r| <= ln2/64 (r in two parts: pyhls_exp_core) */
static inline double pyhls_pow(double x, double y) {
    uint64_t ux = pyhls_dbits(x), uy = pyhls_dbits(y);
    uint64_t ax = ux & 0x7fffffffffffffffULL, ay = uy & 0x7fffffffffffffffULL;
    int xneg = (int)(ux >> 63), yneg = (int)(uy >> 63);
    if (ay == 0 || ux == 0x3ff0000000000000ULL)     /* pow(x, +-0), pow(1, y): 1, NaN too */
        return 1.0;
    if (ax > 0x7ff0000000000000ULL)
        return x;
    if (ay > 0x7ff0000000000000ULL)
        return y;
    if (ay == 0x7ff0000000000000ULL) {  /* y = +-inf: |x| = 1: 1; else 0 or inf */
        if (ax == 0x3ff0000000000000ULL)
            return 1.0;
        return ((ax < 0x3ff0000000000000ULL) == yneg) ? PYHLS_INF : 0.0;
    }
    int kind = pyhls_int_kind(ay);
    int sneg = xneg && kind == 1;       /* the result's sign */
    if (ax == 0 || ax == 0x7ff0000000000000ULL) {  /* +-0 (y < 0: inf), +-inf (y > 0: inf) */
        int big = (ax == 0) == yneg;
        double r = big ? PYHLS_INF : 0.0;
        return sneg ? -r : r;
    }
    if (xneg && kind == 0)              /* a negative number to a non-integer power */
        return PYHLS_NAN;
    if (ax == 0x3ff0000000000000ULL)    /* x = -1, y an integer */
        return sneg ? -1.0 : 1.0;
    if (ay >= 0x43f0000000000000ULL)    /* |y| >= 2^64 (an even integer): |y log x| > 2^11 */
        return ((ax < 0x3ff0000000000000ULL) == yneg) ? PYHLS_INF : 0.0;
    if (ay < 0x3bd0000000000000ULL)     /* |y| < 2^-66: |y log x| < 2^-56, 1 rounded */
        return 1.0;
    double Ll, Lh = pyhls_ln_dd(ax, &Ll);
    /* w = y log|x| */
    double we, wh = pyhls_two_prod(y, Lh, &we);
    double wl = we + y * Ll;
    double w = wh + wl;
    wl = (wh - w) + wl;
    wh = w;
    double r;
    if (wh > 710.0) {
        r = PYHLS_INF;
    } else if (wh < -746.0) {
        r = 0.0;
    } else {
        /* w = N ln2/32 + r, |r| <= ln2/64 */
        int N = (int)(wh * (32 * PYHLS_INV_LN2) + (wh < 0 ? -0.5 : 0.5));
        double rh = wh - N * (PYHLS_LN2_HI / 32);     /* exact */
        double rl = wl - N * (PYHLS_LN2_LO / 32);
        r = pyhls_exp_core(N, rh, rl);
    }
    return sneg ? -r : r;
}

static inline float pyhls_powf(float x, float y) {
    return (float)pyhls_pow((double)x, (double)y);
}

/* ------------------------------------------------------ exp2, log2, log10 */

/* 1/ln2 and 1/ln10 in two parts (the tests check them) */
#define PYHLS_INV_LN2_HI 0x1.71547652b82fep0
#define PYHLS_INV_LN2_LO 0x1.777d0ffda0d24p-56
#define PYHLS_INV_LN10_HI 0x1.bcb7b1526e50ep-2
#define PYHLS_INV_LN10_LO 0x1.95355baaafad3p-57
/* ln2 rounded and the rest rounded */
#define PYHLS_LN2_D_HI 0x1.62e42fefa39efp-1
#define PYHLS_LN2_D_LO 0x1.abc9e3b39803fp-56

/* 2^x = 2^(N/32) 2^f, N = 32x rounded, f = x - N/32 exact, 2^f = e^(f ln2) with f ln2
 * an exact product: exact for multiples of 1/32 that it can represent */
static inline double pyhls_exp2(double x) {
    if (x != x)
        return x;
    if (x >= 1024.0)
        return PYHLS_INF;
    if (x < -1080.0)
        return 0.0;
    double a = x < 0 ? -x : x;
    if (a < 0x1p-60)                    /* 1 + x ln2 rounds to 1 */
        return 1.0;
    int N = (int)(x * 32.0 + (x < 0 ? -0.5 : 0.5));
    double f = (x * 32.0 - N) * (1.0 / 32);         /* exact */
    double rl, rh = pyhls_two_prod(f, PYHLS_LN2_D_HI, &rl);
    rl += f * PYHLS_LN2_D_LO;
    return pyhls_exp_core(N, rh, rl);
}

/* the cases log2 and log10 share with log: NaN, negative, zero, inf (1 with a result) */
static inline int pyhls_log_special(double x, double *r) {
    if (x != x) {
        *r = x;
        return 1;
    }
    if (x < 0) {
        *r = PYHLS_NAN;
        return 1;
    }
    if (x == 0) {
        *r = -PYHLS_INF;
        return 1;
    }
    if (x == PYHLS_INF) {
        *r = x;
        return 1;
    }
    return 0;
}

/* log2 x = k + log m / ln2 (log m in two parts times 1/ln2 in two parts): exact for
 * powers of two */
static inline double pyhls_log2(double x) {
    double r;
    if (pyhls_log_special(x, &r))
        return r;
    int k;
    double ml, mh = pyhls_logm_dd(pyhls_dbits(x), &k, &ml);
    double pl, ph = pyhls_two_prod(mh, PYHLS_INV_LN2_HI, &pl);
    pl += mh * PYHLS_INV_LN2_LO + ml * PYHLS_INV_LN2_HI;
    double e, s = pyhls_two_sum((double)k, ph, &e);
    return s + (e + pl);
}

/* log10 x = log x / ln10 (log x in two parts times 1/ln10 in two parts) */
static inline double pyhls_log10(double x) {
    double r;
    if (pyhls_log_special(x, &r))
        return r;
    double Ll, Lh = pyhls_ln_dd(pyhls_dbits(x), &Ll);
    double pl, ph = pyhls_two_prod(Lh, PYHLS_INV_LN10_HI, &pl);
    pl += Lh * PYHLS_INV_LN10_LO + Ll * PYHLS_INV_LN10_HI;
    return ph + pl;
}

static inline float pyhls_exp2f(float x) { return (float)pyhls_exp2((double)x); }
static inline float pyhls_log2f(float x) { return (float)pyhls_log2((double)x); }
static inline float pyhls_log10f(float x) { return (float)pyhls_log10((double)x); }

/* ------------------------------------------------------------------------ tan */

/* tan |x| = sin r / cos r (n even) or -cos r / sin r (n odd), r + lo the reduced
 * argument: both kernels kept in two parts (sin: r + the rest; cos: 1 - r^2/2 rounded +
 * the rest, r^2's rounding error included), their quotient q with its remainder from an
 * exact product */
static inline double pyhls_tan(double x) {
    uint64_t u = pyhls_dbits(x);
    uint64_t a = u & 0x7fffffffffffffffULL;
    if (a >= 0x7ff0000000000000ULL)     /* NaN: itself; inf: a NaN made anew */
        return a > 0x7ff0000000000000ULL ? x : PYHLS_NAN;
    if (a < 0x3e40000000000000ULL)      /* |x| < 2^-27: tan x = x rounded */
        return x;
    double r, lo;
    int n = pyhls_reduce_pio2(a, &r, &lo);
    double z = r * r;
    double p = -1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880
             + z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0
             + z * (1.0 / 355687428096000.0 + z * (-1.0 / 121645100408832000.0
             + z * (1.0 / 51090942171709440000.0)))))))));
    double sh = r, sl = r * z * p + lo * (1.0 - 0.5 * z);
    double hz = 0.5 * z;
    double ch = 1.0 - hz;
    double q4 = 1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800
              + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0
              + z * (-1.0 / 6402373705728000.0 + z * (1.0 / 2432902008176640000.0))))))));
    double zl;
    pyhls_two_prod(r, r, &zl);                       /* r^2 = z + zl exactly */
    double cl = ((1.0 - ch) - hz) + (z * z * q4 - (r * lo + 0.5 * zl));
    double nh = sh, nl = sl, dh = ch, dl = cl;
    if (n & 1) {
        nh = -ch;
        nl = -cl;
        dh = sh;
        dl = sl;
    }
    double v = nh + nl, w = dh + dl;               /* each pair renormalised */
    nl = (nh - v) + nl;
    dl = (dh - w) + dl;
    nh = v;
    dh = w;
    double q = nh / dh;
    double pe, pp = pyhls_two_prod(q, dh, &pe);
    double t = q + (((nh - pp) - pe) + (nl - q * dl)) / dh;
    return (u >> 63) ? -t : t;
}

/* ------------------------------------------------------------ sinh and cosh */

/* e^a as h + l (returned: h, |l| < ulp(h)) for 0 <= a < 23: 2^(N/32) (1 + S) */
static inline double pyhls_exp_small_dd(double a, double *lo) {
    int N = (int)(a * (32 * PYHLS_INV_LN2) + 0.5);
    int j = N & 31, n = N >> 5;
    double rh = a - N * (PYHLS_LN2_HI / 32);          /* exact */
    double rl = -(N * (PYHLS_LN2_LO / 32));
    double p = rh + rl;
    double q = 1.0 / 2 + p * (1.0 / 6 + p * (1.0 / 24 + p * (1.0 / 120 + p * (1.0 / 720
             + p * 1.0 / 5040))));
    double S = rh + (rl + p * p * q);
    double th = pyhls_exp2_32[j][0], tl = pyhls_exp2_32[j][1];
    double sc = pyhls_pow2(n);
    double l = tl + th * S;
    double h = th + l;                               /* renormalised: |l| < ulp(h) */
    *lo = ((th - h) + l) * sc;
    return h * sc;
}

/* sinh (want_cosh 0) or cosh (1): |x| < 1/2 by Taylor's series (to x^17/17!, x^16/16!);
 * then (e^|x| -+ e^-|x|) / 2 with e^|x| and its reciprocal in two parts; beyond 22
 * e^|x| / 2 (as 2^(N/32 - 1) e^r, which overflows only when the result does) */
static inline double pyhls_sinhcosh(double x, int want_cosh) {
    uint64_t u = pyhls_dbits(x);
    uint64_t ua = u & 0x7fffffffffffffffULL;
    int neg = (int)(u >> 63) && !want_cosh;
    double a = pyhls_dfrom(ua), r;
    if (ua > 0x7ff0000000000000ULL)     /* NaN */
        return x;
    if (ua < 0x3e40000000000000ULL)     /* |x| < 2^-27: sinh x = x, cosh x = 1 rounded */
        return want_cosh ? 1.0 : x;
    if (a < 0.5) {
        double z = a * a;
        if (want_cosh) {
            double c = 1.0 / 24 + z * (1.0 / 720 + z * (1.0 / 40320 + z * (1.0 / 3628800
                     + z * (1.0 / 479001600 + z * (1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0
                     + z * (1.0 / 6402373705728000.0)))))));
            return 1.0 + (0.5 * z + z * z * c);
        }
        double s = 1.0 / 6 + z * (1.0 / 120 + z * (1.0 / 5040 + z * (1.0 / 362880
                 + z * (1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (1.0 / 1307674368000.0
                 + z * (1.0 / 355687428096000.0)))))));
        r = a + a * z * s;
    } else if (a < 22.0) {
        double l, h = pyhls_exp_small_dd(a, &l);
        double ih = 1.0 / h;                         /* 1 / (h + l) = ih + il */
        double pe, pp = pyhls_two_prod(h, ih, &pe);
        double il = ih * (((1.0 - pp) - pe) - l * ih);
        double e, t = pyhls_two_sum(h, want_cosh ? ih : -ih, &e);
        r = 0.5 * (t + (e + (want_cosh ? l + il : l - il)));
    } else if (a < 711.0) {
        int N = (int)(a * (32 * PYHLS_INV_LN2) + 0.5);
        double rh = a - N * (PYHLS_LN2_HI / 32);     /* exact */
        double rl = -(N * (PYHLS_LN2_LO / 32));
        r = pyhls_exp_core(N - 32, rh, rl);
    } else {
        r = PYHLS_INF;
    }
    return neg ? -r : r;
}

static inline float pyhls_tanf(float x) { return (float)pyhls_tan((double)x); }
static inline float pyhls_sinhf(float x) { return (float)pyhls_sinhcosh((double)x, 0); }
static inline float pyhls_coshf(float x) { return (float)pyhls_sinhcosh((double)x, 1); }

/* ------------------------------------------------------------ hypot, asin, acos */

/* sqrt(h + l) as s + sl (returned: s) for h > 0, |l| < ulp(h): the square-root unit's
 * s corrected by the remainder from an exact product */
static inline double pyhls_sqrt_dd(double h, double l, double *lo) {
    double s = __builtin_sqrt(h);
    double pe, p = pyhls_two_prod(s, s, &pe);
    *lo = (((h - p) - pe) + l) / (2.0 * s);        /* h - p exact */
    return s;
}

/* hypot(x, y): an infinity wins over a NaN; else sqrt(a^2 + b^2) (a >= b) with both
 * squares exact and their sum in two parts, scaled by 2^-+600 near the ends of the
 * range, the square root corrected to nearly the last bit */
static inline double pyhls_hypot(double x, double y) {
    uint64_t ax = pyhls_dbits(x) & 0x7fffffffffffffffULL, ay = pyhls_dbits(y) & 0x7fffffffffffffffULL;
    if (ax == 0x7ff0000000000000ULL || ay == 0x7ff0000000000000ULL)
        return PYHLS_INF;
    if (ax > 0x7ff0000000000000ULL)
        return x;
    if (ay > 0x7ff0000000000000ULL)
        return y;
    if (ax < ay) {
        uint64_t t = ax;
        ax = ay;
        ay = t;
    }
    double a = pyhls_dfrom(ax), b = pyhls_dfrom(ay);
    if (ay == 0 || (int)(ax >> 52) - (int)(ay >> 52) > 60)  /* b below half an ulp of a */
        return a + b;
    double sc = 1.0;
    if (ax > 0x5f30000000000000ULL) {   /* a > 2^500 */
        a *= 0x1p-600;
        b *= 0x1p-600;
        sc = 0x1p600;
    } else if (ay < 0x20b0000000000000ULL) {   /* b < 2^-500 */
        a *= 0x1p600;
        b *= 0x1p600;
        sc = 0x1p-600;
    }
    double al, ah = pyhls_two_prod(a, a, &al);
    double bl, bh = pyhls_two_prod(b, b, &bl);
    double e, h = pyhls_two_sum(ah, bh, &e);
    double l = e + (al + bl);
    double v = h + l;
    l = (h - v) + l;
    double sl, s = pyhls_sqrt_dd(v, l, &sl);
    return (s + sl) * sc;
}

/* sqrt(1 - a^2) as s + sl (returned: s) for 0 <= a < 1: 1 - a^2 in two parts */
static inline double pyhls_cos_of_sin(double a, double *lo) {
    double pl, ph = pyhls_two_prod(a, a, &pl);
    double e, h = pyhls_two_sum(1.0, -ph, &e);
    double l = e - pl;
    double v = h + l;
    l = (h - v) + l;
    return pyhls_sqrt_dd(v, l, lo);
}

/* atan(n / (d + dl)) as h + l (returned: h) for n, d > 0, n / d <= 2^62: the quotient
 * with its error (exact product) to pyhls_atan_core */
static inline double pyhls_atan_ratio(double n, double d, double dl, double *lo) {
    double q = n / d;
    double pe, p = pyhls_two_prod(q, d, &pe);
    double dq = (((n - p) - pe) - q * dl) / d;    /* n - p exact */
    return pyhls_atan_core(q, dq, lo);
}

/* asin x = atan(|x| / sqrt(1 - x^2)), the root in two parts */
static inline double pyhls_asin(double x) {
    uint64_t u = pyhls_dbits(x);
    uint64_t ua = u & 0x7fffffffffffffffULL;
    double r;
    if (ua > 0x7ff0000000000000ULL)     /* NaN */
        return x;
    if (ua > 0x3ff0000000000000ULL)     /* |x| > 1, inf: a NaN made anew */
        return PYHLS_NAN;
    if (ua < 0x3e40000000000000ULL)     /* |x| < 2^-27: asin x = x rounded */
        return x;
    if (ua == 0x3ff0000000000000ULL) {
        r = PYHLS_PIO2_HI;
    } else {
        double a = pyhls_dfrom(ua);
        double sl, s = pyhls_cos_of_sin(a, &sl);
        double lo, h = pyhls_atan_ratio(a, s, sl, &lo);
        r = h + lo;
    }
    return (u >> 63) ? -r : r;
}

/* acos x = atan(sqrt(1 - x^2) / |x|), pi minus it for x < 0 */
static inline double pyhls_acos(double x) {
    uint64_t u = pyhls_dbits(x);
    uint64_t ua = u & 0x7fffffffffffffffULL;
    if (ua > 0x7ff0000000000000ULL)
        return x;
    if (ua > 0x3ff0000000000000ULL)
        return PYHLS_NAN;
    if (ua < 0x3c60000000000000ULL)     /* |x| < 2^-57: pi/2 rounded */
        return PYHLS_PIO2_HI;
    if (ua == 0x3ff0000000000000ULL)    /* +0, pi rounded */
        return (u >> 63) ? PYHLS_PI_HI : 0.0;
    double a = pyhls_dfrom(ua);
    double sl, s = pyhls_cos_of_sin(a, &sl);
    double q = s / a;
    double pe, p = pyhls_two_prod(q, a, &pe);
    double dq = (((s - p) - pe) + sl) / a;
    double lo, h = pyhls_atan_core(q, dq, &lo);
    if (u >> 63) {
        double t = PYHLS_PI_HI - h;
        double e = (PYHLS_PI_HI - t) - h;
        return t + ((e + PYHLS_PI_LO) - lo);
    }
    return h + lo;
}

static inline float pyhls_hypotf(float x, float y) {
    return (float)pyhls_hypot((double)x, (double)y);
}
static inline float pyhls_asinf(float x) { return (float)pyhls_asin((double)x); }
static inline float pyhls_acosf(float x) { return (float)pyhls_acos((double)x); }

/* ------------------------------------------------------------------------ fmod */

/* fmod(x, y), exact: |x| = mx 2^ex, |y| = my 2^ey (integers below 2^53); the remainder
 * of mx 2^(ex - ey) by my by long division, 11 bits an iteration (r < my < 2^53, so
 * r << 11 fits 64 bits): the library's one loop, at most 191 iterations (ex - ey <= 2097) */
static inline double pyhls_fmod(double x, double y) {
    uint64_t ux = pyhls_dbits(x), uy = pyhls_dbits(y);
    uint64_t ax = ux & 0x7fffffffffffffffULL, ay = uy & 0x7fffffffffffffffULL;
    uint64_t sign = ux & 0x8000000000000000ULL;
    if (ax > 0x7ff0000000000000ULL)     /* NaN */
        return x;
    if (ay > 0x7ff0000000000000ULL)
        return y;
    if (ax == 0x7ff0000000000000ULL || ay == 0)   /* fmod(inf, y), fmod(x, 0): a NaN */
        return PYHLS_NAN;
    if (ax < ay)                        /* |x| < |y| (y = inf too): x */
        return x;
    if (ax == ay)
        return pyhls_dfrom(sign);
    int ex = (int)(ax >> 52), ey = (int)(ay >> 52);
    uint64_t mx = ax & 0x000fffffffffffffULL, my = ay & 0x000fffffffffffffULL;
    if (ex) {
        mx |= 1ULL << 52;
    } else {
        ex = 1;                         /* subnormal: the least normal's exponent */
    }
    if (ey) {
        my |= 1ULL << 52;
    } else {
        ey = 1;
    }
    int d = ex - ey;                    /* >= 0 since |x| > |y| */
    uint64_t r = mx % my;
    while (d > 0) {
        int s = d < 11 ? d : 11;
        r = (r << s) % my;
        d -= s;
    }
    if (r == 0)
        return pyhls_dfrom(sign);
    /* r 2^(ey - 1075): exact (the remainder is a multiple of y's last place) */
    int k = ey - 1075, k1 = k >> 1;
    double v = (double)(int64_t)r * pyhls_pow2(k1) * pyhls_pow2(k - k1);
    return sign ? -v : v;
}

/* exact in double, so exact rounded to float */
static inline float pyhls_fmodf(float x, float y) {
    return (float)pyhls_fmod((double)x, (double)y);
}

#endif
