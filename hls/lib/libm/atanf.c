/* pyhls libm: atanf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_atanf(float x) { return pyhls_atanf(x); }
