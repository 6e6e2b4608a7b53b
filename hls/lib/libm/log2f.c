/* pyhls libm: log2f (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_log2f(float x) { return pyhls_log2f(x); }
