/* pyhls libm: coshf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_coshf(float x) { return pyhls_coshf(x); }
