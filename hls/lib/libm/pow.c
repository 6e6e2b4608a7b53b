/* pyhls libm: pow (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_pow(double x, double y) { return pyhls_pow(x, y); }
