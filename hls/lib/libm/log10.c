/* pyhls libm: log10 (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_log10(double x) { return pyhls_log10(x); }
