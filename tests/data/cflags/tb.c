/* testbench of tests/data/cflags, in two files (tb.c, tb_values.c) */
#include "scale.h"
int scaled(int x);
int tb_value(int i);

int main(void) {
  int s = 0;
  for (int i = 0; i < 4; i++) s += scaled(tb_value(i));
  return s == 0;
}
