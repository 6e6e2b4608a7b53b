"""Floating-point support: formats, bit-exact reference models (:mod:`hls.fpu.ref`) and the
parameterised Amaranth FP units."""

from . import ref
from ._format import BFLOAT16, BINARY32, BINARY64, HALF, FPFormat
from ._stimulus import random_operands

__all__ = [
    "FPFormat",
    "BINARY32",
    "BINARY64",
    "HALF",
    "BFLOAT16",
    "random_operands",
    "ref",
]
