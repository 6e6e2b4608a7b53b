/* struct copies and clears through pointers selected between arrays (memcpy/memset
   through a pointer whose memory is decided at run time) */
struct rec {
    int a;
    short b;
    char c[6];
};

struct rec A[4] = {{1, 2, "abc"}, {3, 4, "de"}, {5, 6, "fgh"}, {7, 8, "ij"}};
struct rec B[4] = {{10, 20, "xy"}, {30, 40, "zw"}, {50, 60, "uv"}, {70, 80, "st"}};
struct rec out[4];

int main(void)
{
    for (int i = 0; i < 4; i++) {
        const struct rec *s = (i & 1) ? &A[i] : &B[3 - i];
        out[i] = *s;
    }
    for (int i = 0; i < 4; i++) {
        struct rec *d = (i * 5 & 2) ? &A[i] : &B[i];
        *d = (struct rec){0};
        d->b = (short)(i + 1);
    }
    int s = 0;
    for (int i = 0; i < 4; i++)
        s = s * 7 + out[i].a + out[i].b + out[i].c[1] + A[i].b * 3 + B[i].a + B[i].b;
    return s;
}
