"""The operation definitions: everything pyhls knows about an op kind, in one entry.

An op kind used to be described in seven places (operand counts in ``_core``, timing
classes in the target model bridged by the scheduler, hardware in ``hls.rtl``, semantics
in ``_semantics``, narrowing tables, and sets of kind strings).  Adding or changing a kind
meant finding them all; forgetting one showed up late, as a KeyError in the scheduler or
a silent mismatch in co-simulation.  Now each kind has one :class:`OpDef` in :data:`OPS`,
and the places that need to know something about a kind read it from there:

* ``hls.ir.verify``: operand count, attribute schema, result and operand widths;
* ``hls.ir.eval_op`` (hence the interpreter and every differential test): ``eval``;
* ``hls.scheduling.op_timing``: ``timing`` (the class in ``hls.targets._model._TABLE``,
  or :data:`FPU` for the floating-point units of ``hls.targets._fp``) at the width
  ``timing_width`` says;
* ``hls.rtl`` (FSMD and pipeline controller): ``rtl`` for combinational kinds,
  ``divider``/``float`` for the sequential and floating-point units;
* ``hls.transforms.narrow_widths``: ``narrow``; ``combine_loads``: ``pure``.

Adding an op kind touches:

* ``hls/ir/_ops.py`` (this file): its ``OpDef``.  A rule longer than a line goes in
  ``hls/ir/_semantics.py`` (evaluation) or ``hls/ir/_ops_rtl.py`` (hardware) and is
  named here;
* ``tests/test_op_rtl.py`` when it has hardware of its own (add it to a list there, so
  the hardware is compared with the evaluation; ``tests/test_opdefs.py`` fails until it
  is, and checks the rest of the definition without being told about the kind);
* its producer: ``hls/frontend/_translate.py`` for an LLVM instruction or intrinsic, or
  the pass that creates it;
* ``hls/targets/_model.py`` only when no existing timing class fits.  The classes with a
  ``resource`` (``mul``, the dividers) are shared units in ``hls.binding`` whose hardware
  ``hls.rtl`` builds as a multiplier or divider: a new kind must not borrow them;
* for a floating-point kind, also its unit (``hls.targets._fp.unit_spec``, an
  ``hls.fpu`` unit) and reference model (``hls.fpu.ref``).

Nothing else: ``verify``, the interpreter, the IR text form, the scheduler, binding and
the RTL datapaths take a new combinational integer kind as it is defined here.

Not read from here: the memory, call, phi and terminator handling of the interpreter,
scheduler, binding and ``hls.rtl`` (each is one kind with logic of its own, named by kind
where it is used), the choice between quotient and remainder of the divider, and the
floating-point unit choice (``hls.targets._fp.unit_spec``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import HLSError
from ..fpu import FPFormat, ref
from . import _ops_rtl as rtl
from . import _semantics as sem
from ._semantics import mask, to_signed

__all__ = ["FCMP_PREDS", "FLOAT_KINDS", "FPU", "ICMP_PREDS", "OPS", "Attr", "OpDef",
           "eval_op", "op_def"]

ICMP_PREDS = frozenset({"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"})
FCMP_PREDS = frozenset({"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                        "uge", "ult", "ule", "une", "uno", "true"})

#: the timing class of the floating-point kinds: ``hls.targets._fp.fp_timing`` picks the
#: unit and its pipelining, not the integer operator table
FPU = "fpu"

#: result width rule: the width the op must have, from its operand widths and attributes
ResultRule = Callable[[Sequence[int], dict], int]
#: operand width rule: what is wrong with the operand widths given the result width (or None)
OperandRule = Callable[[Sequence[int], int, dict], "str | None"]
#: evaluation: (operand values masked to their widths, result width, attrs, operand widths)
EvalRule = Callable[[list, int, dict, Sequence[int]], int]
#: hardware: (op, operand values as Amaranth values) -> the result's expression
RTLRule = Callable[[object, list], object]


@dataclass(frozen=True)
class Attr:
    """One attribute of an op kind.  ``type`` is a class, or the name of an ``hls.ir``
    class (``"MemoryObject"``): the IR dataclasses read these definitions, so this module
    cannot import them.  ``values``: the allowed values, when they are a closed set;
    ``keys``: for a dict, the allowed keys."""

    type: type | tuple | str
    required: bool = True
    values: frozenset | None = None
    keys: frozenset | None = None

    def problem(self, v) -> str | None:
        if isinstance(self.type, str):
            ok = any(c.__name__ == self.type for c in type(v).__mro__)
            want = self.type
        else:
            # an int attribute is never a bool (True would pass isinstance)
            ok = isinstance(v, self.type) and not (isinstance(v, bool) and self.type is int)
            want = getattr(self.type, "__name__", str(self.type))
        if not ok:
            return f"must be {want}, not {type(v).__name__} {v!r}"
        if self.values is not None and v not in self.values:
            return f"must be one of {sorted(self.values)}, not {v!r}"
        if self.keys is not None:
            bad = [k for k in v if k not in self.keys]
            if bad:
                return f"has the unknown key {bad[0]!r} (allowed: {', '.join(sorted(self.keys))})"
        return None


@dataclass(frozen=True)
class OpDef:
    """Everything about one op kind.  See the module docstring for who reads what."""

    kind: str
    #: operand count; None = variable (load, store, call, ret, concat; checked by rules)
    operands: int | None
    #: the result width; None = given (the producer chooses it: conversions, select, phi)
    result: ResultRule | None
    #: constraints on operand widths
    operand_widths: OperandRule | None = None
    #: the attributes of the kind: ``verify`` checks presence, type and values, and
    #: rejects any other name (as the IR text parser does), so a misspelled optional
    #: attribute is an error rather than an attribute silently absent
    attrs: dict[str, Attr] = field(default_factory=dict)
    #: key of the target's operator table (``hls.targets._model._TABLE``) or :data:`FPU`;
    #: None for phi (a register written on the edges, not an operation of a step)
    timing: str | None = None
    #: the width the timing query uses: "result" (the result's, or the widest operand's
    #: when there is no result) or "widest" (of the operands and the result)
    timing_width: str = "result"
    #: combinational hardware; None for the kinds with hardware of their own (below)
    rtl: RTLRule | None = None
    #: evaluation; None for memory, call, phi and control ops, which the interpreter runs
    eval: EvalRule | None = None
    float: bool = False
    #: operands may be swapped (for rewrites that canonicalise operand order; none yet)
    commutative: bool = False
    terminator: bool = False
    #: reads or writes a memory through its ports (``attrs["mem"]``)
    memory: bool = False
    #: the sequential divider unit (``hls.rtl._units.SeqDivider``), latency from the target
    divider: bool = False
    #: narrowing by demanded bits: "low" when the low k result bits depend only on the low
    #: k bits of every operand; "low-shift" when that holds for operand 0 with operand 1 a
    #: constant shift amount (``shl``)
    narrow: str | None = None

    def unknown_attr(self, attrs) -> str | None:
        """What is wrong when ``attrs`` names an attribute outside this kind's schema
        (None when every name is in it)."""
        for name in attrs:
            if name not in self.attrs:
                allowed = ", ".join(sorted(self.attrs)) or "none"
                return f"unknown attribute {name!r} (allowed: {allowed})"
        return None

    @property
    def pure(self) -> bool:
        """The result is a function of the operands and attributes alone (no memory, no
        control, no incoming edge): equal ops on equal operands compute equal values."""
        return self.eval is not None


# ----------------------------------------------------------------------------- width rules

def _first(ws: Sequence[int], at: dict) -> int:
    return ws[0]


def _one(ws: Sequence[int], at: dict) -> int:
    return 1


def _none(ws: Sequence[int], at: dict) -> int:
    return 0


def _fmt(ws: Sequence[int], at: dict) -> int:
    return at["fmt"].width


def _equal(ws: Sequence[int], w: int, at: dict) -> str | None:
    if len(set(ws)) > 1:
        return f"operands must have equal widths, not {list(ws)}"
    return None


def _fp_operands(ws: Sequence[int], w: int, at: dict) -> str | None:
    if any(x != at["fmt"].width for x in ws):
        return f"operands must be {at['fmt'].width} bits wide (the format), not {list(ws)}"
    return None


def _select(ws: Sequence[int], w: int, at: dict) -> str | None:
    if ws[0] != 1 or ws[1] != w or ws[2] != w:
        return f"select takes i1, i{w}, i{w}, not {list(ws)}"
    return None


def _cmp3(ws: Sequence[int], w: int, at: dict) -> str | None:
    return _equal(ws, w, at) or (
        f"the result must hold -1..1 (2 bits or more), not i{w}" if w < 2 else None)


def _widening(ws: Sequence[int], w: int, at: dict) -> str | None:
    return f"operand i{ws[0]} is wider than the result" if ws[0] > w else None


def _narrowing(ws: Sequence[int], w: int, at: dict) -> str | None:
    return f"operand i{ws[0]} is narrower than the result" if ws[0] < w else None


def _slice(ws: Sequence[int], w: int, at: dict) -> str | None:
    if at["lo"] < 0 or at["lo"] + w > ws[0]:
        return f"bits [{at['lo']}, {at['lo'] + w}) are outside the i{ws[0]} operand"
    return None


def _bit_operand(ws: Sequence[int], w: int, at: dict) -> str | None:
    return f"the condition must be i1, not i{ws[0]}" if ws[0] != 1 else None


def _store(ws: Sequence[int], w: int, at: dict) -> str | None:
    if len(ws) > 1 and ws[1] != 8 * at["size"]:
        return f"stored data must be {8 * at['size']} bits wide (size), not {ws[1]}"
    return None


def _fp_src(ws: Sequence[int], w: int, at: dict) -> str | None:
    want = at["src"].width
    return f"operand must be {want} bits wide (src), not {ws[0]}" if ws[0] != want else None


# ----------------------------------------------------------------------------- attributes

_FMT = {"fmt": Attr(FPFormat)}
_MEM = {"mem": Attr("MemoryObject"), "lane": Attr(int), "size": Attr(int),
        "guard": Attr(int, required=False)}
#: loop metadata on back-edge branches: ``loop_md`` the loop's pragmas (the frontend's
#: ``_loop_metadata``: ``ii``, ``pipeline``, ``unroll``; ``line``, ``col`` where the loop
#: statement starts; ``label`` its C label, ``hls.frontend.name_loops``), ``unrolled`` what
#: unrolling did ``(factor, exact)``, ``extent_bound`` the trip bound an array's depth
#: gave before partitioning guarded its access (``hls.analysis.ExtentBound.as_attr``)
_LOOP = {"loop_md": Attr(dict, required=False,
                         keys=frozenset({"ii", "pipeline", "unroll", "line", "col", "label"})),
         "unrolled": Attr(tuple, required=False),
         "extent_bound": Attr(tuple, required=False)}
#: a conditional branch: also ``merged``, set on a branch that branch merging built
#: (``hls.transforms.merge_branches``; its condition is the index of the target), which
#: is not merged again
_BRANCH = {**_LOOP, "merged": Attr(bool, required=False)}


# ----------------------------------------------------------------------------- the table

def _int2(kind: str, timing: str, ev: EvalRule, hw: RTLRule, **kw) -> OpDef:
    """A binary integer op whose operands and result have one width."""
    return OpDef(kind, 2, _first, _equal, timing=timing, eval=ev, rtl=hw, **kw)


def _int1(kind: str, timing: str, ev: EvalRule, hw: RTLRule, **kw) -> OpDef:
    """A unary integer op whose result has the operand's width."""
    return OpDef(kind, 1, _first, timing=timing, eval=ev, rtl=hw, **kw)


def _divc(kind: str) -> OpDef:
    return OpDef(kind, 1, _first, attrs={"divisor": Attr(int)}, timing=kind, rtl=rtl.div_const,
                 eval=lambda a, w, at, ws: sem.divc(kind, a[0], w, at["divisor"]))


def _div(kind: str, ev: EvalRule) -> OpDef:
    return OpDef(kind, 2, _first, _equal, timing=kind, eval=ev, divider=True)


def _fp(kind: str, n: int, ev: EvalRule, result: ResultRule | None = _fmt,
        operand_widths: OperandRule | None = _fp_operands, attrs: dict | None = None,
        **kw) -> OpDef:
    return OpDef(kind, n, result, operand_widths, attrs={**_FMT, **(attrs or {})}, timing=FPU,
                 eval=ev, float=True, **kw)


def _fp2(kind: str, **kw) -> OpDef:
    fn = sem.FP_BINARY[kind]
    return _fp(kind, 2, lambda a, w, at, ws: int(fn(at["fmt"], a[0], a[1])), **kw)


_DEFS = [
    # integer arithmetic and logic
    _int2("add", "add", lambda a, w, at, ws: a[0] + a[1], lambda op, a: (a[0] + a[1])[:op.width],
          commutative=True, narrow="low"),
    _int2("sub", "sub", lambda a, w, at, ws: a[0] - a[1], lambda op, a: (a[0] - a[1])[:op.width],
          narrow="low"),
    _int2("mul", "mul", lambda a, w, at, ws: a[0] * a[1], lambda op, a: (a[0] * a[1])[:op.width],
          commutative=True, narrow="low"),
    _div("udiv", lambda a, w, at, ws: sem.udiv(a[0], a[1])),
    _div("sdiv", lambda a, w, at, ws: sem.sdiv(a[0], a[1], w)),
    _div("urem", lambda a, w, at, ws: sem.urem(a[0], a[1])),
    _div("srem", lambda a, w, at, ws: sem.srem(a[0], a[1], w)),
    # division/remainder by the constant attrs["divisor"] (signed for s*: nonzero)
    _divc("udivc"), _divc("uremc"), _divc("sdivc"), _divc("sremc"),
    _int2("and", "and", lambda a, w, at, ws: a[0] & a[1], lambda op, a: a[0] & a[1],
          commutative=True, narrow="low"),
    # ``disjoint``: LLVM's ``or disjoint`` (the operands share no set bit wherever the op
    # runs in the source program, so it computes their sum; clang proves it from known
    # bits): what the affine address analysis reads, never the value computed
    _int2("or", "or", lambda a, w, at, ws: a[0] | a[1], lambda op, a: a[0] | a[1],
          commutative=True, narrow="low", attrs={"disjoint": Attr(bool, required=False)}),
    _int2("xor", "xor", lambda a, w, at, ws: a[0] ^ a[1], lambda op, a: a[0] ^ a[1],
          commutative=True, narrow="low"),
    _int2("shl", "shl", lambda a, w, at, ws: sem.shift(a[0], a[1], w, lambda x, s: x << s),
          rtl.shl, narrow="low-shift"),
    _int2("lshr", "lshr", lambda a, w, at, ws: sem.shift(a[0], a[1], w, lambda x, s: x >> s),
          rtl.lshr),
    _int2("ashr", "ashr",
          lambda a, w, at, ws: sem.shift(to_signed(a[0], w), a[1], w, lambda x, s: x >> s),
          rtl.ashr),
    _int2("smax", "smax", lambda a, w, at, ws: max(to_signed(a[0], w), to_signed(a[1], w)),
          rtl.minmax, commutative=True),
    _int2("smin", "smin", lambda a, w, at, ws: min(to_signed(a[0], w), to_signed(a[1], w)),
          rtl.minmax, commutative=True),
    _int2("umax", "umax", lambda a, w, at, ws: max(a[0], a[1]), rtl.minmax, commutative=True),
    _int2("umin", "umin", lambda a, w, at, ws: min(a[0], a[1]), rtl.minmax, commutative=True),
    # abs(INT_MIN) wraps to INT_MIN
    _int1("abs", "abs", lambda a, w, at, ws: abs(to_signed(a[0], w)), rtl.abs_),
    _int2("sadd_sat", "sadd_sat", lambda a, w, at, ws: sem.signed_sat("sadd_sat", a, w),
          rtl.signed_sat, commutative=True),
    _int2("ssub_sat", "ssub_sat", lambda a, w, at, ws: sem.signed_sat("ssub_sat", a, w),
          rtl.signed_sat),
    _int2("uadd_sat", "uadd_sat", lambda a, w, at, ws: min(a[0] + a[1], mask(w)), rtl.uadd_sat,
          commutative=True),
    _int2("usub_sat", "usub_sat", lambda a, w, at, ws: max(a[0] - a[1], 0), rtl.usub_sat),
    OpDef("fshl", 3, _first, _equal, timing="fshl", rtl=rtl.funnel,
          eval=lambda a, w, at, ws: sem.fsh("fshl", a[0], a[1], a[2], w)),
    OpDef("fshr", 3, _first, _equal, timing="fshr", rtl=rtl.funnel,
          eval=lambda a, w, at, ws: sem.fsh("fshr", a[0], a[1], a[2], w)),
    _int1("bitreverse", "bitreverse", lambda a, w, at, ws: sem.bitreverse(a[0], w),
          rtl.bitreverse),
    _int1("bswap", "bswap", lambda a, w, at, ws: sem.bswap(a[0], w), rtl.bswap),
    _int1("ctpop", "ctpop", lambda a, w, at, ws: a[0].bit_count(), rtl.ctpop),
    _int1("ctlz", "ctlz", lambda a, w, at, ws: sem.ctlz(a[0], w), rtl.ctlz),
    _int1("cttz", "cttz", lambda a, w, at, ws: sem.cttz(a[0], w), rtl.cttz),
    OpDef("icmp", 2, _one, _equal, attrs={"pred": Attr(str, values=ICMP_PREDS)},
          timing="icmp", timing_width="widest", rtl=rtl.icmp,
          eval=lambda a, w, at, ws: sem.icmp(at["pred"], a[0], a[1], ws[0])),
    # three-way comparison (llvm.scmp/llvm.ucmp; clang forms it from (a > b) - (a < b)):
    # -1, 0 or 1 in the result's own width; timed as a compare-and-select (as smax)
    OpDef("scmp", 2, None, _cmp3, timing="smax", timing_width="widest", rtl=rtl.cmp3,
          eval=lambda a, w, at, ws: sem.cmp3(a[0], a[1], ws[0], True)),
    OpDef("ucmp", 2, None, _cmp3, timing="umax", timing_width="widest", rtl=rtl.cmp3,
          eval=lambda a, w, at, ws: sem.cmp3(a[0], a[1], ws[0], False)),
    # cond, true, false
    OpDef("select", 3, None, _select, timing="select", rtl=rtl.select,
          eval=lambda a, w, at, ws: a[1] if a[0] & 1 else a[2]),
    OpDef("zext", 1, None, _widening, timing="zext", timing_width="widest",
          rtl=lambda op, a: a[0], eval=lambda a, w, at, ws: a[0]),
    OpDef("sext", 1, None, _widening, timing="sext", timing_width="widest",
          rtl=lambda op, a: a[0].as_signed(), eval=lambda a, w, at, ws: to_signed(a[0], ws[0])),
    OpDef("trunc", 1, None, _narrowing, timing="trunc", timing_width="widest",
          rtl=lambda op, a: a[0][:op.width], eval=lambda a, w, at, ws: a[0]),
    # bits [lo, lo + width) of the operand
    OpDef("slice", 1, None, _slice, attrs={"lo": Attr(int)}, timing="copy",
          timing_width="widest", rtl=rtl.slice_, eval=lambda a, w, at, ws: a[0] >> at["lo"]),
    # operands little-endian (operand 0 is the low part)
    OpDef("concat", None, lambda ws, at: sum(ws), timing="copy", timing_width="widest",
          rtl=rtl.concat, eval=lambda a, w, at, ws: sem.concat(a, ws)),
    # incoming values in ``Op.incoming``, of the phi's width (checked by verify)
    OpDef("phi", 0, None),
    # operand: word address [, predicate]; attrs["guard"]: index of the i1 predicate
    # operand, the access happens only when it holds (if-converted loop bodies)
    OpDef("load", None, lambda ws, at: 8 * at["size"], attrs=_MEM, timing="load",
          memory=True),
    # operands: word address, data [, predicate]
    OpDef("store", None, _none, _store, attrs=_MEM, timing="store", timing_width="widest",
          memory=True),
    # scalar arguments, then one word offset per attrs["ptr_args"] entry
    # ((callee PtrParam, caller memory) pairs)
    OpDef("call", None, lambda ws, at: at["callee"].return_width,
          attrs={"callee": Attr("Function"), "ptr_args": Attr(list, required=False)},
          timing="call", timing_width="widest"),
    # floating point on bit vectors; attrs["fmt"]: the FPFormat (of the result; of the
    # operands for fcmp/fptosi/fptoui; fpconv also has attrs["src"], the operand's)
    _fp2("fadd", commutative=True), _fp2("fsub"), _fp2("fmul", commutative=True), _fp2("fdiv"),
    _fp("fsqrt", 1, lambda a, w, at, ws: int(ref.sqrt(at["fmt"], a[0]))),
    _fp("ffma", 3, lambda a, w, at, ws: int(ref.fma(at["fmt"], a[0], a[1], a[2]))),
    _fp("fneg", 1, lambda a, w, at, ws: int(ref.neg(at["fmt"], a[0]))),
    _fp("fabs", 1, lambda a, w, at, ws: int(ref.fabs(at["fmt"], a[0]))),
    _fp2("fcopysign"), _fp2("fminnum", commutative=True), _fp2("fmaxnum", commutative=True),
    _fp("fcmp", 2, lambda a, w, at, ws: int(ref.fcmp(at["fmt"], at["pred"], a[0], a[1])),
        result=_one, attrs={"pred": Attr(str, values=FCMP_PREDS)}),
    _fp("fptosi", 1, lambda a, w, at, ws: int(ref.to_int(at["fmt"], a[0], w, True)),
        result=None),
    _fp("fptoui", 1, lambda a, w, at, ws: int(ref.to_int(at["fmt"], a[0], w, False)),
        result=None),
    _fp("sitofp", 1, lambda a, w, at, ws: int(ref.from_int(at["fmt"], a[0], ws[0], True)),
        operand_widths=None),
    _fp("uitofp", 1, lambda a, w, at, ws: int(ref.from_int(at["fmt"], a[0], ws[0], False)),
        operand_widths=None),
    _fp("fpconv", 1, lambda a, w, at, ws: int(ref.convert(at["src"], at["fmt"], a[0])),
        operand_widths=_fp_src, attrs={"src": Attr(FPFormat)}),
    # terminators (successors in ``Op.targets``; switch: default first, ``Op.cases``)
    OpDef("br", 0, _none, attrs=_LOOP, timing="copy", terminator=True),
    OpDef("condbr", 1, _none, _bit_operand, attrs=_BRANCH, timing="copy", terminator=True),
    OpDef("switch", 1, _none, attrs=_BRANCH, timing="copy", terminator=True),
    OpDef("ret", None, _none, timing="copy", terminator=True),
]

#: every op kind the IR may contain; ``verify`` rejects anything else
OPS: dict[str, OpDef] = {d.kind: d for d in _DEFS}
assert len(OPS) == len(_DEFS), "an op kind is defined twice"

FLOAT_KINDS = frozenset(k for k, d in OPS.items() if d.float)


def op_def(kind: str) -> OpDef:
    """The definition of ``kind``; an unknown kind is an error naming the known ones."""
    d = OPS.get(kind)
    if d is None:
        raise HLSError(f"unknown op kind '{kind}'; known kinds: {', '.join(sorted(OPS))}")
    return d


def eval_op(kind: str, width: int, attrs: dict, vals: Sequence[int],
            widths: Sequence[int]) -> int:
    """The result (``width`` bits, unsigned) of a pure op of ``kind`` on operand values
    ``vals`` of widths ``widths``.  Floating-point kinds need ``attrs["fmt"]`` and use the
    bit-exact reference models of :mod:`hls.fpu.ref`.  Raises
    :class:`hls.ir.Undefined` where LLVM defines no result."""
    d = OPS.get(kind)
    if d is None or d.eval is None or (d.float and attrs.get("fmt") is None):
        raise ValueError(f"no evaluation rule for op kind '{kind}'")
    a = [v & mask(x) for v, x in zip(vals, widths)]
    return d.eval(a, width, attrs, widths) & (mask(width) if width else 0)
