/* ch_dfmul: IEEE-754 binary64 multiplication in 64-bit integer arithmetic only (a whole program
   in the style of CHStone's dfmul, written from the IEEE-754 definition in the manner of
   SoftFloat: sign/exponent/significand, round to nearest even, NaN, infinity, signed zero
   and subnormals).  main() applies f64_mul to 20 operand pairs (bit patterns, special
   values included) and returns the number of results that differ from the expected bit
   patterns, which are the host FPU's a * b (x86-64 SSE: default NaN 0xFFF8000000000000,
   a NaN operand is returned quieted). */

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

#define N 20

static const u64 a_in[N] = {
    0x3FF8000000000000ULL, 0x3FB999999999999AULL, 0xC008000000000000ULL,
    0x6974E718D7D7625AULL, 0x16687E92154EF7ACULL, 0x1EB67E9C127B6E74ULL,
    0x0000000000000001ULL, 0x0000000000000001ULL, 0x000FFFFFFFFFFFFFULL,
    0x0010000000000000ULL, 0x0010000000000000ULL, 0x0000000000000000ULL,
    0x8000000000000000ULL, 0x7FF0000000000000ULL, 0xFFF0000000000000ULL,
    0x7FF8000000000000ULL, 0x3FF0000000000000ULL, 0x7FEFFFFFFFFFFFFFULL,
    0x3FF0000000000001ULL, 0x7E70000000000000ULL,
};

static const u64 b_in[N] = {
    0x4000000000000000ULL, 0x3FB999999999999AULL, 0x401C000000000000ULL,
    0x6974E718D7D7625AULL, 0x16687E92154EF7ACULL, 0x1EB67E9C127B6E74ULL,
    0x3FE0000000000000ULL, 0x3FF8000000000000ULL, 0x4000000000000000ULL,
    0x3FE0000000000000ULL, 0x3FEFFFFFFFFFFFFFULL, 0xC014000000000000ULL,
    0x8000000000000000ULL, 0x0000000000000000ULL, 0xC000000000000000ULL,
    0x4008000000000000ULL, 0x7FF0000000000001ULL, 0x3FF0000000000001ULL,
    0x3FF0000000000001ULL, 0x0000000000000001ULL,
};

static const u64 expected[N] = {
    0x4008000000000000ULL, 0x3F847AE147AE147CULL, 0xC035000000000000ULL,
    0x7FF0000000000000ULL, 0x0000000000000000ULL, 0x00000000000007E8ULL,
    0x0000000000000000ULL, 0x0000000000000002ULL, 0x001FFFFFFFFFFFFEULL,
    0x0008000000000000ULL, 0x0010000000000000ULL, 0x8000000000000000ULL,
    0x0000000000000000ULL, 0xFFF8000000000000ULL, 0x7FF0000000000000ULL,
    0x7FF8000000000000ULL, 0x7FF8000000000001ULL, 0x7FF0000000000000ULL,
    0x3FF0000000000002ULL, 0x3B50000000000000ULL,
};

int main(void)
{
    int mismatches = 0;
    for (int i = 0; i < N; i++) {
        u64 r = f64_mul(a_in[i], b_in[i]);
        if (r != expected[i])
            mismatches++;
    }
    return mismatches;
}
