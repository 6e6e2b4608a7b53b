/* pyhls libm: sinhf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_sinhf(float x) { return pyhls_sinhf(x); }
