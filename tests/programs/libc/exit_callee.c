/* exit(n) in functions that are not inlined (two levels below main): the hardware ends
   the run with status n, as the native program does */
void exit(int status);

int hist[8];

__attribute__((noinline)) void bump(int v) {
  hist[v & 7]++;
  if (hist[v & 7] > 3) exit(100 + (v & 7));  /* the fourth 0 (at i = 33): exit(100) */
}

__attribute__((noinline)) int step(int i) {
  int v = (i * 13) % 11;
  bump(v);
  return v;
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 64; i++) s += step(i);
  return s & 0x3f;  /* not reached */
}
