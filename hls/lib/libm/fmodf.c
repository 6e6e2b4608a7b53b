/* pyhls libm: fmodf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_fmodf(float x, float y) { return pyhls_fmodf(x, y); }
