/* pyhls libm: log2 (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_log2(double x) { return pyhls_log2(x); }
