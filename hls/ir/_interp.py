"""An interpreter of the CDFG: runs a function on concrete arguments and memories.

It exists to check rewrites at the IR level.  A pass is correct on an input when the
function interpreted before the pass and after it return the same value and leave the
same bytes in every memory, and when both agree with native execution of the LLVM IR
(:func:`hls.verify.run_calls`).  Each op is evaluated by :func:`hls.ir.eval_op` (the ``eval`` of its definition).

Memories are byte arrays keyed by the *whole* array: a bank of a partitioned array
(``MemoryObject.bank``) addresses its words of the whole array, so the contents before
and after partitioning compare directly.  A callee's pointer parameter is a window on the
caller's memory at the call's word offset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import HLSError
from ._core import Block, Const, Function, MemoryObject, Param, PtrParam, Value
from ._ops import eval_op
from ._semantics import Undefined

__all__ = ["InterpError", "InterpResult", "Interpreter", "StepLimit", "Undefined", "run_function"]


class _Poison:
    """A value LLVM calls poison (e.g. a shift by the width or more).  It flows through
    pure ops and phis, as in LLVM, and is only an error (:class:`Undefined`) where it is
    *used*: as a branch condition, an address, a guard, stored data or a return value.
    Speculated code (if-conversion) computes such values and discards them by a select."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why


class InterpError(HLSError):
    """The interpreted program did something with no meaning (an access out of bounds,
    too many steps)."""


class StepLimit(InterpError):
    """The run executed more blocks than its budget (``max_steps``); the counts so far
    (``Interpreter.visits``/``edges``) are those of the run's prefix."""


@dataclass
class InterpResult:
    ret: int | None
    #: final bytes of every whole memory the run touched or was given, by name
    memories: dict[str, bytes]
    steps: int = 0
    #: visits per (function name, block name)
    visits: dict[tuple[str, str], int] = field(default_factory=dict)


def _whole(mem: MemoryObject) -> MemoryObject:
    return mem.whole if mem.bank is not None and mem.whole is not None else mem


@dataclass
class _View:
    """Where a memory of the running function lives: a whole array's bytes, starting at
    ``base`` bytes, with the word size of the memory the accesses use."""

    buf: bytearray
    base: int
    mem: MemoryObject

    def byte(self, addr: int, lane: int, size: int) -> int:
        m = self.mem
        if m.bank is not None:
            words = m.bank.words()
            if not 0 <= addr < len(words):
                raise InterpError(f"word {addr} is outside bank {m.name} ({len(words)} words)")
            addr = words[addr]
        at = self.base + addr * m.word_bytes + lane
        if not 0 <= at or at + size > len(self.buf):
            raise InterpError(f"access of {size} bytes at byte {at} is outside memory {m.name} "
                              f"({len(self.buf)} bytes)")
        return at


class Interpreter:
    """Runs functions of one module on a shared set of memory contents.

    ``memories`` (whole memory -> bytearray) is created from each memory's ``init`` (or
    zeros) the first time the memory is touched, unless given."""

    def __init__(self, max_steps: int = 10_000_000, preset: Mapping[str, bytes] | None = None):
        self.max_steps = max_steps
        #: initial contents by memory name, instead of the memory's ``init``
        self.preset = dict(preset or {})
        self.steps = 0
        self.mems: dict[MemoryObject, bytearray] = {}
        self.visits: dict[tuple[str, str], int] = {}
        #: traversals per (function name, source block name, target block name)
        self.edges: dict[tuple[str, str, str], int] = {}

    def buffer(self, mem: MemoryObject) -> bytearray:
        mem = _whole(mem)
        buf = self.mems.get(mem)
        if buf is None:
            size = mem.word_bytes * (mem.depth_words if mem.bank is None else mem.bank.whole_words)
            init = bytes(self.preset.get(mem.name, mem.init) or b"")[:size]
            buf = bytearray(init.ljust(size, b"\0"))
            self.mems[mem] = buf
        return buf

    def load_args(self, func: Function, mem_in: Mapping[int, bytes] | None) -> dict[int, bytearray]:
        """Fill the memories of ``func``'s pointer parameters from ``mem_in`` (parameter
        index -> bytes; missing or short contents are zero-filled); returns their buffers
        by parameter index."""
        bufs = {}
        for p in func.params:
            if isinstance(p, PtrParam):
                buf = self.buffer(p.mem)
                data = bytes((mem_in or {}).get(p.index, b""))[:len(buf)]
                buf[:] = data.ljust(len(buf), b"\0")
                bufs[p.index] = buf
        return bufs

    def call(self, func: Function, scalars: Mapping[int, int] | None = None,
             views: Mapping[MemoryObject, _View] | None = None) -> int | None:
        """Run ``func``; ``scalars``: parameter index -> bits; ``views``: the windows of its
        pointer parameters' memories (default: each parameter's own whole buffer)."""
        scalars = dict(scalars or {})
        env: dict[Value, int | _Poison] = {}
        for p in func.params:
            if isinstance(p, Param):
                a = scalars.get(p.index, 0)
                env[p] = a if isinstance(a, _Poison) else a & ((1 << p.width) - 1)
        where: dict[MemoryObject, _View] = dict(views or {})

        def view(mem: MemoryObject) -> _View:
            v = where.get(mem)
            if v is None:
                w = where.get(mem.whole) if mem.whole is not None else None
                if w is not None:
                    v = _View(w.buf, w.base, mem)
                else:
                    v = _View(self.buffer(mem), 0, mem)
                where[mem] = v
            return v

        def maybe(v: Value) -> int | _Poison:
            if isinstance(v, Const):
                return v.value
            try:
                return env[v]
            except KeyError:
                raise InterpError(f"@{func.name}: value {v.name or v} read before it is "
                                  "defined") from None

        def val(v: Value, use: str = "used") -> int:
            x = maybe(v)
            if isinstance(x, _Poison):
                raise Undefined(f"@{func.name}: poison ({x.why}) {use}")
            return x

        block: Block = func.entry
        prev: Block | None = None
        while True:
            self.steps += 1
            if self.steps > self.max_steps:
                raise StepLimit(f"@{func.name}: more than {self.max_steps} blocks executed")
            k = (func.name, block.name)
            self.visits[k] = self.visits.get(k, 0) + 1
            if prev is not None:
                e = (func.name, prev.name, block.name)
                self.edges[e] = self.edges.get(e, 0) + 1
            phis = [op for op in block.ops if op.kind == "phi"]
            if phis:
                new = {}
                for phi in phis:
                    src = next((v for p, v in phi.incoming if p is prev), None)
                    if src is None:
                        raise InterpError(f"@{func.name}: phi in {block.name} has no value for "
                                          f"predecessor {prev.name if prev else None}")
                    new[phi] = maybe(src)
                env.update(new)
            for op in block.ops:
                kind = op.kind
                if kind == "phi":
                    continue
                if kind == "br":
                    prev, block = block, op.targets[0]
                    break
                if kind == "condbr":
                    taken = val(op.operands[0], "as a branch condition") & 1
                    prev, block = block, op.targets[0 if taken else 1]
                    break
                if kind == "switch":
                    x = val(op.operands[0], "as a switch value")
                    tgt = op.targets[0]
                    for c, t in zip(op.cases, op.targets[1:]):
                        if x == c & ((1 << op.operands[0].width) - 1):
                            tgt = t
                            break
                    prev, block = block, tgt
                    break
                if kind == "ret":
                    return val(op.operands[0], "returned") if op.operands else None
                if kind == "load":
                    if "guard" in op.attrs and not val(op.operands[op.attrs["guard"]]) & 1:
                        env[op] = 0  # not performed: its value is never selected
                        continue
                    vw = view(op.mem)
                    size = op.attrs["size"]
                    at = vw.byte(val(op.operands[0]), op.attrs["lane"], size)
                    env[op] = int.from_bytes(vw.buf[at:at + size], "little") & ((1 << op.width) - 1)
                    continue
                if kind == "store":
                    if "guard" in op.attrs and not val(op.operands[op.attrs["guard"]]) & 1:
                        continue
                    vw = view(op.mem)
                    size = op.attrs["size"]
                    at = vw.byte(val(op.operands[0]), op.attrs["lane"], size)
                    data = val(op.operands[1], "stored") & ((1 << (8 * size)) - 1)
                    vw.buf[at:at + size] = data.to_bytes(size, "little")
                    continue
                if kind == "call":
                    callee: Function = op.attrs["callee"]
                    args = [maybe(v) for v in op.call_scalar_args()]
                    sc = {p.index: a for p, a in zip(callee.scalar_params, args)}
                    cv = {}
                    for pp, mem, off in op.call_ptr_args():
                        outer = view(mem)
                        base = outer.byte(val(off), 0, 0) if mem.bank is None else None
                        if base is None:
                            raise InterpError("a bank of a partitioned array passed to a call")
                        cv[pp.mem] = _View(outer.buf, base, pp.mem)
                    r = self.call(callee, sc, cv)
                    if op.width:
                        env[op] = (r or 0) & ((1 << op.width) - 1)
                    continue
                xs = [maybe(v) for v in op.operands]
                if kind == "select" and not isinstance(xs[0], _Poison):
                    env[op] = xs[1] if xs[0] & 1 else xs[2]
                    continue
                bad = next((x for x in xs if isinstance(x, _Poison)), None)
                if bad is not None:
                    env[op] = bad
                    continue
                try:
                    env[op] = eval_op(kind, op.width, op.attrs, xs, [v.width for v in op.operands])
                except Undefined as e:
                    env[op] = _Poison(f"{kind}{f' at {op.loc}' if op.loc else ''}: {e}")
            else:
                raise InterpError(f"@{func.name}: block {block.name} has no terminator")


def run_function(func: Function, scalars: Mapping[int, int] | None = None,
                 mem_in: Mapping[int, bytes] | None = None,
                 globals_: Mapping[str, bytes] | None = None,
                 max_steps: int = 10_000_000) -> InterpResult:
    """Run ``func`` once: ``scalars`` (parameter index -> bits), ``mem_in`` (pointer
    parameter index -> its memory's bytes), ``globals_`` (memory name -> bytes, else each
    global starts from its ``init``).  Returns the result and the final bytes of the
    pointer parameters' memories (by parameter index, as ``"arg<i>"``) and of every other
    memory the run touched (by name).  Raises :class:`Undefined` when an op has no defined
    result, :class:`InterpError` on an access out of bounds."""
    it = Interpreter(max_steps, globals_)
    it.load_args(func, mem_in)
    ret = it.call(func, scalars)
    out = {}
    arg_mems = {p.mem: p.index for p in func.params if isinstance(p, PtrParam)}
    for m, buf in it.mems.items():
        out[f"arg{arg_mems[m]}" if m in arg_mems else m.name] = bytes(buf)
    return InterpResult(ret, out, it.steps, dict(it.visits))
