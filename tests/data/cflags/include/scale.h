/* a header found only through -I */
#ifndef SCALE
#error "SCALE must be defined with -D"
#endif
#ifdef BROKEN
#error "BROKEN must be undefined (-U BROKEN)"
#endif
int twice(int x);
