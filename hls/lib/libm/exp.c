/* pyhls libm: exp (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_exp(double x) { return pyhls_exp(x); }
