/* pyhls libm: hypotf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_hypotf(float x, float y) { return pyhls_hypotf(x, y); }
