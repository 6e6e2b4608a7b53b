/* pyhls fuzz: batch plain, /usr/bin/csmith --seed 47 --no-argc --no-volatiles --no-volatile-pointers --checksum --concise --max-funcs 4 --max-block-depth 3 --max-block-size 4 --max-expr-complexity 8 --max-array-dim 2 --max-array-len-per-dim 8 --no-pointers --no-structs --no-unions --no-bitfields --no-packed-struct */
// Options:   --seed 47 --no-argc --no-volatiles --no-volatile-pointers --checksum --concise --max-funcs 4 --max-block-depth 3 --max-block-size 4 --max-expr-complexity 8 --max-array-dim 2 --max-array-len-per-dim 8 --no-pointers --no-structs --no-unions --no-bitfields --no-packed-struct
/* csmith_hls.h: pyhls's replacement of Csmith's runtime header (csmith.h).
 *
 * A Csmith program includes "csmith.h"; the fuzzer (hls/fuzz) puts this file in its
 * place, so the program is self-contained and needs nothing from libc:
 *   - main RETURNS the checksum (CRC-32 of every global, as Csmith's main hashes them,
 *     folded to an int) instead of printing it: platform_main_end(c, flag) is
 *     `return (int)(c)`;
 *   - transparent_crc is a bitwise CRC-32 (no table to fill, no printf);
 *   - printf (only reached when print_hash_value is set, which it never is) is a no-op;
 *   - the safe_* arithmetic wrappers are defined here: each returns its first operand
 *     where the C operation would be undefined (overflow of a signed operation, division
 *     by zero, a shift out of range), as Csmith's own runtime does.
 * Written for pyhls; it reuses only the names and the intended semantics of Csmith's
 * runtime interface.
 */
#ifndef PYHLS_CSMITH_HLS_H
#define PYHLS_CSMITH_HLS_H

#include <stdint.h>
#include <limits.h>

/* ---- platform hooks -------------------------------------------------------------- */
#define platform_main_begin() ((void)0)
#define platform_main_end(crc, flag) return (int)(uint32_t)(crc)
#define printf(...) ((void)0)
#define crc32_gentab() ((void)0)

/* ---- checksum -------------------------------------------------------------------- */
static uint32_t crc32_context = 0xFFFFFFFFUL;

static inline void transparent_crc(uint64_t val, const char *vname, int flag)
{
    uint32_t crc = crc32_context;
    int i, j;
    (void)vname;
    (void)flag;
    for (i = 0; i < 8; i++) {
        crc ^= (uint32_t)(val >> (8 * i)) & 0xFFu;
        for (j = 0; j < 8; j++)
            crc = (crc >> 1) ^ (0xEDB88320UL & (0u - (crc & 1u)));
    }
    crc32_context = crc;
}

static inline void transparent_crc_bytes(const char *ptr, int nbytes, const char *vname,
                                         int flag)
{
    int i;
    for (i = 0; i < nbytes; i++)
        transparent_crc((uint8_t)ptr[i], vname, flag);
}

/* ---- safe arithmetic ------------------------------------------------------------- */
/* Signed T (operations on int8/int16 are done in int, so only int32/int64 overflow;
 * WIDE is the width of the promoted type, the bound of a shift count). */
#define PYHLS_SAFE_SIGNED(T, TMIN, TMAX, WIDE)                                               \
static inline T safe_unary_minus_func_##T##_s(T a)                                           \
{ return (TMAX >= INT_MAX && a == TMIN) ? a : -a; }                                          \
static inline T safe_add_func_##T##_s_s(T a, T b)                                            \
{ return (TMAX >= INT_MAX && ((a > 0 && b > 0 && a > TMAX - b) ||                           \
                              (a < 0 && b < 0 && a < TMIN - b))) ? a : (T)(a + b); }          \
static inline T safe_sub_func_##T##_s_s(T a, T b)                                            \
{ return (TMAX >= INT_MAX && ((b < 0 && a > TMAX + b) || (b > 0 && a < TMIN + b)))         \
         ? a : (T)(a - b); }                                                                 \
static inline T safe_mul_func_##T##_s_s(T a, T b)                                            \
{ return (TMAX >= INT_MAX && ((a > 0 && b > 0 && a > TMAX / b) ||                           \
                              (a > 0 && b <= 0 && b < TMIN / a) ||                           \
                              (a <= 0 && b > 0 && a < TMIN / b) ||                           \
                              (a < 0 && b < 0 && b < TMAX / a))) ? a : (T)(a * b); }          \
static inline T safe_mod_func_##T##_s_s(T a, T b)                                            \
{ return (b == 0 || (a == TMIN && b == -1)) ? a : (T)(a % b); }                             \
static inline T safe_div_func_##T##_s_s(T a, T b)                                            \
{ return (b == 0 || (a == TMIN && b == -1)) ? a : (T)(a / b); }                             \
static inline T safe_lshift_func_##T##_s_s(T a, int b)                                       \
{ return (a < 0 || b < 0 || b >= WIDE || a > (TMAX >> b)) ? a : (T)(a << b); }               \
static inline T safe_lshift_func_##T##_s_u(T a, unsigned int b)                              \
{ return (a < 0 || b >= WIDE || a > (TMAX >> b)) ? a : (T)(a << b); }                        \
static inline T safe_rshift_func_##T##_s_s(T a, int b)                                       \
{ return (a < 0 || b < 0 || b >= WIDE) ? a : (T)(a >> b); }                                  \
static inline T safe_rshift_func_##T##_s_u(T a, unsigned int b)                              \
{ return (a < 0 || b >= WIDE) ? a : (T)(a >> b); }

/* Unsigned T (PROMO: at least unsigned int, so uint16 * uint16 cannot overflow int). */
#define PYHLS_SAFE_UNSIGNED(T, TMAX, WIDE, PROMO)                                            \
static inline T safe_unary_minus_func_##T##_u(T a) { return (T)(0u - (PROMO)a); }           \
static inline T safe_add_func_##T##_u_u(T a, T b) { return (T)((PROMO)a + (PROMO)b); }      \
static inline T safe_sub_func_##T##_u_u(T a, T b) { return (T)((PROMO)a - (PROMO)b); }      \
static inline T safe_mul_func_##T##_u_u(T a, T b) { return (T)((PROMO)a * (PROMO)b); }      \
static inline T safe_mod_func_##T##_u_u(T a, T b) { return b == 0 ? a : (T)(a % b); }       \
static inline T safe_div_func_##T##_u_u(T a, T b) { return b == 0 ? a : (T)(a / b); }       \
static inline T safe_lshift_func_##T##_u_s(T a, int b)                                       \
{ return (b < 0 || b >= WIDE || a > (TMAX >> b)) ? a : (T)(a << b); }                        \
static inline T safe_lshift_func_##T##_u_u(T a, unsigned int b)                              \
{ return (b >= WIDE || a > (TMAX >> b)) ? a : (T)(a << b); }                                 \
static inline T safe_rshift_func_##T##_u_s(T a, int b)                                       \
{ return (b < 0 || b >= WIDE) ? a : (T)(a >> b); }                                           \
static inline T safe_rshift_func_##T##_u_u(T a, unsigned int b)                              \
{ return b >= WIDE ? a : (T)(a >> b); }

PYHLS_SAFE_SIGNED(int8_t, INT8_MIN, INT8_MAX, 32)
PYHLS_SAFE_SIGNED(int16_t, INT16_MIN, INT16_MAX, 32)
PYHLS_SAFE_SIGNED(int32_t, INT32_MIN, INT32_MAX, 32)
PYHLS_SAFE_SIGNED(int64_t, INT64_MIN, INT64_MAX, 64)
PYHLS_SAFE_UNSIGNED(uint8_t, UINT8_MAX, 32, unsigned int)
PYHLS_SAFE_UNSIGNED(uint16_t, UINT16_MAX, 32, unsigned int)
PYHLS_SAFE_UNSIGNED(uint32_t, UINT32_MAX, 32, unsigned int)
PYHLS_SAFE_UNSIGNED(uint64_t, UINT64_MAX, 64, uint64_t)

#endif /* PYHLS_CSMITH_HLS_H */

static long __undefined;



static int32_t g_2 = (-7L);
static int16_t g_22 = 0L;
static uint32_t g_24[8] = {4294967295UL,4294967295UL,4294967295UL,4294967295UL,4294967295UL,4294967295UL,4294967295UL,4294967295UL};
static uint32_t g_66 = 18446744073709551615UL;
static int16_t g_81 = 0x8934L;
static int8_t g_89[2][2] = {{5L,5L},{5L,5L}};
static int16_t g_105 = 0xD7ECL;
static uint32_t g_120 = 0UL;
static int64_t g_123 = 1L;
static uint64_t g_148[6][6] = {{0x9FD8A59CA4D4997DLL,18446744073709551609UL,9UL,0xBCC5AAFB2D28ECC6LL,0xBCC5AAFB2D28ECC6LL,9UL},{18446744073709551609UL,18446744073709551609UL,0x76B20C9ACA79523BLL,0x9FD8A59CA4D4997DLL,0xEE913E1DE84E00C6LL,0xBCC5AAFB2D28ECC6LL},{0x8BF6E466303744F0LL,0x9F8FA16B15256D7ELL,0xDB3BB4DD17DDF175LL,0x76B20C9ACA79523BLL,1UL,0x76B20C9ACA79523BLL},{0xDB3BB4DD17DDF175LL,0x8BF6E466303744F0LL,0xDB3BB4DD17DDF175LL,18446744073709551615UL,18446744073709551609UL,0xBCC5AAFB2D28ECC6LL},{0xB0F277706B8BA938LL,18446744073709551615UL,0x76B20C9ACA79523BLL,18446744073709551615UL,9UL,9UL},{18446744073709551615UL,9UL,9UL,18446744073709551615UL,0x8BF6E466303744F0LL,0x9F8FA16B15256D7ELL}};
static uint8_t g_176 = 250UL;
static uint8_t g_194 = 0xB2L;
static uint32_t g_209 = 0x9B3CD100L;
static int8_t g_210 = 0xB2L;
static uint16_t g_254 = 0xBF97L;
static uint64_t g_278[6] = {0x346F2252D0A6261BLL,0x346F2252D0A6261BLL,0x346F2252D0A6261BLL,0x346F2252D0A6261BLL,0x346F2252D0A6261BLL,0x346F2252D0A6261BLL};
static uint64_t g_312 = 18446744073709551612UL;
static uint32_t g_348 = 1UL;
static uint8_t g_372 = 0xC6L;
static uint8_t g_374 = 0UL;
static int64_t g_377 = 0x2DA0952D26FEDE40LL;
static uint8_t g_378 = 0x6CL;
static uint16_t g_383 = 0x4527L;
static int64_t g_416 = 0x6627D5DB6B6C4DFBLL;
static uint32_t g_442[8] = {0UL,0UL,0UL,0UL,0UL,0UL,0UL,0UL};
static int64_t g_444[7][1] = {{0L},{0L},{0L},{0L},{0L},{0L},{0L}};
static int64_t g_445[3] = {0L,0L,0L};
static int64_t g_446[4] = {0x08F6A8A630E985F4LL,0x08F6A8A630E985F4LL,0x08F6A8A630E985F4LL,0x08F6A8A630E985F4LL};
static uint32_t g_450 = 2UL;
static int32_t g_469 = 0x66F7E101L;
static uint32_t g_471 = 0x4EE8857FL;
static int8_t g_485 = 1L;
static int16_t g_518 = 0xB7ABL;
static int16_t g_522 = 0xAE9DL;
static uint16_t g_523 = 0UL;



static int32_t  func_1(void);
static uint32_t  func_12(uint16_t  p_13, uint64_t  p_14, uint64_t  p_15);
static int32_t  func_27(uint16_t  p_28, uint32_t  p_29, int64_t  p_30);
static uint16_t  func_31(int32_t  p_32, const int32_t  p_33);




static int32_t  func_1(void)
{ 
    int32_t l_5 = 0L;
    int32_t l_470[4];
    int i;
    for (i = 0; i < 4; i++)
        l_470[i] = (-1L);
    for (g_2 = 5; (g_2 <= 29); g_2++)
    { 
        uint32_t l_18 = 0UL;
        int32_t l_21 = 0L;
        int32_t l_23 = (-1L);
        int32_t l_466[5][1];
        int64_t l_516 = 0x4006492C96C9EC02LL;
        uint32_t l_521 = 1UL;
        int i, j;
        for (i = 0; i < 5; i++)
        {
            for (j = 0; j < 1; j++)
                l_466[i][j] = 0x9EF5ABE5L;
        }
        l_5 = g_2;
        if ((safe_mul_func_uint8_t_u_u(0x8AL, (g_2 , (((safe_lshift_func_uint8_t_u_u(g_2, (l_466[0][0] |= (safe_mul_func_uint16_t_u_u(((-1L) >= (func_12((safe_add_func_int16_t_s_s((l_18 , (g_24[4] = ((0x012AF048L == (safe_div_func_uint32_t_u_u((((l_23 = (g_22 |= ((l_21 &= l_18) < g_2))) || 8L) || 0x29855EECL), g_2))) > g_2))), 65535UL)), g_2, l_5) & g_2)), l_5))))) & l_18) , 255UL)))))
        { 
            int8_t l_481 = (-1L);
            int32_t l_484 = (-1L);
            if (l_5)
                break;
            for (l_18 = 0; (l_18 != 52); l_18 = safe_add_func_uint64_t_u_u(l_18, 1))
            { 
                g_471--;
                l_470[0] = ((((safe_lshift_func_uint16_t_u_u((((++g_278[5]) <= (!(((((l_470[0] , l_470[0]) > (l_484 &= (safe_mul_func_int8_t_s_s((l_481 > g_377), (0xB217L || (((safe_lshift_func_int16_t_s_s(g_442[3], l_470[0])) , l_481) < g_66)))))) , 0x4AF8L) & 65534UL) , l_484))) < g_471), 9)) != l_18) ^ 0x8F4C374DF2F93B74LL) > g_123);
            }
            g_485 |= g_120;
            l_21 = (safe_rshift_func_int8_t_s_s((g_89[1][0] = ((safe_rshift_func_int8_t_s_u((safe_unary_minus_func_int16_t_s(l_484)), 0)) && l_484)), (safe_sub_func_int8_t_s_s(l_466[3][0], g_2))));
        }
        else
        { 
            int32_t l_519 = 0x908CE7FDL;
            const int32_t l_520 = 0xF84215D6L;
            for (l_23 = 0; (l_23 <= 12); ++l_23)
            { 
                uint64_t l_495 = 0xE5DD4CD90FE9BA69LL;
                int32_t l_500 = 0xEA580873L;
                int8_t l_508 = 5L;
                int32_t l_517 = 0x9B607816L;
                l_495 = (-1L);
                g_522 = ((((safe_div_func_int64_t_s_s((safe_rshift_func_uint16_t_u_s((((l_500 = g_176) & ((safe_mul_func_uint8_t_u_u((+((g_518 &= (safe_mod_func_uint16_t_u_u((safe_rshift_func_int16_t_s_u(((((((((l_508 && (!(((((((safe_rshift_func_uint16_t_u_u(g_89[0][0], g_278[4])) && (safe_sub_func_int16_t_s_s((safe_rshift_func_uint16_t_u_s(g_442[3], ((l_18 ^ (((l_508 & l_516) | 0x1284L) && 0xB8112128D7BF2D8ELL)) | 0x516C40D3L))), l_470[2]))) & 3L) ^ l_470[1]) >= g_374) & 0L) | l_495))) , (-1L)) > l_23) & g_123) > l_470[0]) & 1UL) != l_495) && 0x5572CC66FCCE9865LL), l_470[3])), l_517))) > l_470[3])), g_24[6])) , l_470[3])) , l_519), g_210)), g_377)) != 0xF866L) && l_520) , l_521);
            }
            g_523 = 6L;
        }
    }
    return l_470[0];
}



static uint32_t  func_12(uint16_t  p_13, uint64_t  p_14, uint64_t  p_15)
{ 
    uint32_t l_59 = 1UL;
    int32_t l_134 = 0x1CD03AD1L;
    int32_t l_173 = 1L;
    int32_t l_255 = 0x518C595BL;
    int16_t l_345 = 0x5B3CL;
    const int8_t l_386[3] = {0xD7L,0xD7L,0xD7L};
    int8_t l_425 = 2L;
    int i;
lbl_258:
    for (p_14 = 5; (p_14 != 5); p_14 = safe_add_func_uint16_t_u_u(p_14, 4))
    { 
        int16_t l_132[1];
        int32_t l_133[1];
        int32_t l_136 = 0xE24BE3DFL;
        int32_t l_193 = 0xAFED2E4DL;
        uint8_t l_208[8][3] = {{0xE4L,0xE4L,0x30L},{0UL,0x30L,0x30L},{0x30L,0UL,6UL},{0UL,0UL,0UL},{0xE4L,0x30L,6UL},{0xE4L,0xE4L,0x30L},{0UL,0x30L,0x30L},{0x30L,0UL,6UL}};
        uint16_t l_224 = 0xE176L;
        int i, j;
        for (i = 0; i < 1; i++)
            l_132[i] = 0x97E4L;
        for (i = 0; i < 1; i++)
            l_133[i] = 0L;
        if (func_27(func_31(g_24[6], (safe_rshift_func_int16_t_s_u(g_24[1], 6))), (((g_2 == g_24[0]) >= ((0x50041AC5L ^ ((!(safe_lshift_func_int8_t_s_s((safe_mul_func_int8_t_s_s((((safe_div_func_int8_t_s_s(p_15, l_59)) > p_13) , 1L), l_59)), g_24[6]))) != 0xA6B86D5672FEE613LL)) & 0UL)) && g_2), p_13))
        { 
            uint64_t l_135[7][8] = {{1UL,1UL,18446744073709551615UL,0x38E84D41463B2593LL,0xBA79B21912DA420BLL,0UL,0x9F24F76BCC78BB94LL,0xBB7C98E3433B3C15LL},{0x63C4F9E1A8ADBC88LL,2UL,0x013A5848C36732C9LL,0UL,0x19573BD0DCC65903LL,0x40E94E8F9E78BCBBLL,1UL,0xBB7C98E3433B3C15LL},{2UL,0xDDFF55CBB879D152LL,0x91ED130E403E3ABELL,0x38E84D41463B2593LL,18446744073709551615UL,0x38E84D41463B2593LL,0x91ED130E403E3ABELL,0xDDFF55CBB879D152LL},{0xC609C17E67F6E1A6LL,18446744073709551615UL,18446744073709551615UL,0xA2FE657869F8A89CLL,0x7D55596E0544DDA6LL,0x0BD5792D6E4BE99DLL,0xDDFF55CBB879D152LL,0x40E94E8F9E78BCBBLL},{1UL,0x013A5848C36732C9LL,0xBB7C98E3433B3C15LL,0x91ED130E403E3ABELL,0xC609C17E67F6E1A6LL,0x6FFDE101195FD4EELL,0xDDFF55CBB879D152LL,0xBA79B21912DA420BLL},{18446744073709551615UL,0x91ED130E403E3ABELL,18446744073709551615UL,0x0BD5792D6E4BE99DLL,0x0BD5792D6E4BE99DLL,18446744073709551615UL,0x91ED130E403E3ABELL,18446744073709551615UL},{0x0BD5792D6E4BE99DLL,18446744073709551615UL,0x91ED130E403E3ABELL,18446744073709551615UL,1UL,0xA2FE657869F8A89CLL,1UL,0x63C4F9E1A8ADBC88LL}};
            int32_t l_174 = 0xF6A3D26EL;
            int i, j;
            l_136 = (safe_mod_func_uint64_t_u_u((((g_24[4] ^= ((safe_mod_func_uint8_t_u_u((((safe_mul_func_uint8_t_u_u(p_15, (((l_133[0] = (safe_add_func_int64_t_s_s(l_132[0], p_14))) || (-1L)) , g_120))) | ((l_134 = (p_15 <= 0x13L)) && p_14)) == l_132[0]), l_135[3][6])) < 0xB4EEC52D1EAB3F10LL)) < p_13) | g_22), p_13));
            l_133[0] = (safe_sub_func_uint32_t_u_u(((g_89[1][0] = (((safe_sub_func_int64_t_s_s((0x9BD9ED47L || p_15), (safe_mul_func_int16_t_s_s(((((l_135[3][6] < g_24[4]) >= g_81) | ((+((((g_148[1][2] = (((safe_rshift_func_uint16_t_u_s(l_132[0], 6)) > ((safe_mod_func_int16_t_s_s((((l_134 = g_89[1][0]) & l_135[3][6]) <= g_24[7]), p_14)) & g_2)) && p_15)) , (-9L)) && l_135[2][5]) > p_15)) , p_15)) <= l_59), p_13)))) >= g_24[6]) >= 0xEFL)) > 0xDEL), p_13));
            l_136 = ((4L <= (l_174 = (safe_sub_func_uint32_t_u_u((l_173 |= (g_81 != ((((-1L) | (g_89[1][0] ^= ((((safe_add_func_uint16_t_u_u((((safe_mul_func_uint8_t_u_u((((safe_mul_func_int16_t_s_s(((((g_123 = (safe_mul_func_uint16_t_u_u(((safe_rshift_func_int8_t_s_u(p_13, (((((((safe_mul_func_int8_t_s_s((l_133[0] & (safe_lshift_func_int8_t_s_u((((safe_lshift_func_int16_t_s_s((g_148[4][2] && ((safe_lshift_func_uint16_t_u_s((l_134 = (((((!(safe_lshift_func_int16_t_s_u((+1L), g_24[7]))) || g_24[4]) , g_120) , p_13) , 65528UL)), 0)) >= 1L)), 4)) || l_59) >= p_13), g_81))), (-1L))) && g_123) ^ 0L) == l_59) > 18446744073709551615UL) , l_134) || 0x4AC7E9961A22EE4FLL))) | p_15), g_24[6]))) , 0x7762CD2BL) || l_135[3][0]) <= p_15), g_66)) ^ p_13) != 0x5CL), p_14)) >= p_14) , l_59), 65529UL)) , g_120) == g_66) < g_24[1]))) , l_132[0]) , 0xF3C4L))), l_135[3][6])))) , l_59);
            if (g_2)
                continue;
        }
        else
        { 
            uint32_t l_175 = 5UL;
            int32_t l_200 = 0xE6E4037CL;
            int32_t l_212[8][6] = {{0xA0710ADEL,(-9L),(-5L),(-5L),(-9L),0xA0710ADEL},{0xA0710ADEL,0L,(-1L),(-5L),0L,(-5L)},{0xA0710ADEL,0x4DA7076BL,0xA0710ADEL,(-5L),0x4DA7076BL,(-1L)},{0xA0710ADEL,(-9L),(-5L),(-5L),(-9L),0xA0710ADEL},{0xA0710ADEL,0L,(-1L),(-5L),0L,(-5L)},{0xA0710ADEL,0x4DA7076BL,0xA0710ADEL,(-5L),0x4DA7076BL,(-1L)},{0xA0710ADEL,(-9L),(-5L),(-5L),(-9L),0xA0710ADEL},{0xA0710ADEL,0L,(-1L),(-5L),0L,(-5L)}};
            int i, j;
            if (l_175)
            { 
                uint32_t l_192[8];
                int i;
                for (i = 0; i < 8; i++)
                    l_192[i] = 0x69D0CB17L;
                --g_176;
                g_194 = (((((safe_mul_func_int16_t_s_s((l_136 = (-7L)), (safe_add_func_uint16_t_u_u((safe_div_func_uint32_t_u_u((0x2A51713180A2A8B5LL > ((~4UL) | (safe_sub_func_int16_t_s_s((safe_div_func_int64_t_s_s(((l_175 , (((g_22 > ((((safe_mul_func_int8_t_s_s(((p_14 ^ l_134) || g_105), p_13)) < 0x174BL) | g_89[1][0]) == l_173)) & p_15) == g_2)) , p_14), 0xA19CEE7FFB06713FLL)), g_81)))), l_192[5])), g_24[4])))) | l_175) && l_192[5]) && l_193) == g_2);
            }
            else
            { 
                int8_t l_199 = 0x5BL;
                int16_t l_211 = (-4L);
                l_173 = p_15;
                l_212[4][3] = (safe_lshift_func_uint16_t_u_s(((safe_lshift_func_int16_t_s_u((((g_210 ^= (g_209 ^= ((((l_200 = (g_148[4][3] , l_199)) | ((l_133[0] <= (safe_unary_minus_func_int16_t_s(((safe_div_func_int16_t_s_s((g_66 == ((((((safe_rshift_func_int16_t_s_s((0x3DL || l_133[0]), (safe_sub_func_int32_t_s_s(g_2, g_24[4])))) < l_199) >= 0x5FL) && 0xDCF5DE51L) > 4294967292UL) | 0x41282EE7A02D44F0LL)), l_133[0])) <= l_208[5][2])))) | l_175)) != g_194) > g_2))) && p_15) <= 0xEBL), g_194)) >= 1L), l_211));
                l_134 |= (((safe_lshift_func_uint8_t_u_s((l_211 >= ((safe_rshift_func_uint16_t_u_s((safe_rshift_func_int8_t_s_u((safe_sub_func_int8_t_s_s(((((safe_mul_func_int16_t_s_s((p_14 <= 1L), (p_13 | ((+(g_22 = l_199)) == 0xB702C53A9CDA35C1LL)))) || ((g_148[1][2] | 18446744073709551615UL) & l_199)) || l_224) ^ 0xCD7CD444B73ACF91LL), g_24[4])), 1)), 10)) > p_14)), 3)) <= 1L) || p_14);
            }
        }
    }
    if ((safe_mod_func_uint16_t_u_u(((safe_rshift_func_int8_t_s_u((safe_mod_func_uint8_t_u_u(((l_134 = (((safe_mod_func_int32_t_s_s((safe_add_func_int16_t_s_s(((0x15B96B6CL > ((p_14 == (++g_148[1][2])) , (0xF6058DFBL < 0xB36E39BBL))) , ((l_173 |= ((g_176 = (((((((safe_rshift_func_uint16_t_u_u((safe_div_func_uint16_t_u_u((g_254 |= (safe_mul_func_uint16_t_u_u(((safe_div_func_int32_t_s_s(((safe_mod_func_uint16_t_u_u((~0UL), (safe_div_func_int8_t_s_s(g_66, (safe_sub_func_uint16_t_u_u((safe_sub_func_uint32_t_u_u((g_148[1][2] & l_134), l_59)), 5UL)))))) , g_81), 0x43408DA1L)) && p_13), g_22))), p_13)), 5)) > 0xF32BL) | g_89[0][0]) <= 0xE0L) || 65535UL) < p_13) , l_134)) , p_15)) , l_134)), g_89[0][1])), 0x26F6AAEEL)) , p_14) | g_24[4])) & p_15), l_255)), 5)) & l_255), 0xDF58L)))
    { 
        uint32_t l_270[7][2] = {{0xBF83E070L,0UL},{0UL,0xBF83E070L},{0UL,0UL},{0xBF83E070L,0UL},{0UL,0xBF83E070L},{0UL,0UL},{0xBF83E070L,0UL}};
        int32_t l_281[3][6] = {{0L,0L,0L,0L,0L,0L},{0L,0L,0L,0L,0L,0L},{0L,0L,0L,0L,0L,0L}};
        const int16_t l_288[4] = {(-7L),(-7L),(-7L),(-7L)};
        uint16_t l_373 = 8UL;
        int32_t l_381 = 0x4C743066L;
        int i, j;
        for (p_14 = 0; (p_14 != 28); p_14 = safe_add_func_uint64_t_u_u(p_14, 7))
        { 
            uint32_t l_263 = 0UL;
            if (p_14)
                break;
            if (g_22)
                goto lbl_258;
            l_173 = (safe_sub_func_uint32_t_u_u(0UL, (safe_mod_func_uint8_t_u_u(l_263, (safe_mul_func_uint8_t_u_u((g_194 &= (safe_lshift_func_int16_t_s_s((g_81 = (((g_24[4] > l_270[2][0]) < g_105) < ((safe_div_func_int16_t_s_s((((l_270[2][0] && 0xD3DBA2F4L) && l_173) > g_89[0][0]), 1UL)) >= l_263))), 4))), p_13))))));
        }
        g_278[5] = (safe_unary_minus_func_int8_t_s((safe_mul_func_uint16_t_u_u(((safe_lshift_func_int16_t_s_s(g_120, 15)) && p_15), l_270[2][0]))));
        if (((((safe_add_func_uint8_t_u_u(((l_281[0][5] = l_173) >= (g_254++)), ((safe_sub_func_uint16_t_u_u((safe_lshift_func_int8_t_s_s(((l_288[0] == (p_13 , 0xFDD12565L)) | (((safe_mul_func_int16_t_s_s((g_81 = ((safe_div_func_int16_t_s_s(l_255, ((((g_209 = (g_148[2][1] > (g_176 = (safe_lshift_func_int16_t_s_s(((safe_mod_func_uint8_t_u_u(((1UL > g_120) > g_66), p_14)) && g_278[4]), p_14))))) != g_89[1][0]) >= g_24[5]) , g_22))) <= 5UL)), 65533UL)) != 0x44FFL) , p_15)), g_24[4])), g_123)) <= p_15))) , g_194) | 1UL) ^ p_14))
        { 
            uint32_t l_319 = 0xD3FC1C1DL;
            int32_t l_347[6][2] = {{0x9C1F7F4DL,0x81134506L},{0x81134506L,0x9C1F7F4DL},{0x81134506L,0x81134506L},{0x9C1F7F4DL,0x81134506L},{0x81134506L,0x9C1F7F4DL},{0x81134506L,0x81134506L}};
            int i, j;
            for (p_13 = 21; (p_13 >= 13); p_13--)
            { 
                int8_t l_299 = 0xD0L;
                if (l_299)
                    break;
            }
            if ((safe_div_func_int8_t_s_s(((((safe_add_func_int64_t_s_s((safe_rshift_func_uint8_t_u_u(g_278[2], (g_22 < (safe_lshift_func_int16_t_s_s((g_105 &= (1L || (safe_mul_func_uint16_t_u_u(((((safe_sub_func_uint64_t_u_u(p_13, (g_123 >= 0x3601L))) != ((g_254 |= (g_176 > 65530UL)) >= 0x775BL)) < l_255) || 2UL), l_281[2][2])))), g_148[1][2]))))), 0x5234795880F0426ALL)) == p_14) == g_278[0]) || 0xFA71F3DFE33E5924LL), g_210)))
            { 
                uint32_t l_344 = 5UL;
                int32_t l_346 = 0x49E5E3E7L;
                int32_t l_370 = 1L;
                int32_t l_371 = (-4L);
                ++g_312;
                l_281[0][5] = ((((safe_sub_func_int16_t_s_s(((safe_mod_func_uint8_t_u_u(1UL, l_319)) > (safe_sub_func_uint8_t_u_u((safe_div_func_uint16_t_u_u(65531UL, 0x9B6BL)), (safe_lshift_func_uint16_t_u_u(((safe_sub_func_int16_t_s_s((((-1L) && 0x4BL) > (safe_sub_func_int8_t_s_s(((safe_div_func_uint64_t_u_u((0x6A35L ^ l_319), l_319)) ^ g_209), g_209))), l_319)) > (-4L)), 11))))), 65535UL)) && g_2) != (-1L)) == l_173);
                g_348 = (safe_rshift_func_uint8_t_u_u(((safe_rshift_func_uint8_t_u_u(((safe_sub_func_int8_t_s_s((-1L), (l_347[1][0] = (l_346 ^= (safe_mod_func_uint16_t_u_u((g_176 || (l_319 , (l_345 = ((-1L) != (((((safe_mod_func_uint8_t_u_u((l_344 = ((0x971BCC6F9AE73C09LL & 0x686306A98A280A01LL) > (g_312 | g_120))), 0x53L)) , 0x170F00AB02329175LL) != p_15) <= 0x214BE4D71671EE6FLL) != p_15))))), l_319)))))) , g_278[5]), g_278[4])) && l_288[0]), p_13));
                l_373 = ((+(((l_319 != (l_173 = ((safe_lshift_func_int8_t_s_u(0x90L, (--g_176))) ^ (l_371 |= (safe_mod_func_uint8_t_u_u(((((safe_lshift_func_int8_t_s_u((((((safe_rshift_func_int8_t_s_u((((safe_lshift_func_uint8_t_u_s((safe_add_func_uint8_t_u_u((safe_mul_func_uint16_t_u_u(((((l_134 = p_15) < (((g_24[1] , ((safe_sub_func_int32_t_s_s(((((((p_14 = (((l_255 &= p_14) , (g_210 && (((safe_lshift_func_uint16_t_u_s((p_14 >= 0xE9A3CA292C396BA7LL), 15)) & p_14) , p_15))) , 3UL)) && g_24[4]) , 0xFF7034F8L) | p_13) , 0x33247413L) , 6L), 0L)) ^ 0x7C8FF3749C9A20B8LL)) == l_370) || g_22)) < g_2) & 65535UL), 1L)), 0L)), p_15)) & 0xF7L) , 0x54L), l_347[1][0])) > p_13) || g_66) < 0x5D0FD5C3L) , 1L), l_288[2])) < l_345) != p_15) | l_346), l_370)))))) == g_372) & l_347[2][1])) , g_148[1][2]);
            }
            else
            { 
                --g_374;
                return g_2;
            }
            --g_378;
            l_381 = (1L <= (l_281[0][2] = 0xDCL));
        }
        else
        { 
            int16_t l_382 = 8L;
            for (g_120 = 0; (g_120 <= 5); g_120 += 1)
            { 
                return l_382;
            }
            g_383++;
            if (l_134)
                goto lbl_258;
            l_281[2][0] ^= l_386[2];
        }
    }
    else
    { 
        uint32_t l_387 = 3UL;
        int32_t l_413 = 0x22779326L;
        int32_t l_415 = (-1L);
        l_387 = g_372;
        for (g_22 = 5; (g_22 >= 0); g_22 -= 1)
        { 
            uint64_t l_414 = 8UL;
            int32_t l_443 = 0xE6F69B1EL;
            int32_t l_465 = 1L;
            g_416 = ((safe_rshift_func_uint16_t_u_u(0xEB26L, 12)) | ((safe_mul_func_uint16_t_u_u((g_383 = (safe_div_func_int16_t_s_s((safe_add_func_int64_t_s_s((l_415 = (safe_lshift_func_int8_t_s_u((g_210 ^= ((((l_255 | ((safe_div_func_uint8_t_u_u((g_148[1][2] && ((safe_sub_func_uint32_t_u_u((l_413 = (!(safe_add_func_uint64_t_u_u(((0xF3L <= (p_14 | (safe_div_func_uint64_t_u_u((g_348 && (safe_add_func_int8_t_s_s((safe_sub_func_uint32_t_u_u((((safe_lshift_func_uint16_t_u_s(1UL, 6)) >= p_15) == l_387), g_176)), g_176))), g_89[1][0])))) > g_254), p_13)))), 1UL)) | 0xB6ED1CEAL)), l_414)) < l_386[2])) < p_15) && 65535UL) < l_414)), g_81))), (-6L))), p_14))), 0x1F81L)) ^ g_148[1][5]));
            if (((safe_add_func_int64_t_s_s(((((safe_div_func_int8_t_s_s(((safe_mod_func_int32_t_s_s((l_443 = (safe_sub_func_uint32_t_u_u(((++g_374) || (--g_374)), ((l_386[2] , ((g_24[3] |= (((safe_div_func_uint64_t_u_u((safe_mod_func_int16_t_s_s((g_105 = (9L != (safe_mod_func_uint32_t_u_u((safe_rshift_func_uint16_t_u_u(l_425, 6)), (g_312 ^ (safe_add_func_int32_t_s_s((safe_mod_func_int64_t_s_s(p_15, 0xB807C01A6B60F661LL)), l_414))))))), p_14)), 0x39C388BF9757650ELL)) , 0xD12819382AD20D30LL) | g_194)) & 0x6D43038DL)) <= g_442[3])))), 0x02A9F155L)) , (-9L)), p_15)) != g_210) | g_194) ^ g_377), l_386[2])) | l_415))
            { 
                g_444[0][0] = (l_443 ^= 0xB5CE9AB9L);
                return p_13;
            }
            else
            { 
                uint64_t l_447 = 0UL;
                l_447--;
                if (l_447)
                    continue;
                g_450 = g_81;
            }
            for (g_81 = 4; (g_81 >= 1); g_81 -= 1)
            { 
                int32_t l_454 = 0xB1DF407FL;
                int i, j;
                l_454 &= ((+9L) != ((safe_mod_func_int32_t_s_s((-5L), g_148[(g_81 + 1)][g_22])) < 0x1FA6C8D04AA16204LL));
                if (g_24[0])
                    continue;
                l_255 = g_374;
                l_465 = (((l_255 = 0x09A07D6FL) <= (safe_add_func_uint64_t_u_u(((g_194 &= (p_13 ^ (l_443 = ((p_14 != ((safe_sub_func_uint64_t_u_u((0xF30F5FABB3360B85LL >= (safe_lshift_func_int16_t_s_u((g_445[2] || (safe_lshift_func_uint16_t_u_s(g_278[0], (safe_rshift_func_int16_t_s_u((g_105 = l_387), l_415))))), 3))), p_13)) ^ g_445[0])) <= g_2)))) != l_134), g_442[3]))) , 0L);
            }
        }
    }
    return g_210;
}



static int32_t  func_27(uint16_t  p_28, uint32_t  p_29, int64_t  p_30)
{ 
    int16_t l_65[1][8] = {{0x066EL,0x066EL,0x066EL,0x066EL,0x066EL,0x066EL,0x066EL,0x066EL}};
    int32_t l_84 = 0x334FE9DEL;
    int32_t l_85 = 0L;
    int8_t l_86 = 0xC8L;
    uint32_t l_87 = 0xB71DEE15L;
    int8_t l_88 = 4L;
    uint8_t l_108 = 0x8CL;
    int8_t l_109[4][7] = {{0x7FL,0xE2L,0x7FL,0xE2L,0x7FL,0xE2L,0x7FL},{0x03L,0x03L,0x24L,0x24L,0x03L,0x03L,0x24L},{0xB7L,0xE2L,0xB7L,0xE2L,0xB7L,0xE2L,0xB7L},{0x03L,0x24L,0x24L,0x03L,0x03L,0x24L,0x24L}};
    uint16_t l_121 = 65535UL;
    int32_t l_122 = 0x4A64B928L;
    int i, j;
    g_89[1][0] = (safe_mul_func_uint8_t_u_u((~(safe_mul_func_int16_t_s_s(((p_28 , g_24[5]) < (p_29 == (--g_66))), ((((((safe_mod_func_int64_t_s_s(0xFF9B11162BCA918CLL, (safe_mod_func_int64_t_s_s((((safe_lshift_func_uint8_t_u_s((safe_add_func_int32_t_s_s((safe_lshift_func_int8_t_s_s(g_2, (l_85 = (safe_div_func_int16_t_s_s((((g_81 &= 0xA5EA8900E2E800BCLL) || (safe_lshift_func_int8_t_s_u(g_24[6], 3))) , l_84), l_65[0][2]))))), 3L)), l_86)) > l_87) <= 0x57L), l_88)))) ^ l_88) <= p_29) , 65530UL) < g_24[2]) || l_65[0][2])))), p_28));
    l_85 = (g_89[1][0] != 1UL);
    l_85 = ((safe_add_func_uint32_t_u_u((safe_sub_func_int8_t_s_s(((safe_mod_func_int64_t_s_s((g_105 = ((((safe_mul_func_uint64_t_u_u(p_29, ((g_2 , ((g_89[0][1] = 7L) || (((((safe_rshift_func_int16_t_s_u(g_24[4], (safe_lshift_func_uint16_t_u_s(p_29, 0)))) || ((safe_unary_minus_func_uint32_t_u(1UL)) != ((g_89[0][0] , l_65[0][7]) | l_86))) == 0x02FCEF8C34F7C350LL) <= 0x5B3423B0L) , g_66))) != l_86))) > 0L) & g_24[5]) || l_87)), 0xC89D8701E4A26432LL)) | p_28), l_65[0][6])), l_84)) < (-1L));
    g_123 &= ((l_122 = ((safe_sub_func_int32_t_s_s((l_108 == l_109[3][2]), (2L ^ ((((safe_rshift_func_int8_t_s_u((l_85 ^= (g_105 <= g_66)), ((safe_lshift_func_int8_t_s_u(((safe_mul_func_uint16_t_u_u((0L <= (safe_sub_func_uint32_t_u_u((safe_rshift_func_uint16_t_u_u((p_28 ^= (g_120 &= ((0xDBD8298C9807A6E4LL != l_87) | g_81))), 9)), l_88))), p_29)) ^ 0x0AL), g_2)) ^ p_29))) < l_121) | g_66) != g_24[7])))) > g_105)) <= g_105);
    return g_120;
}



static uint16_t  func_31(int32_t  p_32, const int32_t  p_33)
{ 
    uint16_t l_42 = 0x3279L;
    int32_t l_44 = 0L;
    int32_t l_45 = 0xB7D869E7L;
    int32_t l_50 = 8L;
    int32_t l_51 = 8L;
    l_51 = (safe_rshift_func_int8_t_s_u((safe_div_func_int64_t_s_s((l_50 = ((((safe_sub_func_int32_t_s_s(l_42, (0UL ^ 0xC259DBA5L))) , (l_44 = (l_42 , (~((g_22 &= l_44) | (l_45 |= p_32)))))) , (safe_lshift_func_int16_t_s_u((((((safe_add_func_uint64_t_u_u(g_24[0], 0UL)) != g_24[4]) != g_24[4]) && 3UL) && 0x5DA1F7977F45A323LL), l_42))) == l_42)), 0x7E13251F81F13D46LL)), 0));
    return p_32;
}





int main (void)
{
    int i, j;
    int print_hash_value = 0;
    platform_main_begin();
    crc32_gentab();
    func_1();
    transparent_crc(g_2, "g_2", print_hash_value);
    transparent_crc(g_22, "g_22", print_hash_value);
    for (i = 0; i < 8; i++)
    {
        transparent_crc(g_24[i], "g_24[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_66, "g_66", print_hash_value);
    transparent_crc(g_81, "g_81", print_hash_value);
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 2; j++)
        {
            transparent_crc(g_89[i][j], "g_89[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_105, "g_105", print_hash_value);
    transparent_crc(g_120, "g_120", print_hash_value);
    transparent_crc(g_123, "g_123", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        for (j = 0; j < 6; j++)
        {
            transparent_crc(g_148[i][j], "g_148[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_176, "g_176", print_hash_value);
    transparent_crc(g_194, "g_194", print_hash_value);
    transparent_crc(g_209, "g_209", print_hash_value);
    transparent_crc(g_210, "g_210", print_hash_value);
    transparent_crc(g_254, "g_254", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        transparent_crc(g_278[i], "g_278[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_312, "g_312", print_hash_value);
    transparent_crc(g_348, "g_348", print_hash_value);
    transparent_crc(g_372, "g_372", print_hash_value);
    transparent_crc(g_374, "g_374", print_hash_value);
    transparent_crc(g_377, "g_377", print_hash_value);
    transparent_crc(g_378, "g_378", print_hash_value);
    transparent_crc(g_383, "g_383", print_hash_value);
    transparent_crc(g_416, "g_416", print_hash_value);
    for (i = 0; i < 8; i++)
    {
        transparent_crc(g_442[i], "g_442[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    for (i = 0; i < 7; i++)
    {
        for (j = 0; j < 1; j++)
        {
            transparent_crc(g_444[i][j], "g_444[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    for (i = 0; i < 3; i++)
    {
        transparent_crc(g_445[i], "g_445[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    for (i = 0; i < 4; i++)
    {
        transparent_crc(g_446[i], "g_446[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_450, "g_450", print_hash_value);
    transparent_crc(g_469, "g_469", print_hash_value);
    transparent_crc(g_471, "g_471", print_hash_value);
    transparent_crc(g_485, "g_485", print_hash_value);
    transparent_crc(g_518, "g_518", print_hash_value);
    transparent_crc(g_522, "g_522", print_hash_value);
    transparent_crc(g_523, "g_523", print_hash_value);
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}
