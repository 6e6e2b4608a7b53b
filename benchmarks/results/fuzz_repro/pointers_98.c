/* pyhls fuzz: batch pointers, /usr/bin/csmith --seed 98 --no-argc --no-volatiles --no-volatile-pointers --checksum --concise --max-funcs 4 --max-block-depth 3 --max-block-size 4 --max-expr-complexity 8 --max-array-dim 2 --max-array-len-per-dim 8 --pointers --structs --unions --max-pointer-depth 2 --max-struct-fields 5 --max-union-fields 3 */
// Options:   --seed 98 --no-argc --no-volatiles --no-volatile-pointers --checksum --concise --max-funcs 4 --max-block-depth 3 --max-block-size 4 --max-expr-complexity 8 --max-array-dim 2 --max-array-len-per-dim 8 --pointers --structs --unions --max-pointer-depth 2 --max-struct-fields 5 --max-union-fields 3
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


#pragma pack(push)
#pragma pack(1)
struct S0 {
   signed f0 : 31;
   signed f1 : 24;
   unsigned f2 : 26;
};
#pragma pack(pop)


static int32_t g_3 = 0xFFAB8C3AL;
static uint64_t g_35 = 18446744073709551610UL;
static int64_t g_53 = 0x65B818E961CAE467LL;
static uint64_t g_55 = 8UL;
static uint32_t g_59 = 0x1BB57CF3L;
static int16_t g_61[6] = {0xAF23L,0x0F71L,0xAF23L,0xAF23L,0x0F71L,0xAF23L};
static int64_t *g_80 = (void*)0;
static int32_t g_98 = 8L;
static uint16_t g_115 = 0x4E9EL;
static int16_t g_120 = (-3L);
static int8_t g_121 = 0x9CL;
static uint8_t g_122 = 0x19L;
static int8_t g_131 = (-7L);
static uint32_t g_136 = 0UL;
static int32_t g_173 = (-8L);
static int16_t g_180 = 0xA25AL;
static struct S0 g_195 = {-10580,-3622,6701};
static uint32_t g_282[7] = {0xBEC65207L,0x1CE7FD01L,0xBEC65207L,0xBEC65207L,0x1CE7FD01L,0xBEC65207L,0xBEC65207L};
static struct S0 g_283 = {35170,-1511,5416};
static int32_t *g_298[3][5] = {{&g_98,&g_98,&g_98,&g_98,&g_98},{&g_98,&g_98,&g_98,&g_98,&g_98},{&g_98,&g_98,&g_98,&g_98,&g_98}};
static int32_t **g_396 = (void*)0;
static int32_t g_417[7][7] = {{0x43FE3992L,0x43FE3992L,0x1C031E0EL,0x9B5906A7L,1L,0x1C031E0EL,1L},{0x9B5906A7L,0L,0L,0x9B5906A7L,0x1B536B5AL,3L,0x9B5906A7L},{3L,1L,0x1B536B5AL,0x1B536B5AL,0x1B536B5AL,0x35BA2642L,0x1C031E0EL},{0x1B536B5AL,0L,0x43FE3992L,3L,3L,0x43FE3992L,0L},{0x1B536B5AL,0x1C031E0EL,0x35BA2642L,0x1B536B5AL,0x65990B60L,0x65990B60L,0x1B536B5AL},{0x35BA2642L,0L,0x35BA2642L,0x65990B60L,0L,0x1C031E0EL,0x1C031E0EL},{0L,0x1B536B5AL,0x43FE3992L,0x1B536B5AL,0L,0x43FE3992L,3L}};
static int32_t g_419[3][3] = {{0xCCDB6E9CL,(-8L),(-8L)},{0xCCDB6E9CL,(-8L),(-8L)},{0xCCDB6E9CL,(-8L),(-8L)}};
static const uint64_t g_437 = 18446744073709551611UL;
static uint16_t g_478[3][1] = {{0x7959L},{0x7959L},{0x7959L}};
static int8_t g_523[8][1] = {{0xF2L},{(-7L)},{0xF2L},{0xF2L},{(-7L)},{0xF2L},{0xF2L},{(-7L)}};



static uint32_t  func_1(void);
static int32_t  func_9(uint32_t  p_10, uint32_t  p_11, uint16_t  p_12, uint32_t  p_13, struct S0  p_14);
static uint64_t  func_17(uint8_t  p_18, uint32_t  p_19, uint8_t  p_20, int32_t  p_21, const uint8_t  p_22);
static uint32_t  func_25(uint8_t  p_26, uint32_t  p_27);




static uint32_t  func_1(void)
{ 
    uint32_t l_2[6] = {7UL,7UL,7UL,7UL,7UL,7UL};
    uint8_t l_422[3];
    struct S0 l_444[4] = {{8316,1817,1908},{8316,1817,1908},{8316,1817,1908},{8316,1817,1908}};
    struct S0 *l_445[4] = {(void*)0,(void*)0,(void*)0,(void*)0};
    struct S0 l_446[7][2] = {{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}},{{-1256,-1621,5918},{-1256,-1621,5918}}};
    int32_t *l_447 = &g_419[0][0];
    int32_t *l_448 = &g_3;
    int64_t l_449 = 5L;
    int32_t *l_450 = &g_98;
    int32_t *l_451 = &g_98;
    int32_t *l_452 = &g_98;
    int32_t *l_453[8][6] = {{&g_3,&g_417[4][6],&g_419[2][0],(void*)0,&g_98,&g_3},{&g_3,&g_98,&g_417[4][6],&g_417[4][6],&g_98,&g_3},{(void*)0,&g_3,&g_419[2][0],&g_419[2][0],&g_3,&g_98},{&g_98,&g_3,&g_419[0][2],&g_3,&g_419[0][2],&g_3},{&g_98,&g_98,&g_3,&g_419[2][0],&g_419[2][0],&g_3},{(void*)0,&g_3,&g_98,&g_417[4][6],&g_417[4][6],&g_98},{&g_3,&g_3,&g_98,(void*)0,&g_419[2][0],&g_417[4][6]},{&g_3,&g_98,&g_419[2][0],&g_98,&g_419[0][2],&g_98}};
    uint8_t l_454 = 0x29L;
    int64_t l_480 = 0xD3893CB7F82201CCLL;
    uint16_t l_498 = 0xA477L;
    uint32_t l_508[4][7] = {{0x0F1C1071L,0x59FA338EL,0x52EC5A5EL,18446744073709551615UL,0x52EC5A5EL,0x59FA338EL,0x0F1C1071L},{18446744073709551615UL,0x4223FD99L,18446744073709551615UL,18446744073709551615UL,0x4223FD99L,18446744073709551615UL,18446744073709551615UL},{0x0F1C1071L,18446744073709551615UL,8UL,18446744073709551615UL,0x0F1C1071L,0xB90FE056L,0x0F1C1071L},{0x4223FD99L,18446744073709551615UL,18446744073709551615UL,0x4223FD99L,18446744073709551615UL,18446744073709551615UL,0x4223FD99L}};
    int16_t l_517[5][8] = {{1L,0xD1E1L,0xEB62L,0x69DDL,0L,1L,0x69DDL,0x09BDL},{0L,1L,0x69DDL,0x09BDL,0x69DDL,1L,0L,0x69DDL},{0x755AL,0xD1E1L,1L,0x755AL,0L,0L,0xD1E1L,0xD1E1L},{0x69DDL,0L,0xEB62L,0xEB62L,0L,0x69DDL,0xF3F2L,0x09BDL},{0x755AL,0xF3F2L,0x126DL,0xD1E1L,0L,1L,1L,1L}};
    int32_t l_541[4][8] = {{0x927DC04DL,3L,(-9L),3L,0x927DC04DL,0xBCA3F597L,3L,0x4CD6DDC5L},{1L,0x927DC04DL,(-2L),0L,3L,1L,1L,3L},{3L,(-2L),(-2L),3L,1L,0xD58091EFL,3L,(-2L)},{3L,9L,(-9L),0x4CD6DDC5L,9L,(-1L),9L,0x4CD6DDC5L}};
    int i, j;
    for (i = 0; i < 3; i++)
        l_422[i] = 0x95L;
    for (g_3 = 1; (g_3 <= 5); g_3 += 1)
    { 
        uint64_t *l_34[8];
        uint32_t l_36 = 0xD743CCC0L;
        uint32_t *l_281 = &g_282[2];
        int32_t *l_416 = &g_417[4][6];
        int32_t *l_418 = &g_419[2][0];
        uint8_t *l_425 = &g_122;
        int32_t *l_433 = &g_98;
        struct S0 l_442 = {26286,-3747,1628};
        struct S0 *l_443 = &g_195;
        int i;
        for (i = 0; i < 8; i++)
            l_34[i] = &g_35;
        (*l_418) ^= ((*l_416) ^= (~(safe_sub_func_uint16_t_u_u((((safe_add_func_int32_t_s_s(func_9(((*l_281) &= (safe_mod_func_uint64_t_u_u(func_17((safe_sub_func_uint32_t_u_u(0x4B7C7008L, 0x5E314A5EL)), func_25(l_2[g_3], ((safe_mul_func_uint8_t_u_u((safe_add_func_int8_t_s_s((safe_add_func_int64_t_s_s(g_3, ((7UL < (g_3 != ((g_35 = (l_2[0] & l_2[g_3])) != l_36))) ^ l_2[2]))), l_2[0])), l_2[g_3])) , g_3)), l_2[4], g_3, l_36), g_3))), g_3, g_3, l_36, g_283), l_2[4])) , l_36) || g_3), 0x228FL))));
        (*l_433) |= (safe_rshift_func_int8_t_s_s(((l_2[5] & l_422[0]) , (((safe_add_func_uint8_t_u_u((--(*l_425)), (g_419[2][0] > ((l_422[2] && (safe_sub_func_uint8_t_u_u(l_2[4], (g_173 >= ((((!(((((g_61[0] |= ((safe_mul_func_uint8_t_u_u(g_283.f2, (*l_416))) || 0x0811L)) >= (*l_418)) > (-1L)) != 0x401850DDL) , l_422[0])) == 0x23L) <= 6UL) < g_417[4][6]))))) ^ 0x72A2L)))) , (-1L)) & l_422[0])), l_422[0]));
        for (g_120 = 2; (g_120 >= 0); g_120 -= 1)
        { 
            int32_t **l_434 = &l_416;
            const uint64_t *l_436 = &g_437;
            const uint64_t **l_435 = &l_436;
            const uint64_t *l_439 = (void*)0;
            const uint64_t **l_438 = &l_439;
            const uint64_t *l_441 = &g_437;
            const uint64_t **l_440 = &l_441;
            int i;
            (*l_434) = &g_419[1][1];
            (*l_434) = (void*)0;
            (*l_433) = l_422[g_120];
            (*l_418) |= (&g_35 == ((*l_440) = ((&g_115 == (void*)0) , ((*l_438) = ((*l_435) = (void*)0)))));
        }
        (*l_443) = l_442;
    }
    l_446[3][1] = l_444[0];
lbl_529:
    l_454--;
    for (g_55 = 0; (g_55 != 14); g_55 = safe_add_func_uint8_t_u_u(g_55, 1))
    { 
        int32_t *l_467 = &g_173;
        int32_t **l_466 = &l_467;
        uint16_t *l_476 = (void*)0;
        uint16_t *l_477 = &g_478[2][0];
        const int32_t l_479 = (-1L);
        struct S0 l_496 = {33582,2567,2025};
        int16_t l_501 = (-1L);
        int32_t l_506 = 0xE579CAB9L;
        uint16_t l_542 = 65535UL;
        if (((~(safe_mul_func_int16_t_s_s(((safe_mul_func_int8_t_s_s((*l_452), g_437)) != (safe_mod_func_uint16_t_u_u(((*l_477) = (g_115 |= ((l_466 == (void*)0) , (safe_rshift_func_uint8_t_u_u(2UL, (safe_lshift_func_uint8_t_u_s(((safe_lshift_func_uint16_t_u_u((7UL ^ (safe_mod_func_uint32_t_u_u(g_282[0], 0x9B156C8BL))), 10)) & 0x6015A3CE270EBE68LL), 7))))))), l_479))), 4UL))) > l_480))
        { 
            uint32_t l_489 = 1UL;
            struct S0 l_497 = {-44241,-3592,654};
            for (g_122 = (-16); (g_122 <= 50); g_122 = safe_add_func_int64_t_s_s(g_122, 5))
            { 
                struct S0 **l_494 = &l_445[2];
                int32_t l_495 = 0xE56F12EBL;
            }
        }
        else
        { 
            int8_t l_502[3][2] = {{0xB0L,0x99L},{0x99L,0xB0L},{0x99L,0x99L}};
            int32_t l_507[3][2] = {{4L,0x9ECF20EEL},{0x9ECF20EEL,4L},{0x9ECF20EEL,0x9ECF20EEL}};
            int i, j;
            for (g_136 = 0; (g_136 <= 1); g_136 += 1)
            { 
                uint32_t l_503 = 0xEC2CE1F1L;
                int i;
                ++l_503;
                if (g_282[(g_136 + 2)])
                    continue;
                return l_479;
            }
            if (l_506)
                continue;
            l_508[2][0]++;
        }
        if (l_479)
            break;
        for (g_122 = 0; (g_122 > 17); g_122 = safe_add_func_int32_t_s_s(g_122, 1))
        { 
            uint32_t *l_518 = (void*)0;
            uint32_t *l_519[1][7] = {{&g_136,(void*)0,&g_136,&g_136,(void*)0,&g_136,&g_136}};
            int32_t l_522 = 0xA6A2FACDL;
            int i, j;
            (*l_447) |= (safe_mod_func_uint16_t_u_u((safe_add_func_uint8_t_u_u(0x94L, l_517[4][7])), ((((((void*)0 != &g_419[1][1]) || (((((g_283.f2 = 0UL) ^ (*l_450)) == ((safe_rshift_func_uint8_t_u_u((g_35 , 0UL), (*l_448))) , g_35)) , l_506) , l_496.f2)) & l_522) & (-5L)) | 1L)));
        }
        if (g_523[3][0])
        { 
            uint32_t l_526 = 0xCD861166L;
            int32_t l_532 = 0x74335F50L;
            uint64_t l_538[2];
            int i;
            for (i = 0; i < 2; i++)
                l_538[i] = 3UL;
            for (g_122 = (-30); (g_122 != 35); g_122 = safe_add_func_int16_t_s_s(g_122, 5))
            { 
                int32_t **l_527 = (void*)0;
                int32_t **l_528 = &l_448;
                if (l_526)
                    break;
                (*l_528) = &g_98;
                if (g_283.f1)
                    goto lbl_529;
            }
            for (g_121 = 0; (g_121 <= 2); g_121 += 1)
            { 
                uint8_t l_533[7][2] = {{0xC2L,2UL},{0xC2L,8UL},{0UL,0UL},{8UL,0xC2L},{2UL,0xC2L},{8UL,0UL},{0UL,8UL}};
                struct S0 **l_536 = &l_445[1];
                int32_t l_537 = (-1L);
                int i, j;
                (*l_447) = (safe_mul_func_uint8_t_u_u(l_526, (&g_298[g_121][(g_121 + 1)] != (void*)0)));
                l_533[2][1]--;
                (*l_536) = &g_195;
                l_538[1]++;
            }
            if (l_541[0][2])
                break;
            if (l_542)
                break;
        }
        else
        { 
            int8_t l_545 = 0x22L;
            int32_t l_546 = 0x123E0B62L;
            for (g_122 = 0; (g_122 > 31); g_122++)
            { 
                uint32_t l_547[2][7] = {{0x67DF072DL,0x67DF072DL,0x67DF072DL,0x67DF072DL,0x67DF072DL,0x67DF072DL,0x67DF072DL},{0UL,0x7E69F22CL,0UL,0x7E69F22CL,0UL,0x7E69F22CL,0UL}};
                struct S0 l_550 = {-40164,-1877,4910};
                int i, j;
                l_547[1][3]--;
                g_283 = l_550;
            }
            if ((*l_450))
            { 
                if (l_479)
                    break;
            }
            else
            { 
                int32_t **l_551 = &l_453[6][2];
                (*l_551) = &g_419[2][0];
            }
        }
    }
    return g_282[2];
}



static int32_t  func_9(uint32_t  p_10, uint32_t  p_11, uint16_t  p_12, uint32_t  p_13, struct S0  p_14)
{ 
    uint8_t l_284 = 255UL;
    uint32_t *l_292[6] = {&g_136,&g_136,&g_136,&g_136,&g_136,&g_136};
    int32_t *l_297 = &g_98;
    int32_t l_312[8] = {4L,4L,4L,4L,4L,4L,4L,4L};
    uint64_t *l_347 = &g_55;
    uint64_t **l_346 = &l_347;
    uint32_t l_397 = 0xEE60F88EL;
    const struct S0 l_406 = {19594,817,1862};
    int16_t l_412 = (-1L);
    int i;
    if (l_284)
    { 
        int32_t *l_286 = (void*)0;
        int32_t *l_287 = &g_98;
        uint32_t *l_289[4] = {&g_136,&g_136,&g_136,&g_136};
        int32_t l_314 = 0x5ED8C95FL;
        int32_t l_315 = 0xE9490086L;
        int32_t l_317 = 1L;
        int32_t l_318 = 0x9FC88F51L;
        int32_t l_319 = 0x405BA798L;
        int32_t l_322 = 3L;
        int32_t l_325 = 0x176B8C33L;
        int16_t *l_374 = &g_180;
        int i;
        (*l_287) = (!g_59);
        p_14.f0 &= (g_283.f2 ^ ((*l_287) = (~(((p_14.f2 = 4294967287UL) <= (((safe_add_func_int64_t_s_s(1L, (p_10 >= (((l_289[1] != l_292[0]) , g_173) , g_55)))) , 4294967292UL) <= g_173)) <= 0x284438402E813D55LL))));
        if (((*l_287) = p_14.f1))
        { 
            int8_t l_303 = (-1L);
            int32_t l_313 = (-1L);
            int32_t l_316 = 9L;
            int32_t l_320 = 2L;
            int32_t l_321 = 0L;
            int32_t l_323 = (-6L);
            int32_t l_324[6] = {1L,1L,1L,1L,1L,1L};
            int16_t *l_345 = &g_120;
            int i;
            for (g_55 = 0; (g_55 > 39); g_55 = safe_add_func_uint32_t_u_u(g_55, 9))
            { 
                int32_t **l_295 = (void*)0;
                int32_t **l_296[6] = {&l_286,&l_286,&l_286,&l_286,&l_286,&l_286};
                int32_t *l_309 = &g_173;
                int32_t **l_308 = &l_309;
                int32_t *l_311[6][1];
                int32_t **l_310 = &l_311[5][0];
                uint16_t l_326 = 0x05B6L;
                int i, j;
                for (i = 0; i < 6; i++)
                {
                    for (j = 0; j < 1; j++)
                        l_311[i][j] = &g_173;
                }
                l_297 = &g_3;
                g_298[0][4] = l_289[1];
                l_312[0] ^= (safe_add_func_int16_t_s_s((1UL && ((*l_287) & (safe_add_func_int32_t_s_s(l_303, (safe_lshift_func_int8_t_s_u(((void*)0 != &g_3), 4)))))), (safe_add_func_int8_t_s_s((((*l_308) = l_289[1]) != ((*l_310) = (p_14 , (void*)0))), 0L))));
                l_326--;
            }
            (*l_287) = (safe_mul_func_uint8_t_u_u(7UL, (((safe_add_func_int8_t_s_s(((safe_lshift_func_uint16_t_u_s((((safe_div_func_uint32_t_u_u((p_14.f2 = (((7UL || (g_136++)) , (safe_add_func_uint32_t_u_u((safe_rshift_func_uint8_t_u_u(((&g_195 != ((safe_mul_func_int8_t_s_s(g_53, 253UL)) , &p_14)) <= p_12), 5)), g_53))) < (*l_287))), p_10)) >= g_115) >= g_59), 3)) != 0x0CL), l_316)) >= (-1L)) != (*l_297))));
            if ((((*l_345) |= p_12) & (l_313 ^= (((void*)0 != l_346) < ((safe_lshift_func_uint8_t_u_u(l_316, 6)) < (safe_mul_func_int8_t_s_s((safe_add_func_int64_t_s_s((safe_add_func_uint64_t_u_u(((*l_347) = g_35), ((safe_rshift_func_uint16_t_u_s((p_14 , g_61[0]), 13)) >= g_283.f2))), (*l_287))), g_282[5])))))))
            { 
                int32_t **l_362 = &g_298[0][3];
                int32_t l_363 = 0L;
                l_363 ^= (safe_lshift_func_int16_t_s_s((((safe_div_func_int16_t_s_s((((l_362 == (void*)0) , l_286) == (g_195 , l_297)), 1UL)) ^ (**l_362)) > g_195.f0), g_282[3]));
            }
            else
            { 
                int32_t l_375 = 0xC775E319L;
                uint16_t *l_376 = &g_115;
                int32_t *l_377 = &l_315;
                struct S0 *l_384 = &g_283;
                uint8_t *l_387[7];
                int32_t l_388 = 6L;
                int i;
                for (i = 0; i < 7; i++)
                    l_387[i] = &g_122;
                l_377 = (((*l_376) ^= (safe_mod_func_int64_t_s_s((safe_sub_func_int16_t_s_s((p_14.f0 , ((g_35 , (((*l_345) = p_12) & 5UL)) | (safe_div_func_uint64_t_u_u((safe_lshift_func_int16_t_s_s((safe_mul_func_uint8_t_u_u((*l_287), (l_345 != l_374))), l_375)), g_283.f0)))), p_14.f1)), 0x97225953B077A042LL))) , (void*)0);
                l_388 &= (safe_lshift_func_int16_t_s_u(((safe_div_func_int8_t_s_s((*l_287), p_12)) , (safe_rshift_func_int16_t_s_u((g_120 , (((*l_376) = (((*l_287) ^= (((p_11 == ((l_324[4] = ((g_195 = ((*l_384) = g_283)) , ((safe_lshift_func_int8_t_s_u(g_121, 2)) >= ((*l_345) |= p_13)))) | g_59)) & p_14.f0) < l_313)) > g_3)) | 0x784FL)), g_131))), 1));
            }
        }
        else
        { 
            const int32_t l_393 = 0x719F1A46L;
            int32_t *l_395 = &g_173;
            int32_t **l_394 = &l_395;
            if (((safe_lshift_func_int8_t_s_u(((((safe_add_func_uint8_t_u_u((1UL != l_393), l_393)) > ((((l_394 == (g_396 = &l_395)) ^ (p_14.f2 , l_397)) , g_115) & 0x14C5L)) != p_14.f2) , p_14.f0), 1)) | 0xE433B844L))
            { 
                struct S0 *l_398 = (void*)0;
                struct S0 *l_399 = &g_195;
                (*l_399) = (g_283 = g_283);
            }
            else
            { 
                uint8_t *l_400 = &g_122;
                int8_t *l_403[4];
                int32_t l_404[8][6] = {{7L,7L,0xA6F84FC0L,1L,0x21175285L,0x21175285L},{7L,1L,1L,7L,0x21175285L,0xA6F84FC0L},{0x21175285L,7L,1L,1L,7L,0x21175285L},{0x21175285L,1L,0xA6F84FC0L,7L,7L,0xA6F84FC0L},{7L,7L,0xA6F84FC0L,1L,0x21175285L,0x21175285L},{7L,1L,1L,7L,0x21175285L,0xA6F84FC0L},{0x21175285L,7L,1L,1L,7L,0x21175285L},{0x21175285L,1L,0xA6F84FC0L,7L,7L,0xA6F84FC0L}};
                int i, j;
                for (i = 0; i < 4; i++)
                    l_403[i] = &g_121;
                (*l_287) |= ((l_400 == (void*)0) > (safe_lshift_func_uint8_t_u_s(l_393, (l_404[2][3] ^= 0xBEL))));
            }
        }
    }
    else
    { 
        uint8_t l_405 = 248UL;
        struct S0 *l_407[5];
        int32_t l_408 = 1L;
        int32_t *l_409 = &l_408;
        int32_t *l_410[2][5];
        int32_t l_411[1][1];
        uint16_t l_413[6][7] = {{0x8DBAL,0xA789L,0x874FL,2UL,6UL,1UL,65535UL},{6UL,2UL,0x874FL,0xA789L,0x8DBAL,1UL,1UL},{0x8DBAL,2UL,4UL,2UL,0x8DBAL,65528UL,65535UL},{0x8DBAL,0xA789L,0x874FL,2UL,6UL,1UL,65535UL},{6UL,1UL,0xCF96L,0xCDB1L,1UL,4UL,4UL},{1UL,1UL,0xCF76L,1UL,1UL,0xF2EFL,0x874FL}};
        int i, j;
        for (i = 0; i < 5; i++)
            l_407[i] = &g_195;
        for (i = 0; i < 2; i++)
        {
            for (j = 0; j < 5; j++)
                l_410[i][j] = &g_98;
        }
        for (i = 0; i < 1; i++)
        {
            for (j = 0; j < 1; j++)
                l_411[i][j] = (-4L);
        }
        (*l_297) &= l_405;
        p_14 = ((*l_297) , l_406);
        --l_413[4][2];
    }
    return p_10;
}



static uint64_t  func_17(uint8_t  p_18, uint32_t  p_19, uint8_t  p_20, int32_t  p_21, const uint8_t  p_22)
{ 
    struct S0 l_196 = {-3379,3008,8063};
    struct S0 *l_197 = (void*)0;
    const struct S0 *l_269 = &g_195;
    l_196 = l_196;
    for (g_131 = (-25); (g_131 < 2); g_131 = safe_add_func_uint16_t_u_u(g_131, 3))
    { 
        uint64_t l_206 = 18446744073709551615UL;
        uint32_t *l_209[5] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
        int32_t l_210 = (-1L);
        int32_t *l_211 = (void*)0;
        int32_t l_212[6] = {0x822E769DL,0x822E769DL,(-8L),0x822E769DL,0x822E769DL,(-8L)};
        int i;
        l_212[3] &= ((((safe_sub_func_int32_t_s_s((safe_sub_func_int32_t_s_s((((safe_lshift_func_int8_t_s_s((l_206 == ((safe_div_func_uint64_t_u_u(18446744073709551615UL, 0x0C340CA8D4FCCDB8LL)) , (l_196.f0 && (l_210 |= (g_195 , (65532UL <= (g_195.f2 & p_22))))))), 4)) > l_196.f1) & g_122), p_22)), l_196.f1)) , g_195.f2) | (-1L)) | l_196.f1);
        for (g_122 = 0; (g_122 > 24); g_122 = safe_add_func_uint32_t_u_u(g_122, 3))
        { 
            int32_t *l_215[8][6] = {{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3},{&g_98,&g_98,&g_3,&g_98,&g_98,&g_3}};
            int i, j;
            l_196 = g_195;
            l_210 |= g_61[3];
        }
    }
    for (p_19 = 0; (p_19 < 58); p_19 = safe_add_func_uint16_t_u_u(p_19, 8))
    { 
        int32_t *l_220 = &g_3;
        int16_t *l_239[7] = {&g_61[0],&g_61[0],&g_61[0],&g_61[0],&g_61[0],&g_61[0],&g_61[0]};
        int32_t l_241[4];
        struct S0 * const l_266 = &g_195;
        uint64_t *l_276 = (void*)0;
        uint64_t *l_277[2][8] = {{&g_35,(void*)0,(void*)0,&g_35,(void*)0,(void*)0,&g_35,(void*)0},{&g_35,&g_35,(void*)0,&g_35,&g_35,(void*)0,&g_35,&g_35}};
        int32_t *l_280[8][4] = {{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]},{&l_241[0],&l_241[0],&l_241[0],&l_241[0]}};
        int i, j;
        for (i = 0; i < 4; i++)
            l_241[i] = 7L;
        for (g_136 = (-5); (g_136 == 46); g_136++)
        { 
            int32_t **l_221 = &l_220;
            int16_t *l_223 = &g_120;
            int16_t **l_222 = &l_223;
            uint16_t *l_238 = &g_115;
            int32_t *l_240 = (void*)0;
            int32_t l_254 = 0xDE73D4CEL;
            struct S0 *l_267 = &l_196;
            (*l_221) = l_220;
            (*l_221) = (void*)0;
            if ((l_241[0] = (((*l_222) = &g_61[0]) != ((safe_sub_func_int16_t_s_s((!g_195.f1), ((*l_238) = (safe_sub_func_int16_t_s_s((g_195 , ((l_220 != &g_136) & (safe_rshift_func_int8_t_s_s((0x242EEF4D9A01408CLL | (safe_add_func_int32_t_s_s(((safe_rshift_func_int8_t_s_u((+(safe_div_func_uint16_t_u_u(p_21, g_98))), 2)) | l_196.f2), 2UL))), g_195.f2)))), g_115))))) , l_239[4]))))
            { 
                l_254 = (safe_add_func_int32_t_s_s(g_98, ((safe_mul_func_int16_t_s_s((l_196.f0 & p_20), 0xF5D2L)) | (safe_lshift_func_uint16_t_u_s((safe_sub_func_uint16_t_u_u(g_35, (((p_22 | ((safe_sub_func_int64_t_s_s((safe_rshift_func_int16_t_s_s(g_120, p_22)), p_20)) , g_55)) & g_195.f1) & g_61[0]))), p_20)))));
                g_195.f0 |= (g_98 = g_98);
            }
            else
            { 
                int64_t *l_259 = &g_53;
                int32_t *l_268 = (void*)0;
                int32_t *l_270 = &l_254;
                (*l_221) = &g_98;
                (*l_270) &= ((0L > g_55) & ((safe_div_func_int64_t_s_s((l_259 != (void*)0), (safe_lshift_func_int16_t_s_u(p_18, (*l_220))))) >= (l_241[1] = (((g_173 = ((safe_sub_func_uint64_t_u_u((safe_rshift_func_uint8_t_u_s((l_266 == l_267), p_19)), p_18)) < 0xD1E987FDFE881F7ALL)) , &g_195) == l_269))));
            }
        }
        l_196.f1 |= (safe_add_func_int16_t_s_s((safe_mod_func_uint64_t_u_u((0x84A9858D2371772FLL > (l_196.f0 = (+p_22))), (g_55++))), ((void*)0 != l_197)));
        (*l_266) = g_195;
        if (g_195.f1)
            break;
    }
    return p_20;
}



static uint32_t  func_25(uint8_t  p_26, uint32_t  p_27)
{ 
    const uint64_t * const l_50[8][1] = {{&g_35},{&g_35},{&g_35},{&g_35},{&g_35},{&g_35},{&g_35},{&g_35}};
    int32_t l_51[6][6] = {{2L,2L,1L,1L,0xA6B93DCEL,1L},{0x270BB1DCL,2L,0x270BB1DCL,2L,1L,1L},{(-4L),0x270BB1DCL,0x270BB1DCL,(-4L),2L,1L},{1L,(-4L),1L,(-4L),1L,2L},{(-4L),1L,2L,2L,1L,(-4L)},{0x270BB1DCL,(-4L),2L,1L,2L,(-4L)}};
    uint32_t *l_69 = &g_59;
    int8_t *l_185[2][7] = {{&g_131,&g_131,&g_131,&g_131,&g_131,&g_131,&g_131},{&g_131,&g_131,&g_131,&g_131,&g_131,&g_131,&g_131}};
    const struct S0 l_193 = {-14195,-3367,1420};
    int i, j;
    for (g_35 = (-30); (g_35 < 36); g_35 = safe_add_func_uint16_t_u_u(g_35, 1))
    { 
        uint64_t *l_41 = &g_35;
        int64_t *l_52 = &g_53;
        uint64_t *l_54 = &g_55;
        uint64_t *l_57[3];
        uint64_t **l_56 = &l_57[1];
        uint32_t *l_58 = &g_59;
        int16_t *l_60 = &g_61[0];
        int32_t *l_62 = (void*)0;
        int32_t *l_63 = (void*)0;
        int32_t *l_64 = &l_51[0][2];
        int i;
        for (i = 0; i < 3; i++)
            l_57[i] = (void*)0;
        (*l_64) = ((safe_add_func_uint64_t_u_u(((1L && (&g_35 != (g_35 , l_41))) & ((((*l_60) = ((safe_rshift_func_uint16_t_u_s(p_27, 14)) >= (((*l_58) = (safe_mul_func_uint8_t_u_u((((((*l_56) = (l_54 = (((*l_52) = ((safe_rshift_func_uint8_t_u_u(((void*)0 == l_50[7][0]), l_51[5][0])) & 0x3CF54CEAL)) , (void*)0))) == &g_55) ^ 0xD3D7FBA3L) | g_35), p_27))) , g_55))) <= g_55) >= 0UL)), 1UL)) & l_51[5][0]);
    }
    if (((safe_div_func_uint8_t_u_u((safe_sub_func_uint64_t_u_u(0x1BECDE87198B9DB5LL, (&g_59 != l_69))), (safe_add_func_uint64_t_u_u((((safe_mul_func_uint8_t_u_u(p_26, ((((safe_add_func_uint64_t_u_u((safe_add_func_uint32_t_u_u(0x2143632CL, ((safe_lshift_func_uint8_t_u_s(((g_80 = (void*)0) == (l_51[4][2] , (void*)0)), g_59)) <= l_51[5][1]))), 0L)) || g_35) , 0x56B0C4F5L) , 0x42L))) < g_59) < g_3), g_35)))) < l_51[5][0]))
    { 
        int64_t l_95 = 0xB313CF365AED0E34LL;
        uint32_t l_96 = 0x5EB77D2DL;
        uint64_t *l_106 = &g_55;
        uint64_t **l_105 = &l_106;
        for (p_26 = 16; (p_26 > 53); ++p_26)
        { 
            uint32_t l_94[2][2] = {{18446744073709551608UL,18446744073709551608UL},{18446744073709551608UL,18446744073709551608UL}};
            int i, j;
            for (g_59 = 0; (g_59 <= 5); g_59 += 1)
            { 
                int32_t *l_97 = &g_98;
                int i, j;
                (*l_97) &= (safe_add_func_int32_t_s_s(((safe_lshift_func_uint16_t_u_u((safe_sub_func_uint64_t_u_u(((((safe_div_func_int32_t_s_s((((l_51[g_59][g_59] && (~65532UL)) || (safe_mod_func_uint32_t_u_u(((((1L ^ (l_94[1][0] || p_26)) <= p_26) | (p_26 == 0L)) != p_27), l_51[2][1]))) ^ 0x24A103C2894B961ALL), g_3)) , g_3) || l_95) && l_96), 0xA79F159E9DC621C6LL)), l_95)) == l_96), 0x8C84420CL));
            }
        }
        if ((l_51[1][0] ^ (safe_rshift_func_uint8_t_u_u((safe_rshift_func_int16_t_s_s(l_51[2][4], 5)), 4))))
        { 
            int32_t l_114 = 0xCF81C7DCL;
            int32_t *l_118 = &l_51[5][0];
            int32_t *l_119[2];
            int i;
            for (i = 0; i < 2; i++)
                l_119[i] = &l_51[5][0];
            if ((p_27 && (safe_rshift_func_uint8_t_u_u(((void*)0 == l_105), 5))))
            { 
                int32_t *l_108 = (void*)0;
                int32_t **l_107 = &l_108;
                (*l_107) = (void*)0;
                (*l_107) = ((safe_sub_func_uint64_t_u_u((--(**l_105)), l_51[1][0])) , &g_3);
            }
            else
            { 
                int32_t *l_113[8] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
                int i;
                ++g_115;
            }
            --g_122;
        }
        else
        { 
            uint8_t l_129 = 0xCFL;
            int8_t *l_130 = &g_131;
            int32_t *l_132 = &g_98;
            for (g_53 = 0; (g_53 <= 5); g_53 += 1)
            { 
                int32_t *l_126 = &g_98;
                int32_t **l_125 = &l_126;
                int i;
                (*l_125) = &g_98;
                (*l_126) = g_61[g_53];
            }
            (*l_132) ^= (safe_rshift_func_int8_t_s_u(((*l_130) ^= ((g_121 = (((&l_50[7][0] != (void*)0) , 0xD07CA36FL) & p_27)) != l_129)), ((((void*)0 != &g_55) < l_129) && 0x37L)));
        }
        return l_51[4][5];
    }
    else
    { 
        int32_t *l_133 = (void*)0;
        int32_t *l_134 = (void*)0;
        int32_t *l_135[8] = {&g_3,&g_98,&g_3,&g_3,&g_98,&g_3,&g_3,&g_98};
        uint32_t l_175 = 0x8F730D72L;
        int64_t *l_178[4];
        int i;
        for (i = 0; i < 4; i++)
            l_178[i] = &g_53;
        g_136++;
        if (p_27)
        { 
            uint32_t l_150 = 1UL;
            int32_t l_151[6] = {3L,3L,3L,3L,3L,3L};
            int16_t *l_152 = &g_120;
            int16_t *l_153 = (void*)0;
            int16_t *l_154 = &g_61[0];
            int64_t *l_155[3][2] = {{&g_53,&g_53},{&g_53,&g_53},{&g_53,&g_53}};
            struct S0 l_169 = {43579,2833,3306};
            int32_t *l_171 = (void*)0;
            int8_t *l_179[1];
            uint32_t *l_186 = &g_136;
            int i, j;
            for (i = 0; i < 1; i++)
                l_179[i] = (void*)0;
            if (((safe_mod_func_uint16_t_u_u(4UL, (+(++p_26)))) , ((((l_51[0][3] = ((g_131 >= ((safe_rshift_func_uint8_t_u_s(p_27, 3)) , (p_27 , ((safe_sub_func_uint16_t_u_u((safe_mul_func_int16_t_s_s(l_150, (l_151[1] , ((*l_154) = ((*l_152) = (l_151[3] != g_53)))))), 0x4C75L)) == 1UL)))) || 0x0164B9299A07EF06LL)) && p_27) , 0x7AC3CA6ABCE84173LL) ^ g_53)))
            { 
                int32_t l_158 = 7L;
                int32_t **l_159 = &l_135[3];
                uint16_t l_172[3][3] = {{0x5589L,0x5589L,0x5589L},{0x26CDL,0x1DD4L,0x26CDL},{0x5589L,0x5589L,0x5589L}};
                int i, j;
                l_158 = ((safe_mul_func_int16_t_s_s(g_121, g_131)) & l_150);
                (*l_159) = &g_3;
                g_173 ^= (((safe_mod_func_int64_t_s_s(5L, (l_169.f1 = ((((safe_add_func_uint16_t_u_u((((((((((((l_169.f0 = (safe_sub_func_int8_t_s_s((p_26 != (safe_unary_minus_func_int16_t_s((safe_mod_func_int32_t_s_s((l_169 , 5L), 0xEE1BD551L))))), 3UL))) && (~((l_171 = &g_98) != (*l_159)))) | 0x0DL) != g_53) || g_121) , g_35) > 0L) || g_131) & l_172[0][2]) | p_26) , 0xE56FL), p_26)) | 0x5B1CL) & g_59) , g_98)))) , p_27) < g_121);
            }
            else
            { 
                int32_t **l_174 = &l_133;
                (*l_174) = l_171;
                return l_175;
            }
            g_180 ^= (p_27 , (safe_mul_func_int8_t_s_s((g_121 = ((g_98 = (p_27 & 0x31B4L)) ^ ((void*)0 == l_178[2]))), g_35)));
            g_98 = (p_26 || (g_55 < ((((0x70C50529L ^ (p_26 == (safe_lshift_func_uint16_t_u_s(((void*)0 != l_185[0][1]), 5)))) , (++(*l_186))) < ((safe_sub_func_uint32_t_u_u(((safe_sub_func_int32_t_s_s(g_173, g_173)) < g_173), g_3)) | g_115)) == p_26)));
        }
        else
        { 
            struct S0 *l_194 = &g_195;
            (*l_194) = l_193;
        }
        return g_122;
    }
}





int main (void)
{
    int i, j;
    int print_hash_value = 0;
    platform_main_begin();
    crc32_gentab();
    func_1();
    transparent_crc(g_3, "g_3", print_hash_value);
    transparent_crc(g_35, "g_35", print_hash_value);
    transparent_crc(g_53, "g_53", print_hash_value);
    transparent_crc(g_55, "g_55", print_hash_value);
    transparent_crc(g_59, "g_59", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        transparent_crc(g_61[i], "g_61[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_98, "g_98", print_hash_value);
    transparent_crc(g_115, "g_115", print_hash_value);
    transparent_crc(g_120, "g_120", print_hash_value);
    transparent_crc(g_121, "g_121", print_hash_value);
    transparent_crc(g_122, "g_122", print_hash_value);
    transparent_crc(g_131, "g_131", print_hash_value);
    transparent_crc(g_136, "g_136", print_hash_value);
    transparent_crc(g_173, "g_173", print_hash_value);
    transparent_crc(g_180, "g_180", print_hash_value);
    transparent_crc(g_195.f0, "g_195.f0", print_hash_value);
    transparent_crc(g_195.f1, "g_195.f1", print_hash_value);
    transparent_crc(g_195.f2, "g_195.f2", print_hash_value);
    for (i = 0; i < 7; i++)
    {
        transparent_crc(g_282[i], "g_282[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_283.f0, "g_283.f0", print_hash_value);
    transparent_crc(g_283.f1, "g_283.f1", print_hash_value);
    transparent_crc(g_283.f2, "g_283.f2", print_hash_value);
    for (i = 0; i < 7; i++)
    {
        for (j = 0; j < 7; j++)
        {
            transparent_crc(g_417[i][j], "g_417[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    for (i = 0; i < 3; i++)
    {
        for (j = 0; j < 3; j++)
        {
            transparent_crc(g_419[i][j], "g_419[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_437, "g_437", print_hash_value);
    for (i = 0; i < 3; i++)
    {
        for (j = 0; j < 1; j++)
        {
            transparent_crc(g_478[i][j], "g_478[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    for (i = 0; i < 8; i++)
    {
        for (j = 0; j < 1; j++)
        {
            transparent_crc(g_523[i][j], "g_523[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}
