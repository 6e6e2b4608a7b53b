/* pyhls libm: tanhf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_tanhf(float x) { return pyhls_tanhf(x); }
