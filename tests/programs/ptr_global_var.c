/* issue 9, reproducer 3: a global pointer variable */
unsigned char buf[16];
unsigned char *rdptr;

static int next(void) { return *rdptr++; }

int main(void)
{
    for (int i = 0; i < 16; i++)
        buf[i] = i * 7;
    rdptr = buf + 2;
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += next();
    return s;
}
