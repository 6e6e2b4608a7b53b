#include <stdint.h>
static void fill(int32_t *t, int32_t k) { for (int i = 0; i < 16; i++) t[i] = i * k; }
static void add(const int32_t *t, int32_t *o) { for (int i = 0; i < 16; i++) o[i] += t[i]; }

void top(int32_t *o)
{
    int32_t t[16];
    fill(t, 2);
    fill(t, 3);
    add(t, o);
}
