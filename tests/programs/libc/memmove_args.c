/* memmove within a pointer argument, offsets and length known only at run time (the
   direction is chosen in hardware); main is the testbench: edge lengths and overlaps */
void shift(unsigned char *buf, int from, int to, int n) {
  __builtin_memmove(buf + to, buf + from, n);
}

unsigned char data[64];

int main(void) {
  static const int cases[][3] = {
    {0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {3, 4, 7}, {4, 3, 7}, {10, 2, 33}, {2, 10, 33},
    {5, 5, 9}, {0, 32, 32}, {32, 0, 32}, {1, 2, 61}, {2, 1, 61},
  };
  unsigned s = 0;
  for (int k = 0; k < 12; k++) {
    for (int i = 0; i < 64; i++) data[i] = (unsigned char)(i * 29 + k);
    shift(data, cases[k][0], cases[k][1], cases[k][2]);
    for (int i = 0; i < 64; i++) s = s * 31 + data[i];
  }
  return (int)(s & 0x7fffffff);
}
