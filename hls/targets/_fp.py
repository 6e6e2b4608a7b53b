"""Floating-point operations on a target: which :mod:`hls.fpu` unit implements an op and
with how many pipeline stages.

Every unit reports an analytical ``cost(fmt, stages)`` (latency, delay of its slowest
stage on a generic 10 ns-class FPGA, LUT/FF/DSP); see the unit classes.  For a target the
stage delays are scaled by the ratio of its LUT-level delay to the generic one, and the
fewest stages are chosen whose slowest stage fits the clock period.  Units are fully
pipelined (a new operation every cycle).  In FSM states, binding shares a unit between ops
of the same unit (:func:`fp_unit_key`) issued in different states; in a pipelined loop
every op has its own.
"""

from __future__ import annotations

from functools import lru_cache

from ..fpu import (BINARY32, BINARY64, FPFMA, FPAdd, FPCmp, FPConvert, FPDiv, FPFormat, FPMinMax,
                   FPMul, FPSign, FPSqrt, FPToInt, IntToFP)
from ._model import OpTiming
from ._registry import GENERIC_TECH

MAX_STAGES = 64


def unit_spec(kind: str, fmt: FPFormat, attrs: tuple = (), mul_tile: int | None = None
              ) -> tuple[type, dict]:
    """(unit class, constructor keyword arguments other than ``stages``) of an op.
    ``attrs``: ("pred", p) for fcmp, ("width", w)/("src", fmt) where relevant;
    ``mul_tile``: the target's significand-product slicing (``TechParams.fp_mul_tile``)."""
    a = dict(attrs)
    if kind in ("fadd", "fsub"):
        return FPAdd, {"fmt": fmt, "sub": kind == "fsub"}
    if kind == "fmul":
        return FPMul, {"fmt": fmt, "xtile": mul_tile}
    if kind == "ffma":
        return FPFMA, {"fmt": fmt, "xtile": mul_tile}
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
    if cls in (FPMul, FPFMA):
        return cls.cost(fmt, stages, xtile=kw["xtile"])
    return cls.cost(fmt, stages)


@lru_cache(maxsize=1024)
def fp_choice(kind: str, fmt: FPFormat, attrs: tuple, clock_ns: float, scale: float,
              overhead_ns: float, mul_tile: int | None = None,
              first_stage: bool = False) -> tuple[int, OpTiming]:
    """(stages, timing) of the cheapest pipelining of the op's unit that meets the clock;
    ``first_stage``: a pipelined unit's inputs see its slowest stage before the first
    register (``OpTiming.in_delay_ns``; the verified targets; the estimate-only models
    keep 0, their schedules as they were)."""
    cls, kw = unit_spec(kind, fmt, attrs, mul_tile)
    fixed = cls in (FPSign, FPCmp, FPMinMax)
    c = None
    for stages in range(0, 1 if fixed else MAX_STAGES + 1):
        c = _cost(cls, kw, stages)
        if c["delay_ns"] * scale + overhead_ns <= clock_ns:
            break
    assert c is not None
    lat = c["latency"]
    delay = c["delay_ns"] * scale
    return stages, OpTiming(lat, delay, int(c["lut"]), int(c["ff"]), int(c["dsp"]), None, 1, True,
                            delay if first_stage and lat else 0.0)


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


def fp_unit_key(op, stages: int) -> str:
    """The class of units that can serve ``op`` (binding shares a unit between ops of one
    class): its kind, format, selecting attributes and pipeline stages, e.g. ``fmul64_s3``,
    ``fadd_e5m10_s2``, ``fcmp32_olt_s1``, ``fptosi32_i16_s2``."""
    def fmt_name(f: FPFormat) -> str:
        return {BINARY32: "32", BINARY64: "64"}.get(f) or f"_e{f.exp_bits}m{f.man_bits}"

    key = op.kind + fmt_name(op.attrs["fmt"])
    for k, v in op_attrs(op):
        key += "_" + (fmt_name(v).lstrip("_") if isinstance(v, FPFormat)
                      else f"i{v}" if k == "width" else str(v))
    return f"{key}_s{stages}"


#: op kinds built by the same unit as a characterised kind (the unit's mode is a wire)
_SAME_UNIT = {"fsub": "fadd", "uitofp": "sitofp", "fptoui": "fptosi"}


def fp_class(kind: str, fmt: FPFormat, attrs: tuple) -> str | None:
    """The characterised floating-point class of an op (``fadd32``...,
    :data:`FP_CLASS_UNITS`): the class of its unit's kind and format, and integer width
    where the unit has one (any predicate of a compare), or None."""
    kind, width = _SAME_UNIT.get(kind, kind), dict(attrs).get("width")
    return next((cls for cls, (k, f, a) in FP_CLASS_UNITS.items()
                 if k == kind and f == fmt and dict(a).get("width") == width), None)


@lru_cache(maxsize=8)
def measured_fp_scale(library: str, mul_tile: int | None = None) -> float | None:
    """For units the library has not characterised: the largest ratio, over the
    characterised classes and pipelinings, of the measured stage delay to the model's
    (:meth:`cost` ``delay_ns``) — the model's shapes stretched to the device's worst."""
    from ._library import load_library

    lib = load_library(library)
    ratios = []
    for cls, by_stages in (lib.fp or {}).items():
        kind, fmt, attrs = FP_CLASS_UNITS[cls]
        ucls, kw = unit_spec(kind, fmt, attrs, mul_tile)
        for st, (delay, *_area) in by_stages.items():
            model = _cost(ucls, kw, st)["delay_ns"] if st > 0 else 0.0   # pipelined ones
            if model > 0:
                ratios.append(delay / model)
    return round(max(ratios), 4) if ratios else None


#: the characterised floating-point classes: class -> (IR op kind, format, unit attributes);
#: each is sampled at several pipelining depths (``benchmarks/characterise_ecp5.py --fp``)
FP_CLASS_UNITS = {
    "fadd32": ("fadd", BINARY32, ()), "fmul32": ("fmul", BINARY32, ()),
    "sitofp32": ("sitofp", BINARY32, (("width", 32),)),
    "fptosi32": ("fptosi", BINARY32, (("width", 32),)),
    "fcmp32": ("fcmp", BINARY32, (("pred", "olt"),)),
    "fadd64": ("fadd", BINARY64, ()), "fmul64": ("fmul", BINARY64, ()),
}


def _measured_choice(by_stages: dict, budget_ns: float) -> tuple[int, OpTiming]:
    """The fewest characterised stages whose measured stage delay fits the budget (none
    fits: the fastest pipelining, and place and route will say the clock is missed)."""
    fit = [st for st, (d, *_a) in by_stages.items() if d <= budget_ns]
    st = min(fit) if fit else min(by_stages, key=lambda s: (by_stages[s][0], s))
    delay, lut, ff, dsp = by_stages[st]
    # the measurement is the unit's worst stage: its first stage (from the operands) and
    # its last (to the result) are taken to be that long
    return st, OpTiming(st, delay, lut, ff, dsp, None, 1, True, delay if st else 0.0)


def fp_timing(target, op) -> tuple[int, OpTiming]:
    """(stages, timing) of the floating-point IR op ``op`` on ``target``: on a
    characterised library (``--target ecp5``) the measured pipelinings of the op's unit,
    else the unit's model scaled to the target."""
    scale = target.tech.fp_scale
    if target.library is not None:
        from ._library import load_library

        cls = fp_class(op.kind, op.attrs["fmt"], op_attrs(op))
        lib_fp = load_library(target.library).fp or {}
        if cls in lib_fp:
            return _measured_choice(lib_fp[cls], float(target.chain_budget_ns))
        scale = measured_fp_scale(target.library, target.tech.fp_mul_tile) or scale
    if scale is None:
        scale = target.tech.logic_ns / GENERIC_TECH.logic_ns
    # registers' outputs are at time 0 of a step in the scheduler's model, as here; a
    # stage has the chain budget (the clock less the target's step overhead)
    return fp_choice(op.kind, op.attrs["fmt"], op_attrs(op), float(target.chain_budget_ns),
                     round(scale, 6), 0.0, target.tech.fp_mul_tile, target.library is not None)
