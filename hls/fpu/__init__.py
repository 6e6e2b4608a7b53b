"""Floating-point support: formats, bit-exact reference models (:mod:`hls.fpu.ref`), the
parameterised Amaranth FP units, and their stand-alone Verilator simulation (the unit
tests and benchmarks drive units through :func:`run_unit`)."""

from . import ref
from ._format import BFLOAT16, BINARY32, BINARY64, HALF, FPFormat
from ._sim import build_unit, run_unit, unit_verilog, verilog_ports
from ._stimulus import random_operands
from ._units_add import FPAdd
from ._units_cmp import FPCmp, FPMinMax, FPSign
from ._units_conv import FPConvert, FPToInt, IntToFP
from ._units_div import FPDiv, FPSqrt
from ._units_mul import FPFMA, FPMul

__all__ = [
    "BFLOAT16",
    "BINARY32",
    "BINARY64",
    "FPAdd",
    "FPCmp",
    "FPConvert",
    "FPDiv",
    "FPFMA",
    "FPFormat",
    "FPMinMax",
    "FPMul",
    "FPSign",
    "FPSqrt",
    "FPToInt",
    "HALF",
    "IntToFP",
    "build_unit",
    "random_operands",
    "ref",
    "run_unit",
    "unit_verilog",
    "verilog_ports",
]
