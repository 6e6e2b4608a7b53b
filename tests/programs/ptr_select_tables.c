/* a pointer select between two lookup tables */
const int quant_neg[8] = {-1, -3, -7, -12, -20, -31, -45, -60};
const int quant_pos[8] = {2, 5, 9, 14, 22, 33, 47, 64};
int out[16];

int main(void)
{
    int s = 0;
    for (int i = 0; i < 16; i++) {
        int x = (i * 37) % 23 - 11;
        const int *t = x < 0 ? quant_neg : quant_pos;
        out[i] = t[(x < 0 ? -x : x) & 7];
        s = s * 5 + out[i];
    }
    return s;
}
