/* Hand-written from the diagnosis of Csmith plain:47 (fuzz_repro/plain_47.c), whose
 * g_383 = safe_div_func_int16_t_s_s(x, 5) co-simulated as 32752 instead of 65520:
 * native main returns 65520 (-16 as uint16); the hardware's sdivc 16 by 5 returns a
 * 15-bit quotient, zero-extended (hls/rtl/_fsmd.py _div_const: the negation of the narrow
 * multiply-high slice q is not widened to w bits). */
#include <stdint.h>
int8_t g_210 = -75;
uint16_t g_383;
int main(void) { int16_t x = (int16_t)((int8_t)(g_210 ^ 1)) - 6; g_383 = (int16_t)(x / 5); return g_383; }
