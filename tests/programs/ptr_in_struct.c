/* a struct holding a pointer */
struct stream {
    const short *data;
    int len;
    int pos;
};

const short samples_a[6] = {3, -1, 4, -1, 5, -9};
const short samples_b[5] = {2, 7, -1, 8, 2};
struct stream streams[2] = {{samples_a, 6, 0}, {samples_b, 5, 0}};
struct stream cur_s;

static int pull(struct stream *s)
{
    if (s->pos >= s->len)
        return 0;
    return s->data[s->pos++];
}

int main(void)
{
    int acc = 0;
    for (int i = 0; i < 8; i++) {
        acc = acc * 3 + pull(&streams[i & 1]);
    }
    cur_s = streams[1];
    cur_s.pos = 1;
    acc += pull(&cur_s) * 100;
    return acc;
}
