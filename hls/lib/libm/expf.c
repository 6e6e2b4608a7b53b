/* pyhls libm: expf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_expf(float x) { return pyhls_expf(x); }
