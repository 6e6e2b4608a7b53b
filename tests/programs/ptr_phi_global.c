/* issue 9, reproducer 1: a pointer walk that starts at a plain global */
const unsigned init_p[6] = {3, 1, 4, 1, 5, 9};
unsigned key_p[6];

void copy(unsigned *s1, const unsigned *s2, int n)
{
    while (n-- > 0)
        *s1++ = *s2++;
}

int main(void)
{
    copy(key_p, init_p, 6);
    unsigned s = 0;
    for (int i = 0; i < 6; i++)
        s = s * 7 + key_p[i];
    return s;
}
