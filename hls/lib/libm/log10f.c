/* pyhls libm: log10f (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_log10f(float x) { return pyhls_log10f(x); }
