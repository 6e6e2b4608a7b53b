/* pointer comparison across and within arrays: a memmove-like overlap test */
int x[16], y[16];

static void move(int *dst, const int *src, int n)
{
    if (dst < src) {
        for (int i = 0; i < n; i++)
            dst[i] = src[i];
    } else if (dst > src) {
        for (int i = n - 1; i >= 0; i--)
            dst[i] = src[i];
    }
}

int main(void)
{
    for (int i = 0; i < 16; i++) {
        x[i] = i * i;
        y[i] = 100 - i;
    }
    move(x + 2, x, 10);
    move(x, x + 5, 8);
    move(y + 1, x + 3, 6);
    move(x + 4, y, 4);
    for (int k = 0; k < 6; k++) {  /* pointers decided at run time, compared across arrays */
        int *d = (k & 1) ? x + k : y + (k >> 1);
        const int *src = (k & 2) ? x + 1 : y + k;
        move(d, src, 4);
    }
    int s = 0;
    for (int i = 0; i < 16; i++)
        s = s * 3 + x[i] + 2 * y[i];
    int same = (x + 3 == x + 3) + ((int *)y == x) * 2;
    return s + same;
}
