/* pyhls libm: trunc (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_trunc(double x) { return pyhls_trunc_round(x, 0); }
