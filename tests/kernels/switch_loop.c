/* A switch inside a loop body (cases sharing a target, a default): if-converted into one
 * block with one predicate per target, then pipelined. */
#include <stdint.h>

int32_t switch_loop(const uint8_t *in, int32_t *out, int32_t n)
{
    int32_t acc = 0;
    for (int i = 0; i < n; i++) {
        uint8_t c = in[i];
        switch (c & 7) {
        case 0:
        case 5:
            acc += c;
            break;
        case 1:
            acc ^= c << 3;
            out[i] = acc;
            break;
        case 3:
            acc -= 7;
            break;
        default:
            out[i] = -(int32_t)c;
            break;
        }
    }
    return acc;
}

int main(void)
{
    uint8_t in[100];
    int32_t out[100];
    int32_t s = 0;
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < 100; i++) {
            in[i] = (uint8_t)(i * 73 + r * 29 + (i >> 2));
            out[i] = 0;
        }
        s += switch_loop(in, out, 60 + 20 * r);
        for (int i = 0; i < 100; i++)
            s ^= out[i] + i;
    }
    return s & 0xff;
}
