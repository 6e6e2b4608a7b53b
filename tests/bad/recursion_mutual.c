/* mutual recursion through two noinline functions */
__attribute__((noinline)) int ping(int n);

__attribute__((noinline)) int pong(int n)
{
    return n <= 0 ? 0 : 1 + ping(n - 1);
}

__attribute__((noinline)) int ping(int n)
{
    return n <= 0 ? 0 : 2 * pong(n - 1);
}

int top(int n)
{
    return ping(n);
}
