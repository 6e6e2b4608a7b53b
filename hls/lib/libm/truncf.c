/* pyhls libm: truncf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_truncf(float x) { return pyhls_trunc_roundf(x, 0); }
