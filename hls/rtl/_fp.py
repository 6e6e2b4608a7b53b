"""Floating-point ops in the datapath: one :mod:`hls.fpu` unit per op, pipelined as the
target's operator library chose (:func:`hls.targets._fp.fp_timing`)."""

from __future__ import annotations

from ..ir import Op
from ..targets._fp import fp_timing, op_attrs, unit_spec


def fp_unit(op: Op, target):
    """A fresh unit for ``op``; its latency is the one the scheduler assumed."""
    stages, timing = fp_timing(target, op)
    cls, kw = unit_spec(op.kind, op.attrs["fmt"], op_attrs(op), target.tech.fp_mul_tile)
    unit = cls(stages=stages, **kw)
    return unit, timing.latency


def fp_operands(unit, operands: list) -> list:
    """The statements driving the unit's operand ports (``a``, ``b``, ``c``)."""
    return [getattr(unit, name).eq(v) for name, v in zip(("a", "b", "c"), operands)]


def connect_fp(m, unit, operands: list, ce) -> list:
    """Drive the unit's operand ports and clock enable."""
    stmts = [unit.ce.eq(ce), *fp_operands(unit, operands)]
    m.d.comb += stmts
    return stmts
