/* a global pointer variable advanced in helpers, switched between two buffers */
unsigned char in_a[12] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 13};
unsigned char in_b[12] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144};
const unsigned char *cur;
int consumed;

static unsigned get(void) { consumed++; return *cur++; }
static void skip(int n) { cur += n; }

int main(void)
{
    unsigned s = 0;
    cur = in_a;
    for (int i = 0; i < 4; i++)
        s = s * 3 + get();
    skip(2);
    s += get();
    cur = in_b + 1;
    for (int i = 0; i < 6; i++) {
        s = s * 5 + get();
        if (i == 2)
            skip(1);
    }
    return (int)(s ^ (unsigned)consumed);
}
