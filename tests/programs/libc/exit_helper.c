/* exit(n) from a helper inlined into main ends the run with status n */
void exit(int status);

int table[16];

static void check(int v, int i) {
  if (v > 1000) exit(40 + i);  /* taken for i = 9 */
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 16; i++) {
    table[i] = i * i * 13;
    check(table[i], i);
    s += table[i];
  }
  return s & 0xff;  /* not reached */
}
