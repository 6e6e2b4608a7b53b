/* memmove within one array, source and destination overlapping in both directions, with
   run-time and constant lengths and distances (0, 1, odd) */
unsigned char buf[96];
unsigned int words[48];
int shifts[6] = {1, -1, 3, -5, 0, 8};
int lens[6] = {0, 1, 7, 16, 33, 40};

static void init(void) {
  for (int i = 0; i < 96; i++) buf[i] = (unsigned char)(i * 13 + 7);
  for (int i = 0; i < 48; i++) words[i] = i * 0x01010101u + 0x10203;
}

static unsigned mix(unsigned s) {
  for (int i = 0; i < 96; i++) s = s * 31 + buf[i];
  for (int i = 0; i < 48; i++) s = s * 7 + words[i];
  return s;
}

int main(void) {
  unsigned s = 1;
  for (int k = 0; k < 6; k++) {
    for (int j = 0; j < 6; j++) {
      init();
      int d = shifts[k], n = lens[j];
      __builtin_memmove(buf + 40 + d, buf + 40, n);        /* byte elements */
      __builtin_memmove(words + 8 + d, words + 8, n / 2 * 4);  /* word elements */
      s = mix(s);
    }
  }
  init();
  __builtin_memmove(buf + 2, buf + 1, 80);  /* constant length, upwards overlap */
  __builtin_memmove(buf + 3, buf + 9, 70);  /* constant length, downwards overlap */
  __builtin_memmove(words + 1, words, 12);  /* small constant: straight-line */
  s = mix(s);
  return (int)(s & 0x7fffffff);
}
