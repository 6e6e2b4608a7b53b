/* -I include -D SCALE=3 -U BROKEN --std=c99, linked with helper.c: (x * SCALE) * 2 + OFFSET */
#include "scale.h"

/* BROKEN comes from the command line (-D BROKEN) and -U BROKEN removes it */

#ifndef OFFSET
#define OFFSET 0
#endif

static inline int scale(int x) { return x * SCALE; }  /* inline: a C99 keyword */

int scaled(int x) {
  for (int i = 0; i < 1; i++)  /* a C99 declaration in the for */
    x = scale(x);
  return twice(x) + OFFSET;
}

