/* long double (x86 80-bit extended precision) has no hardware format */
long double top(int a, int b)
{
    long double x = (long double)a;
    return x * 0.5L + (long double)b;
}
