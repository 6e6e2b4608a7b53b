/* pyhls libm: sinh (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_sinh(double x) { return pyhls_sinhcosh(x, 0); }
