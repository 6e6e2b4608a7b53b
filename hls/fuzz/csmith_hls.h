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
