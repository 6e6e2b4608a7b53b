/* a pointer converted to an integer */
long top(int *p)
{
    long a = (long)p;
    return a & 7;
}
