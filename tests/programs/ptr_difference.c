/* pointer differences (ptrtoint only inside p - q), also through a run-time pointer */
int buf[32];
int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static int span(const int *b, const int *e) { return e - b; }

static int find(const int *p, const int *end, int v)
{
    const int *q = p;
    while (q < end && *q != v)
        q++;
    return q - p;
}

int main(void)
{
    for (int i = 0; i < 32; i++)
        buf[i] = (i * 13) % 17;
    int s = span(buf + 3, buf + 20) + find(buf, buf + 32, 9) * 5;
    for (int k = 0; k < 4; k++) {
        const int *t = (k & 1) ? a : buf;
        s = s * 3 + find(t, t + 8, 5 + k);
    }
    long d = (char *)(a + 5) - (char *)(a + 1);
    return s + (int)d;
}
