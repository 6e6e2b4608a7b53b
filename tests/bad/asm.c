/* inline assembly */
int top(int a)
{
    int r;
    __asm__("bswap %0" : "=r"(r) : "0"(a));
    return r;
}
