"""Data structures of the CDFG (see the package docstring for the invariants)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Iterator

import networkx as nx

from ..errors import HLSError, InternalError
from ._ops import OPS

#: the widest value the IR holds: a multiply or division is at most 128 bits (the
#: frontend's ``MAX_MULDIV_BITS``), but the exact intermediates of ap_fixed.h's
#: conversions between 128-bit types (shifts, adds, compares, multiplexers) are wider;
#: the operator tables time anything above 128 bits as 128 (``hls.targets.MAX_WIDTH``)
MAX_VALUE_WIDTH = 512


@dataclass(frozen=True, slots=True)
class Loc:
    file: str
    line: int | None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(eq=False)
class Value:
    width: int
    name: str = ""

    def ref(self) -> str:
        return f"%{self.name}"


@dataclass(eq=False, init=False)
class Const(Value):
    """A constant: ``Const(width, value)``; the value is stored masked to ``width``."""

    value: int = 0

    def __init__(self, width: int, value: int = 0, name: str = "") -> None:
        self.width = width
        self.name = name
        self.value = value & ((1 << width) - 1)

    def ref(self) -> str:
        return f"i{self.width} {self.value}"

    def signed(self) -> int:
        v = self.value
        return v - (1 << self.width) if v >> (self.width - 1) else v


@dataclass(eq=False)
class Param(Value):
    """A scalar argument of a function."""

    index: int = 0


@functools.lru_cache(maxsize=256)
def _granule_words(factor: int, index: int, whole_words: int, g: int) -> tuple[int, ...]:
    return tuple(w for u in range(index, -(-whole_words // g), factor)
                 for w in range(u * g, min(whole_words, (u + 1) * g)))


@dataclass(frozen=True, slots=True)
class Bank:
    """Where one bank of a partitioned array sits in the whole array (word granularity).

    ``cyclic``: word ``w`` of the array is word ``w // factor`` of bank ``w % factor``;
    ``block``: blocks of ``ceil(whole_words / factor)`` consecutive words per bank.
    Complete partitioning is cyclic with ``factor == whole_words``.

    A cyclic bank with a ``granule`` of ``g`` words deals out runs of ``g`` consecutive
    words instead of single words: run ``u = w // g`` goes to bank ``u % factor``, where
    it is run ``u // factor``.  One dimension of a multi-dimensional array partitions
    this way (``dim=D`` of ``array_partition``): cyclic or complete on a dimension whose
    inner dimensions hold ``g`` words, block on it with ``g`` the words of a block."""

    kind: str
    factor: int
    index: int
    whole_words: int
    granule: int = 1

    @property
    def block_words(self) -> int:
        return -(-self.whole_words // self.factor)

    def words(self) -> range:
        """The array words this bank holds, in bank order."""
        if self.kind == "cyclic":
            g = self.granule
            if g == 1:
                return range(self.index, self.whole_words, self.factor)
            return _granule_words(self.factor, self.index, self.whole_words, g)
        b = self.block_words
        return range(self.index * b, min(self.whole_words, (self.index + 1) * b))

    def view(self, whole: bytes, word_bytes: int) -> bytes:
        """This bank's bytes of the whole array's bytes."""
        r = self.words()
        if self.kind == "block":
            return whole[r.start * word_bytes:r.stop * word_bytes]
        return b"".join(whole[w * word_bytes:(w + 1) * word_bytes] for w in r)


@dataclass(eq=False)
class MemoryObject:
    """An array in hardware: an argument array, a global, or a local (alloca).

    ``word_bytes`` x ``depth_words`` bytes, little-endian words.  ``kind`` is ``arg``
    (a port set of the function), ``global`` or ``local`` (inside the accelerator; a
    constant global with ``readonly`` becomes a ROM).
    """

    name: str
    kind: str
    word_bytes: int = 1
    depth_words: int = 1
    elem_bytes: int = 1
    init: bytes | None = None
    readonly: bool = False
    writeonly: bool = False
    arg_index: int | None = None
    loc: Loc | None = None
    #: the LLVM symbol of a global
    symbol: str | None = None
    #: 32 or 64 when every access is a float/double of that size (compared NaN-aware)
    float_bits: int = 0
    #: a bank of a partitioned array (hls.transforms.partition_array); None for a whole array
    bank: Bank | None = None
    #: the whole (unpartitioned) array of a bank
    whole: "MemoryObject | None" = None
    #: for messages (hls.frontend._types.element_layout): the C array extents and the
    #: scalars of one element ``(byte offset, bytes, suffix, float bits)``
    elem_dims: tuple = ()
    elem_fields: tuple = ()
    #: a small on-chip array read asynchronously (LUT RAM or registers): a load's data is
    #: there in its issue cycle (set by the ``small-memories`` pass)
    async_read: bool = False
    #: accesses per cycle the schedulers may make (``MemoryPorts``): the memory model's
    #: two, or one where the target's on-chip RAM cannot take two writes in a cycle and
    #: the flow found two (``SynthOptions.single_port``)
    ports: int = 2
    #: an ``hls::stream`` (``hls/include/hls_stream.h``) lowered by the frontend: its
    #: elements in order, each function reading and writing from its own position 0
    #: (a dataflow channel of it must be a FIFO; a stream argument of the top is
    #: AXI4-Stream on Alveo)
    stream: bool = False

    @property
    def addr_bits(self) -> int:
        """``depth_words.bit_length()``: wide enough for ``depth_words`` itself, so an
        access just past the end cannot wrap around to word 0 unseen (the co-simulation
        harness reports any address >= depth_words)."""
        return max(1, self.depth_words.bit_length())

    @property
    def size_bytes(self) -> int:
        return self.word_bytes * self.depth_words


@dataclass(eq=False)
class PtrParam:
    """A pointer argument of a function: it stands for an ``arg`` memory object."""

    index: int
    name: str
    mem: MemoryObject
    #: a partitioned argument array: its banks, each with a port set of its own
    banks: list[MemoryObject] = field(default_factory=list)

    @property
    def port_mems(self) -> list[MemoryObject]:
        """The memories that have port sets: the banks, or the whole array."""
        return self.banks or [self.mem]


@dataclass(eq=False)
class Op(Value):
    kind: str = ""
    operands: list[Value] = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    loc: Loc | None = None
    # (not in the repr: the graph is cyclic, and a repr through it has no end in sight)
    block: "Block | None" = field(default=None, repr=False)
    #: phi only: (predecessor block, value) pairs
    incoming: list[tuple["Block", Value]] = field(default_factory=list, repr=False)
    #: terminators only: successor blocks (condbr: [true, false]; switch: default first)
    targets: list["Block"] = field(default_factory=list, repr=False)
    #: switch only: case constants, parallel to targets[1:]
    cases: list[int] = field(default_factory=list)

    @property
    def is_terminator(self) -> bool:
        d = OPS.get(self.kind)
        return d is not None and d.terminator

    @property
    def mem(self) -> MemoryObject | None:
        return self.attrs.get("mem")

    def call_ptr_args(self) -> list[tuple["PtrParam", MemoryObject, Value]]:
        """``call`` only: (callee pointer parameter, caller memory, word offset) per pointer
        argument.  The offsets are ordinary operands (after the scalar arguments), so
        every pass, the scheduler and the register allocator see them as uses."""
        binds = self.attrs.get("ptr_args", [])
        offs = self.operands[len(self.operands) - len(binds):] if binds else []
        return [(pp, mem, off) for (pp, mem), off in zip(binds, offs)]

    def call_scalar_args(self) -> list[Value]:
        """``call`` only: the scalar argument operands."""
        return self.operands[:len(self.operands) - len(self.attrs.get("ptr_args", []))]


@dataclass(eq=False)
class Block:
    name: str
    ops: list[Op] = field(default_factory=list, repr=False)
    function: "Function | None" = field(default=None, repr=False)

    @property
    def terminator(self) -> Op:
        return self.ops[-1]

    @property
    def phis(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "phi"]

    @property
    def successors(self) -> list["Block"]:
        return list(dict.fromkeys(self.terminator.targets))

    def append(self, op: Op) -> Op:
        op.block = self
        self.ops.append(op)
        return op


@dataclass(eq=False)
class Function:
    name: str
    params: list[Param | PtrParam] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    return_width: int = 0
    #: 32/64 when the return value is a float/double (compared NaN-aware)
    return_float: int = 0
    return_signed: bool = False
    #: memories owned by the function (locals and ROMs), in creation order
    memories: list[MemoryObject] = field(default_factory=list)
    loc: Loc | None = None

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def ops(self) -> Iterator[Op]:
        for b in self.blocks:
            yield from b.ops

    @property
    def scalar_params(self) -> list[Param]:
        return [p for p in self.params if isinstance(p, Param)]

    @property
    def ptr_params(self) -> list[PtrParam]:
        return [p for p in self.params if isinstance(p, PtrParam)]

    def predecessors(self) -> dict[Block, list[Block]]:
        preds: dict[Block, list[Block]] = {b: [] for b in self.blocks}
        for b in self.blocks:
            for s in b.successors:
                preds[s].append(b)
        return preds

    def callees(self) -> list["Function"]:
        seen: dict[Function, None] = {}
        for op in self.ops():
            if op.kind == "call":
                seen[op.attrs["callee"]] = None
        return list(seen)

    def call_closure(self) -> list["Function"]:
        """This function and every function it calls, directly or not (each once)."""
        seen, work = [], [self]
        while work:
            f = work.pop()
            if f not in seen:
                seen.append(f)
                work += f.callees()
        return seen

    def used_memories(self) -> list[MemoryObject]:
        """The memories the function's loads and stores reach and those its calls hand
        to callees, each once, in the order of first use."""
        used: dict[MemoryObject, None] = {}
        for op in self.ops():
            if op.mem is not None:
                used[op.mem] = None
            if op.kind == "call":
                for _, mem in op.attrs["ptr_args"]:
                    used[mem] = None
        return list(used)


@dataclass(eq=False)
class Module:
    top: Function
    functions: list[Function]
    #: global memories that the hardware reads or writes (external or ROM)
    globals: list[MemoryObject] = field(default_factory=list)
    source: str = ""
    #: the canonicalised LLVM IR the CDFG was built from (golden model input)
    llvm_ir: str = ""
    #: custom floating-point formats by LLVM function name (``--fp-format``)
    fp_formats: dict = field(default_factory=dict)
    #: pointers as values: the memory tag of each global whose address is used as a
    #: value (LLVM symbol -> (tag, bytes)), and the byte offsets of the pointers held in
    #: each global (symbol -> offsets); a pointer in memory is ``tag << 32 | offset``
    ptr_tags: dict = field(default_factory=dict)
    ptr_slots: dict = field(default_factory=dict)
    #: abort()/failed-assert sites: the number the hardware writes into the abort flag
    #: memory (``hls.frontend.ABORT_GLOBAL``) -> "file:line: what"
    abort_sites: dict = field(default_factory=dict)
    #: dataflow regions (hls.dataflow), by function name: their calls are tasks
    dataflow: list = field(default_factory=list)
    #: the directives of the source (its ``#pragma HLS``, a directives file) as
    #: ``(kind, fields)`` entries (:func:`hls.directives.directive_entries`): set by
    #: ``pyhls ir`` so that a ``.hir`` carries them; the flow reads them back for a
    #: ``.hir`` input and never otherwise
    directives: list = field(default_factory=list)
    #: positions of the top's LLVM parameters the hardware has no port for (memref
    #: descriptor fields of an MLIR input that the design never reads): the golden
    #: model passes them as 0
    absent_params: list = field(default_factory=list)

    def clone(self) -> "Module":
        """A deep, independent copy: every function, parameter, block, op, constant and
        memory object is a new object, with the same field values and the same sharing
        (two ops reading one value read one value in the copy; a bank's ``whole`` is the
        copy's whole array; a call's callee is the copy's function), containers (attrs,
        loop metadata, the module's tables) are new, and immutable leaves (strings,
        bytes, numbers, ``Loc``, ``Bank``, ``FPFormat``: frozen dataclasses) are shared.
        A pass run on the copy leaves this module unchanged; ``print_module`` prints
        both the same until then.  What passes keep beside the IR, keyed by the module
        (``hls.transforms.share_report``, ``wrap_report``), is not copied: clone a
        module as the frontend made it.  The flow lowers clones of the frontend's module
        instead of running the frontend again (a module cannot be lowered twice)."""
        return _clone(self)


# ----------------------------------------------------------------------------- cloning

#: the mutable objects of the IR graph, copied by :meth:`Module.clone` (``Value`` covers
#: ``Op``, ``Param`` and ``Const``)
_NODES = (Module, Function, Block, Value, PtrParam, MemoryObject)
_LEAVES = (type(None), bool, int, float, str, bytes)


def _clone(module: Module) -> Module:
    """:meth:`Module.clone`: two passes over the graph, both iterative (operand chains are
    deep): first a blank object per node reachable from ``module``, then each node's
    fields with nodes replaced by their copies and containers rebuilt."""
    def leaf(v, where) -> bool:
        if isinstance(v, _LEAVES) or (dataclasses.is_dataclass(v) and not isinstance(v, type)
                                      and v.__dataclass_params__.frozen):
            return True
        if isinstance(v, (list, tuple, dict, set, frozenset)):
            return False
        raise InternalError(f"Module.clone: {where} holds a {type(v).__name__} "
                            f"({v!r:.60}), which is neither an IR node nor an immutable value")

    copies: dict[int, object] = {}
    order: list = []
    work: list = [(module, "module")]
    while work:
        v, where = work.pop()
        if isinstance(v, _NODES):
            if id(v) not in copies:
                copies[id(v)] = object.__new__(type(v))
                order.append(v)
                work.extend((x, f"{type(v).__name__}.{k}") for k, x in vars(v).items())
        elif not leaf(v, where):
            work.extend((x, where) for x in (v.items() if isinstance(v, dict) else v))

    def new(v):
        if isinstance(v, _NODES):
            return copies[id(v)]
        if isinstance(v, list):
            return [new(x) for x in v]
        if isinstance(v, dict):
            return {new(k): new(x) for k, x in v.items()}
        if isinstance(v, tuple):
            items = [new(x) for x in v]
            return type(v)._make(items) if hasattr(v, "_fields") else type(v)(items)
        if isinstance(v, (set, frozenset)):
            return type(v)(new(x) for x in v)
        return v

    for v in order:
        vars(copies[id(v)]).update({k: new(x) for k, x in vars(v).items()})
    return copies[id(module)]


# ----------------------------------------------------------------------------- rewriting

def replace_uses(func: Function, mapping: dict, skip_block: Block | None = None) -> None:
    """Replace every use (operand or phi incoming value) of a key of ``mapping`` by its
    value, in every op of ``func`` except those of ``skip_block``."""
    if not mapping:
        return
    for op in func.ops():
        if op.block is skip_block and skip_block is not None:
            continue
        op.operands = [mapping.get(v, v) for v in op.operands]
        if op.incoming:
            op.incoming = [(p, mapping.get(v, v)) for p, v in op.incoming]


def uses_outside(func: Function, block: Block) -> set[Value]:
    """The values used by an op (or a phi incoming value) of a block other than
    ``block``, in one walk of the function (``v in uses_outside(f, b)``: is ``v`` used
    outside ``b``?)."""
    out: set[Value] = set()
    for op in func.ops():
        if op.block is block:
            continue
        out.update(op.operands)
        out.update(val for _, val in op.incoming)
    return out


def add_guard(op: Op, cond: Value, emit) -> None:
    """Make the load/store ``op`` happen only when ``cond`` (an i1) holds as well as its
    present guard; ``emit(new_op)`` places the ``and`` that combines them before ``op``."""
    base = 1 if op.kind == "load" else 2
    if "guard" in op.attrs:
        both = Op(width=1, kind="and", operands=[op.operands[base], cond], loc=op.loc)
        emit(both)
        op.operands[base] = both
    else:
        op.operands.append(cond)
        op.attrs["guard"] = base


# ----------------------------------------------------------------------------- printer

def _val(v: Value, names: dict[Value, str]) -> str:
    if isinstance(v, Const):
        return f"{v.value}:i{v.width}"
    return names.get(v, f"%?{v.name}")


def print_ir(func: Function) -> str:
    """A stable text form of a function (golden-text tests and ``--print-ir``)."""
    names: dict[Value, str] = {}
    for p in func.params:
        if isinstance(p, Param):
            names[p] = f"%{p.name or p.index}"
    n = 0
    for op in func.ops():
        if op.width:
            names[op] = f"%{n}"
            n += 1
    lines = [f"func @{func.name}(" + ", ".join(
        f"{p.name}: i{p.width}" if isinstance(p, Param)
        else f"{p.name}: mem[{p.mem.depth_words}x{p.mem.word_bytes}B]" for p in func.params
    ) + f") -> i{func.return_width}"]
    for mem in func.memories:
        lines.append(f"  mem {mem.name} {mem.kind} {mem.depth_words}x{mem.word_bytes}B"
                     + (" rom" if mem.readonly else ""))
    for b in func.blocks:
        lines.append(f"{b.name}:")
        for op in b.ops:
            lhs = f"{names[op]}:i{op.width} = " if op.width else ""
            shown = op.call_scalar_args() if op.kind == "call" else op.operands
            args = ", ".join(_val(o, names) for o in shown)
            extra = []
            if op.kind == "phi":
                args = ", ".join(f"[{p.name}: {_val(v, names)}]" for p, v in op.incoming)
            if "pred" in op.attrs:
                extra.append(op.attrs["pred"])
            if "fmt" in op.attrs:
                extra.append((f"{op.attrs['src']}->" if "src" in op.attrs else "")
                             + str(op.attrs["fmt"]))
            if op.mem is not None:
                extra.append(f"{op.mem.name} lane={op.attrs['lane']} size={op.attrs['size']}"
                             + (" guarded" if "guard" in op.attrs else ""))
            if op.kind == "slice":
                extra.append(f"lo={op.attrs['lo']}")
            if op.kind == "call":
                extra.append("@" + op.attrs["callee"].name)
                for pp, mem, off in op.call_ptr_args():
                    extra.append(f"{pp.name}={mem.name}+{_val(off, names)}")
            if op.targets:
                extra.append("-> " + ", ".join(t.name for t in op.targets))
            if op.cases:
                extra.append("cases " + ", ".join(map(str, op.cases)))
            tail = (" " + " ".join(extra)) if extra else ""
            lines.append(f"  {lhs}{op.kind} {args}{tail}".rstrip())
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- verifier

def verify(func: Function) -> None:
    """Check the structural invariants of a function; raise ``HLSError`` on violation."""

    def fail(msg: str, op: Op | None = None) -> None:
        loc = op.loc if op is not None and op.loc else func.loc
        err = HLSError(f"IR verification failed in @{func.name}: {msg}",
                       loc.file if loc else None, loc.line if loc else None)
        err.op = op  # the op at fault (IR text inputs report its line of the text)
        raise err

    blocks = set(func.blocks)
    defined: set[Value] = set(p for p in func.params if isinstance(p, Param))
    for op in func.ops():
        defined.add(op)
    preds = func.predecessors()
    for b in func.blocks:
        if not b.ops or not b.ops[-1].is_terminator:
            fail(f"block {b.name} does not end with a terminator")
        seen_non_phi = False
        for i, op in enumerate(b.ops):
            d = OPS.get(op.kind)
            if d is None:
                fail(f"unknown op kind '{op.kind}'", op)
            if op.block is not b:
                fail(f"op {op.kind} has a stale block link", op)
            problem = d.unknown_attr(op.attrs)
            if problem:
                fail(f"{op.kind}{' ' + op.ref() if op.name else ''}: {problem}", op)
            if op.is_terminator and i != len(b.ops) - 1:
                fail(f"terminator {op.kind} in the middle of block {b.name}", op)
            if op.kind == "phi":
                if seen_non_phi:
                    fail(f"phi after a non-phi op in block {b.name}", op)
                if sorted(id(p) for p, _ in op.incoming) != sorted(id(p) for p in preds[b]):
                    fail(f"phi in {b.name} does not list exactly its predecessors", op)
                for _, v in op.incoming:
                    if not isinstance(v, Const) and v not in defined:
                        fail("phi uses an undefined value", op)
                    if v.width != op.width:
                        fail(f"phi of i{op.width} has an incoming value of i{v.width}", op)
            else:
                seen_non_phi = True
            n = d.operands
            if n is not None and len(op.operands) != n:
                fail(f"{op.kind} takes {n} operands, not {len(op.operands)}", op)
            for v in op.operands:
                if not isinstance(v, Const) and v not in defined:
                    fail(f"{op.kind} uses an undefined value", op)
                if not 1 <= v.width <= MAX_VALUE_WIDTH:
                    fail(f"operand width must be 1..{MAX_VALUE_WIDTH}, not {v.width}", op)
            for name, spec in d.attrs.items():
                if name not in op.attrs:
                    if spec.required:
                        fail(f"{op.kind} lacks its attribute '{name}'", op)
                    continue
                problem = spec.problem(op.attrs[name])
                if problem:
                    fail(f"{op.kind} attribute '{name}' {problem}", op)
            if op.kind == "call":
                callee = op.attrs["callee"]
                if len(op.call_scalar_args()) != len(callee.scalar_params):
                    fail(f"call of @{callee.name} passes {len(op.call_scalar_args())} scalar "
                         f"arguments for {len(callee.scalar_params)} parameters", op)
                if len(op.attrs.get("ptr_args", [])) > len(op.operands):
                    fail(f"call of @{callee.name} lacks word offsets for its pointer arguments", op)
            if op.kind in ("load", "store"):
                base = 1 if op.kind == "load" else 2
                want = base + (1 if "guard" in op.attrs else 0)
                if len(op.operands) != want or ("guard" in op.attrs and op.attrs["guard"] != base):
                    fail(f"{op.kind} takes {want} operands, not {len(op.operands)}", op)
                if "guard" in op.attrs and op.operands[base].width != 1:
                    fail(f"{op.kind} predicate must be 1 bit wide", op)
                mem = op.mem
                if mem is None:
                    fail(f"{op.kind} has no memory", op)
                lane, size = op.attrs["lane"], op.attrs["size"]
                if lane + size > mem.word_bytes:
                    fail(f"{op.kind} lane {lane}+{size} exceeds word of {mem.word_bytes} bytes", op)
            widths = [v.width for v in op.operands]
            if d.result is not None:
                want = d.result(widths, op.attrs)
                if op.width != want:
                    fail(f"{op.kind} has a result of i{op.width}; its operands and attributes "
                         f"make it i{want}", op)
            if d.operand_widths is not None:
                problem = d.operand_widths(widths, op.width, op.attrs)
                if problem:
                    fail(f"{op.kind}: {problem}", op)
            for t in op.targets:
                if t not in blocks:
                    fail(f"{op.kind} targets a block outside the function", op)
    _verify_dominance(func, fail)


def dominators(func: Function) -> dict[Block, Block]:
    """The immediate dominator of every block the entry reaches (networkx maps the entry
    to itself in older releases and omits it in newer ones)."""
    g = nx.DiGraph()
    g.add_nodes_from(func.blocks)
    for b in func.blocks:
        g.add_edges_from((b, t) for t in b.successors)
    return nx.immediate_dominators(g, func.entry)


def dominates(idom: dict[Block, Block], a: Block, b: Block) -> bool:
    """Does ``a`` dominate ``b`` (``idom``: :func:`dominators`)?"""
    while True:
        if b is a:
            return True
        nb = idom.get(b)
        if nb is None or nb is b:
            return False
        b = nb


def _verify_dominance(func: Function, fail) -> None:
    """Every use of an op is dominated by its definition (SSA): in the same block, the
    definition comes first; in another block, the defining block dominates the user's
    block; for a phi, the defining block dominates the incoming predecessor.  Uses in
    blocks the entry cannot reach are not constrained (as in LLVM).  A rewrite that moves
    an op below a use, or a clone that keeps an operand of the original, fails here
    instead of being scheduled with a value from nowhere."""
    idom = dominators(func)
    doms: dict[Block, set[Block]] = {}
    for b in set(idom) | {func.entry}:
        chain, x = {b}, b
        while x is not func.entry:
            x = idom[x]
            chain.add(x)
        doms[b] = chain
    index = {op: i for b in func.blocks for i, op in enumerate(b.ops)}

    def what(v: Op) -> str:
        where = f" (line {v.loc.line})" if v.loc and v.loc.line else ""
        return (v.ref() if v.name else f"the {v.kind}") + where

    for b in func.blocks:
        if b not in doms:
            continue  # unreachable
        for op in b.ops:
            if op.kind == "phi":
                for pred, v in op.incoming:
                    if isinstance(v, Op) and pred in doms and v.block not in doms[pred]:
                        fail(f"phi in {b.name} takes {what(v)} from {pred.name}, which "
                             f"{v.block.name if v.block else '?'} (its definition) does not "
                             "dominate", op)
                continue
            for v in op.operands:
                if not isinstance(v, Op):
                    continue
                if v.block is b:
                    if index[v] >= index[op]:
                        fail(f"{op.kind} uses {what(v)} before its definition in {b.name}", op)
                elif v.block not in doms[b]:
                    fail(f"{op.kind} in {b.name} uses {what(v)}, whose block "
                         f"{v.block.name if v.block else '?'} does not dominate it", op)
