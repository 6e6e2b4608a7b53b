/* floating-point arithmetic */
int top(int a, int b)
{
    float x = (float)a;
    float y = x * 0.5f + (float)b;
    return (int)y;
}
