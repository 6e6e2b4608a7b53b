"""Floating-point operations on a target: which :mod:`hls.fpu` unit implements an op and
with how many pipeline stages.

Every unit reports an analytical ``cost(fmt, stages)`` (latency, delay of its slowest
stage on a generic 10 ns-class FPGA, LUT/FF/DSP); see the unit classes.  For a target the
stage delays are scaled by the ratio of its LUT-level delay to the generic one, and the
fewest stages are chosen whose slowest stage fits the clock period.  Units are fully pipelined (a new operation every cycle) and are
not shared between operations.
"""

from __future__ import annotations

from functools import lru_cache

from ..fpu import (FPFMA, FPAdd, FPCmp, FPConvert, FPDiv, FPFormat, FPMinMax, FPMul, FPSign, FPSqrt,
                   FPToInt, IntToFP)
from ._model import OpTiming
from ._registry import GENERIC_TECH

MAX_STAGES = 64


def unit_spec(kind: str, fmt: FPFormat, attrs: tuple = ()) -> tuple[type, dict]:
    """(unit class, constructor keyword arguments other than ``stages``) of an op.
    ``attrs``: ("pred", p) for fcmp, ("width", w)/("src", fmt) where relevant."""
    a = dict(attrs)
    if kind in ("fadd", "fsub"):
        return FPAdd, {"fmt": fmt, "sub": kind == "fsub"}
    if kind == "fmul":
        return FPMul, {"fmt": fmt}
    if kind == "ffma":
        return FPFMA, {"fmt": fmt}
    if kind == "fdiv":
        return FPDiv, {"fmt": fmt}
    if kind == "fsqrt":
        return FPSqrt, {"fmt": fmt}
    if kind in ("fneg", "fabs", "fcopysign"):
        return FPSign, {"fmt": fmt, "op": {"fneg": "neg", "fabs": "abs",
                                           "fcopysign": "copysign"}[kind]}
    if kind in ("fminnum", "fmaxnum"):
        return FPMinMax, {"fmt": fmt, "is_max": kind == "fmaxnum"}
    if kind == "fcmp":
        return FPCmp, {"fmt": fmt, "pred": a["pred"]}
    if kind in ("fptosi", "fptoui"):
        return FPToInt, {"fmt": fmt, "width": a["width"], "signed": kind == "fptosi"}
    if kind in ("sitofp", "uitofp"):
        return IntToFP, {"fmt": fmt, "width": a["width"], "signed": kind == "sitofp"}
    if kind == "fpconv":
        return FPConvert, {"src": a["src"], "dst": fmt}
    raise KeyError(kind)


def _cost(cls: type, kw: dict, stages: int) -> dict:
    kw = dict(kw)
    if cls is FPConvert:
        return cls.cost(kw.pop("src"), stages, dst=kw.pop("dst"))
    fmt = kw.pop("fmt")
    if cls in (FPToInt, IntToFP):
        return cls.cost(fmt, stages, width=kw["width"], signed=kw["signed"])
    if cls is FPCmp:
        return cls.cost(fmt, stages, pred=kw["pred"])
    if cls is FPSign:
        return cls.cost(fmt, stages, op=kw["op"])
    if cls is FPMinMax:
        return cls.cost(fmt, stages)
    if cls is FPAdd:
        return cls.cost(fmt, stages, sub=kw["sub"])
    return cls.cost(fmt, stages)


@lru_cache(maxsize=1024)
def fp_choice(kind: str, fmt: FPFormat, attrs: tuple, clock_ns: float, scale: float,
              overhead_ns: float) -> tuple[int, OpTiming]:
    """(stages, timing) of the cheapest pipelining of the op's unit that meets the clock."""
    cls, kw = unit_spec(kind, fmt, attrs)
    fixed = cls in (FPSign, FPCmp, FPMinMax)
    c = None
    for stages in range(0, 1 if fixed else MAX_STAGES + 1):
        c = _cost(cls, kw, stages)
        if c["delay_ns"] * scale + overhead_ns <= clock_ns:
            break
    assert c is not None
    lat = c["latency"]
    delay = c["delay_ns"] * scale
    return stages, OpTiming(lat, delay, int(c["lut"]), int(c["ff"]), int(c["dsp"]), None, 1, True)


def op_attrs(op) -> tuple:
    """The attributes of an IR op that select its unit (hashable)."""
    k = op.kind
    if k == "fcmp":
        return (("pred", op.attrs["pred"]),)
    if k in ("fptosi", "fptoui"):
        return (("width", op.width),)
    if k in ("sitofp", "uitofp"):
        return (("width", op.operands[0].width),)
    if k == "fpconv":
        return (("src", op.attrs["src"]),)
    return ()


def fp_timing(target, op) -> tuple[int, OpTiming]:
    """(stages, timing) of the floating-point IR op ``op`` on ``target``."""
    scale = target.tech.fp_scale
    if scale is None:
        scale = target.tech.logic_ns / GENERIC_TECH.logic_ns
    # registers' outputs are at time 0 of a step in the scheduler's model, as here; a
    # stage has the chain budget (the clock less the target's step overhead)
    return fp_choice(op.kind, op.attrs["fmt"], op_attrs(op), float(target.chain_budget_ns),
                     round(scale, 6), 0.0)
