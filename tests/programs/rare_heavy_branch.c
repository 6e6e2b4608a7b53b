/* A loop whose rare branch (1 iteration in 32) touches one array thirteen times.
 * If-converted, every iteration pays for those accesses (II = 7 on two ports); with its
 * branches kept, the common path costs a few states.  The profitability estimate must
 * keep the branches (tests/test_profit.py). */
static int a[64], b[64];

int main(void)
{
    int s = 0;
    for (int i = 0; i < 64; i++) {
        a[i] = i * 7;
        b[i] = i ^ 5;
    }
    for (int i = 0; i < 64; i++) {
        if ((i & 31) == 31) {
            b[i] = a[i] + a[i - 1] + a[i - 2] + a[i - 3] + a[i - 4] + a[i - 5] + a[i - 7]
                   + a[i - 8] + a[i - 9] + a[i - 10] + a[i - 11] + a[i - 12];
            a[i - 6] = b[i];
        } else {
            s += b[i];
        }
    }
    return s + b[31] + a[57];
}
