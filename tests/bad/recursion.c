/* direct recursion (not a tail call, so -O1 keeps it) */
int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}
