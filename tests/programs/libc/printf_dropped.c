/* printf, puts and putchar are dropped from the hardware (with a warning) */
int printf(const char *fmt, ...);
int puts(const char *s);
int putchar(int c);

int data[8] = {3, 1, 4, 1, 5, 9, 2, 6};

int main(void) {
  int s = 0;
  for (int i = 0; i < 8; i++) {
    s = s * 3 + data[i];
    printf("step %d: %d\n", i, s);
  }
  puts("done");
  putchar('\n');
  printf("sum\n");
  return s & 0x7fff;
}
