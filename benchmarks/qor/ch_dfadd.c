/* ch_dfadd: IEEE-754 binary64 addition in 64-bit integer arithmetic only (a whole program
   in the style of CHStone's dfadd, written from the IEEE-754 definition in the manner of
   SoftFloat: sign/exponent/significand, round to nearest even, NaN, infinity, signed zero
   and subnormals).  main() applies f64_add to 46 operand pairs (bit patterns, special
   values included) and returns the number of results that differ from the expected bit
   patterns, which are the host FPU's a + b (x86-64 SSE: default NaN 0xFFF8000000000000,
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

#define N 46

static const u64 a_in[N] = {
    0x3FF0000000000000ULL, 0x3FB999999999999AULL, 0x3FF8000000000000ULL,
    0x4341C37937E08000ULL, 0x3FF0000000000000ULL, 0x3FF0000000000000ULL,
    0xC00A000000000000ULL, 0x7FE1CCF385EBC8A0ULL, 0x7FEFFFFFFFFFFFFFULL,
    0x7FEFFFFFFFFFFFFFULL, 0x0000000000000001ULL, 0x000FFFFFFFFFFFFFULL,
    0x0010000000000000ULL, 0x0010000000000000ULL, 0x0000000000000000ULL,
    0x8000000000000000ULL, 0x0000000000000000ULL, 0x7FF0000000000000ULL,
    0x7FF0000000000000ULL, 0xFFF0000000000000ULL, 0x7FF8000000000000ULL,
    0x4000000000000000ULL, 0x3FF0000000000000ULL, 0x419D6F3454000000ULL,
    0x43B0000000000000ULL, 0x3FF0000000000000ULL, 0x4008000000000000ULL,
    0x000FFFFFFFFFFFFFULL, 0xC0760559FD9089E2ULL, 0x4072DDE73401254CULL,
    0x4051F0E5846214A0ULL, 0xC08BA00467749786ULL, 0xC08CE811C8741B05ULL,
    0xC08AE2502F5EAC8CULL, 0xC062DEC59AE71DB8ULL, 0xC087832B2AC919C1ULL,
    0x406FDBB9EA77F9A0ULL, 0x40634696B5CC54D0ULL, 0x408DC414E99A29E4ULL,
    0x4086677ECEEA5980ULL, 0xC0863BEB2DB6A0D4ULL, 0xC077F094E59EF88EULL,
    0xC083F460BF71E37BULL, 0x40715D3B232F7BECULL, 0x4057DF4AA701C5B0ULL,
    0xC08B86619B99FB18ULL,
};

static const u64 b_in[N] = {
    0x4000000000000000ULL, 0x3FC999999999999AULL, 0xBFF8000000000000ULL,
    0x3FF0000000000000ULL, 0x3CA0000000000000ULL, 0x3CB8000000000000ULL,
    0x4000000000000000ULL, 0x7FE1CCF385EBC8A0ULL, 0x7C90000000000000ULL,
    0x7CA0000000000000ULL, 0x0000000000000001ULL, 0x0000000000000001ULL,
    0x8010000000000000ULL, 0x8018000000000000ULL, 0x8000000000000000ULL,
    0x8000000000000000ULL, 0x4008000000000000ULL, 0x3FF0000000000000ULL,
    0xFFF0000000000000ULL, 0xFFF0000000000000ULL, 0x3FF0000000000000ULL,
    0x7FF0000000000001ULL, 0xBFEFFFFFFFFFFFFFULL, 0xC19D6F3452000000ULL,
    0xBFF0000000000000ULL, 0xBC30000000000000ULL, 0x0000000000000001ULL,
    0x0010000000000000ULL, 0xBF46E1C7611E1B6CULL, 0xC0211A409EE4C4D8ULL,
    0xBF319ABB6B3006A4ULL, 0x3FC3091504B41340ULL, 0xBF2164F679772030ULL,
    0xC0205F19473EA8D6ULL, 0x3F456BAB2FA3E3EEULL, 0xC0162410E5B19902ULL,
    0x3F4D574F44173CF4ULL, 0xC00087F7BF021A4EULL, 0xBF4DB7148EE5533CULL,
    0xC010D4CD43CF010AULL, 0xBF490C61D67585F2ULL, 0x40194A4490D1ED48ULL,
    0x3F2564182319E9E0ULL, 0xC0046A98BE0D27CCULL, 0xBF4CA72F0DCF06A2ULL,
    0xC01785F72F092DCEULL,
};

static const u64 expected[N] = {
    0x4008000000000000ULL, 0x3FD3333333333334ULL, 0x0000000000000000ULL,
    0x4341C37937E08000ULL, 0x3FF0000000000000ULL, 0x3FF0000000000002ULL,
    0xBFF4000000000000ULL, 0x7FF0000000000000ULL, 0x7FF0000000000000ULL,
    0x7FF0000000000000ULL, 0x0000000000000002ULL, 0x0010000000000000ULL,
    0x0000000000000000ULL, 0x8008000000000000ULL, 0x0000000000000000ULL,
    0x8000000000000000ULL, 0x4008000000000000ULL, 0x7FF0000000000000ULL,
    0xFFF8000000000000ULL, 0xFFF0000000000000ULL, 0x7FF8000000000000ULL,
    0x7FF8000000000001ULL, 0x3CA0000000000000ULL, 0x3FE0000000000000ULL,
    0x43B0000000000000ULL, 0x3FF0000000000000ULL, 0x4008000000000000ULL,
    0x001FFFFFFFFFFFFFULL, 0xC076055CD9C97606ULL, 0x407255152F09FF25ULL,
    0x4051F0E11DB339D4ULL, 0xC08B9ED3D6244C45ULL, 0xC08CE8120E07F4EBULL,
    0xC08B23CC947BA72FULL, 0xC062DEC03FFC51CFULL, 0xC087AF734C947CF3ULL,
    0x406FDBC1404BCAA6ULL, 0x40630476D6D04C67ULL, 0x408DC4130E28E0F6ULL,
    0x408645D53462BB7EULL, 0xC0863BECBE7CBE3BULL, 0xC0778B6BD35BB0D9ULL,
    0xC083F46069E182EFULL, 0x40713465F1B3619CULL, 0x4057DF3C536A3EC8ULL,
    0xC08BB56D89F80D74ULL,
};

int main(void)
{
    int mismatches = 0;
    for (int i = 0; i < N; i++) {
        u64 r = f64_add(a_in[i], b_in[i]);
        if (r != expected[i])
            mismatches++;
    }
    return mismatches;
}
