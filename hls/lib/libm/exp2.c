/* pyhls libm: exp2 (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_exp2(double x) { return pyhls_exp2(x); }
