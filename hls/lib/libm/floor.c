/* pyhls libm: floor (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_floor(double x) { return pyhls_round_to(x, 0); }
