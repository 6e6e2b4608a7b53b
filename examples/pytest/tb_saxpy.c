/* The testbench: pyhls captures its calls of saxpy and replays them on the hardware. */
void saxpy(int a, const int x[16], int y[16]);

int main(void) {
    int x[16], y[16];
    for (int i = 0; i < 16; i++) {
        x[i] = i - 4;
        y[i] = 100 - i;
    }
    saxpy(3, x, y);
    return 0;
}
