/* pyhls libm: ceilf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_ceilf(float x) { return pyhls_round_tof(x, 1); }
