/* share_locals: three local arrays of 128 words; a and c are never live together,
 * so the share-memories pass gives them one block RAM. */
#include <stdint.h>
void share(const int32_t *in, int32_t *out)
{
    int32_t a[128], b[128], c[128];
    for (int i = 0; i < 128; i++)
        a[i] = in[i] * 3;
    for (int i = 0; i < 128; i++)
        b[i] = a[i] + a[127 - i];
    for (int i = 0; i < 128; i++)
        c[i] = b[i] ^ 5;
    for (int i = 0; i < 128; i++)
        out[i] = c[i] - b[i & 7];
}

static int32_t src[128], dst[128];

int main(void)
{
    for (int i = 0; i < 128; i++)
        src[i] = i * 37 - 1000;
    share(src, dst);
    return 0;
}
