/* a global pointer variable read in a noinline helper; single-memory pointer arguments */
unsigned char buf[16];
unsigned char *rdptr;
int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};

__attribute__((noinline)) static int next(void) { return *rdptr++; }

__attribute__((noinline)) static int sum(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    for (int i = 0; i < 16; i++)
        buf[i] = i * 7;
    rdptr = buf + 2;
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += next();
    return s + sum(a, 4) * 3 + sum(b + 1, 3);
}
