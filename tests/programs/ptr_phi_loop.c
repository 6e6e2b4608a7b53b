/* a pointer phi over two globals in a loop: ping-pong buffers */
int ping[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int pong[8];

int main(void)
{
    int *src = ping, *dst = pong;
    for (int r = 0; r < 5; r++) {
        for (int i = 0; i < 8; i++)
            dst[i] = src[i] * 3 + src[(i + 1) & 7] - r;
        int *t = src;
        src = dst;
        dst = t;
    }
    int s = 0;
    for (int i = 0; i < 8; i++)
        s = s * 7 + src[i];
    return s;
}
