"""The pyhls CDFG: modules, functions, blocks, operations, values and memory objects.

Encoding (the invariants every pass relies on):

* Values are SSA and compared by identity.  A ``Value`` is either a ``Const`` (raw bits,
  already masked to ``width``), a ``Param`` (a scalar argument of the function) or an
  ``Op`` that produces a result (``width > 0``).
* Integer values carry no signedness; an op's ``kind`` says how bits are interpreted
  (``sdiv`` vs ``udiv``).  Widths are 1..64 bits, except that ``concat`` results may be
  wider (memory words up to 128 bits).
* Memory is explicit: every pointer of the LLVM input is resolved to a ``MemoryObject``
  and a byte offset, and loads/stores address a memory by *word index* (``addr`` operand),
  with a static byte ``lane`` inside the word and an access ``size`` in bytes.
* Floating-point values are bit vectors too; a float op (``FLOAT_KINDS``) carries its
  format (``hls.fpu.FPFormat``) in ``attrs["fmt"]``.
* What each op kind is (operands, widths, attributes, semantics, timing class, hardware)
  is its definition in ``OPS`` (:mod:`hls.ir._ops`); ``verify`` checks ops against it.
* Each block holds its phis first, then ordinary ops, and ends with exactly one
  terminator op (``br``, ``condbr``, ``switch`` or ``ret``).
"""

from ._ops import FCMP_PREDS, FLOAT_KINDS, FPU, ICMP_PREDS, OPS, OpDef, op_def
from ._core import (
    Block,
    Const,
    Function,
    Loc,
    Bank,
    MemoryObject,
    Module,
    Op,
    Param,
    PtrParam,
    Value,
    add_guard,
    dominates,
    dominators,
    print_ir,
    replace_uses,
    uses_outside,
    verify,
)

__all__ = [
    "FCMP_PREDS",
    "FLOAT_KINDS",
    "FPU",
    "ICMP_PREDS",
    "OPS",
    "OpDef",
    "op_def",
    "Block",
    "Const",
    "Function",
    "Loc",
    "Bank",
    "dominates",
    "dominators",
    "MemoryObject",
    "Module",
    "Op",
    "Param",
    "PtrParam",
    "Value",
    "add_guard",
    "print_ir",
    "replace_uses",
    "uses_outside",
    "verify",
]

from ._interp import InterpError, InterpResult, Interpreter, StepLimit, run_function  # noqa: E402
from ._ops import eval_op  # noqa: E402
from ._semantics import Undefined  # noqa: E402

__all__ += ["InterpError", "InterpResult", "Interpreter", "StepLimit", "Undefined", "eval_op", "run_function"]

from ._text import parse_module, print_module  # noqa: E402

__all__ += ["parse_module", "print_module"]
