/* pyhls libm: sin (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_sin(double x) { return pyhls_sincos(x, 0); }
