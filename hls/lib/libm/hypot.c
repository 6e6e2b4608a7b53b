/* pyhls libm: hypot (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_hypot(double x, double y) { return pyhls_hypot(x, y); }
