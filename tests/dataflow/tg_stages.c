/* Stage functions with no orchestration in the code: tg_pipe.json is their task graph
 * (pyhls --task-graph).  They are not static, so the module keeps them. */
#include <stdint.h>
#define FN 32

void tg_scale(const int32_t *in, int32_t *t, int32_t k)
{
    for (int i = 0; i < FN; i++)
        t[i] = in[i] * k;
}

void tg_diff(const int32_t *t, int32_t *u)
{
    for (int i = 0; i < FN; i++)
        u[i] = t[FN - 1 - i] - t[i];
}

int32_t tg_emit(const int32_t *u, int32_t *out, int32_t bias)
{
    int32_t s = 0;
    for (int i = 0; i < FN; i++) {
        out[i] = u[i] + bias;
        s += u[i];
    }
    return s;
}
