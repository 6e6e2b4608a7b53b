"""The contract between ``hls.rtl`` (which builds the top module) and ``hls.verify``
(which drives it in Verilator).

Port naming of a generated top module (all active-high except ``ap_rst_n``):

* ``ap_clk``, ``ap_rst_n`` (synchronous, active low)
* ``ap_start`` (in), ``ap_done``, ``ap_idle``, ``ap_ready`` (out), ``ap_return`` (out,
  only when the function returns a value).  ``ap_ctrl_hs``: the design samples
  ``ap_start`` while idle; ``ap_done`` and ``ap_ready`` are high for exactly one cycle at
  the end of a call, and ``ap_return`` is valid in that cycle.
* one input port per scalar argument, named after the argument, ``width`` bits (an
  argument named like one of these ports gets ``_2``, ``_3``, ...: ``hls.rtl.port_names``).
* per external memory ``M`` and port ``p`` in ``range(nports)``:
  ``M_address{p}`` (out, ``addr_bits``), ``M_ce{p}`` (out, 1), ``M_we{p}`` (out,
  ``word_bytes`` bits: a byte-enable, bit i writes byte i of the word),
  ``M_d{p}`` (out, ``8*word_bytes``), ``M_q{p}`` (in, ``8*word_bytes``).
  Memory semantics (the model the harness implements): synchronous single-cycle RAM,
  little-endian words; at a rising edge with ``ce=1`` the addressed word is read into
  ``q`` (read-first: the old contents) and the enabled bytes of ``d`` are written;
  ``q`` holds its value while ``ce=0``.  Two ports writing the same word at the same edge,
  or any access with ``address >= depth_words``, is a design error.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, replace

from .ir import Bank


@dataclass(frozen=True, slots=True)
class CType:
    """The declared C type of a top-level argument's value (a scalar) or of one element
    (a pointer or array argument), as the source view (libclang) or the debug info
    gives it; the Vitis package (:mod:`hls.package`) writes it.  ``name`` is the C
    spelling with typedefs resolved and qualifiers dropped (``float``, ``unsigned int``,
    ``short`` for ``const int16_t``, ``struct pt``, ``enum color``, ``bool``); ``kind``
    is ``int`` (enums too), ``float``, ``bool`` or ``record`` (struct, union); ``size``
    is ``sizeof`` in bytes; ``signed`` for integers (an enum: its underlying type's)."""

    name: str
    kind: str
    size: int
    signed: bool = False

    KINDS = ("int", "float", "bool", "record")

    def __post_init__(self):
        if self.kind not in self.KINDS:
            raise ValueError(f"CType kind must be one of {self.KINDS}, not {self.kind!r}")
        if self.size < 1:
            raise ValueError(f"CType size must be positive, not {self.size}")

    @property
    def value_bits(self) -> int:
        """The bits of a value: N of an ``ap_int<N>``, ``ap_fixed<N, I>`` or
        ``_BitInt(N)`` (held in more bytes, the rest its extension), else all its bytes'."""
        m = re.search(r"\bap_u?(?:int|fixed)<\s*(\d+)|_BitInt\((\d+)\)", self.name)
        return int(m.group(1) or m.group(2)) if m else 8 * self.size

    @property
    def value_signed(self) -> bool:
        """Is a value of this type extended as a signed one when it is widened (a
        signed integer, an ``ap_int``, an ``ap_fixed``)?"""
        if self.kind == "record":
            return bool(re.search(r"\bap_(?:int|fixed)<", self.name))
        return self.kind == "int" and self.signed

    @property
    def host(self) -> str | None:
        """The C++ type a host program holds one value in (``<cstdint>`` names for
        integers), or None when it has none of its own (records, ``long double``,
        ``__int128``, half floats): then it is moved as ``size`` bytes."""
        if self.kind == "float":
            return {4: "float", 8: "double"}.get(self.size)
        if self.kind == "bool":
            return "bool" if self.size == 1 else None
        if self.kind == "int" and self.size in (1, 2, 4, 8):
            return f"{'' if self.signed else 'u'}int{8 * self.size}_t"
        return None


@dataclass(frozen=True, slots=True)
class ScalarPort:
    name: str          # RTL port name (the argument's name, sanitised)
    arg_index: int     # position in the top function's argument list
    width: int         # bits
    signed: bool = False  # informative only; values are passed as raw bits
    #: the declared C type (None: unknown; hls.flow.c_types sets it)
    ctype: CType | None = None


@dataclass(frozen=True, slots=True)
class MemoryPort:
    name: str                  # RTL prefix M
    word_bytes: int            # bytes per word: 1, 2, 4, 8 (or 16)
    depth_words: int           # words the memory holds
    nports: int                # 1 or 2
    arg_index: int | None      # pointer argument of the top this memory stands for
    global_name: str | None = None  # LLVM global this memory stands for (whole-program)
    elem_bytes: int = 0        # bytes of one C element of the argument (for messages)
    init: bytes | None = None  # initial contents of a global (len = word_bytes*depth_words)
    readonly: bool = False
    writeonly: bool = False
    #: 32/64: every element is a float/double; NaNs compare equal whatever their payload
    float_bits: int = 0
    #: one bank of a partitioned argument or global: it holds ``bank.words()`` of the
    #: whole array (``arg_index``/``global_name`` name the whole array)
    bank: Bank | None = None
    #: the whole array's name (for messages) when this is a bank
    array_name: str = ""
    #: for messages: C array extents and the scalars of one element (see
    #: hls.ir.MemoryObject.elem_fields); empty: elements of ``elem_bytes``
    elem_dims: tuple = ()
    elem_fields: tuple = ()

    @property
    def whole_bytes(self) -> int:
        """Bytes of the whole array this memory is (a bank of)."""
        return self.word_bytes * (self.bank.whole_words if self.bank else self.depth_words)

    def view(self, whole: bytes) -> bytes:
        """This memory's bytes of the whole array's bytes."""
        return self.bank.view(whole, self.word_bytes) if self.bank else whole

    def element_index(self, offset: int) -> int:
        """The C element index (in the whole array) of byte ``offset`` of this memory."""
        eb = self.elem_bytes or self.word_bytes
        if self.bank:
            w = self.bank.words()[offset // self.word_bytes]
            offset = w * self.word_bytes + offset % self.word_bytes
        return offset // eb
    #: Alveo tops: "in"/"out" when the pointer argument is an AXI4-Stream (``--interface
    #: ARG=axis``; ports ``ARG_TDATA``... instead of a buffer, no control register)
    stream: str = ""
    #: a pointer argument: the declared C type of one element (None: unknown)
    ctype: CType | None = None

    @property
    def addr_bits(self) -> int:
        """``depth_words.bit_length()``: wide enough for ``depth_words`` itself, so an
        access just past the end cannot wrap around to word 0 unseen (the co-simulation
        harness reports any address >= depth_words)."""
        return max(1, self.depth_words.bit_length())

    @property
    def size_bytes(self) -> int:
        return self.word_bytes * self.depth_words


@dataclass(frozen=True, slots=True)
class ProbePort:
    """A 1-bit profiling output (only in designs built with loop probes): high in every
    cycle in which function ``function``'s FSM is in the state of pipelined loop
    ``block``.  The harness counts, per call, the cycles it is high and its rising edges
    (loop entries)."""

    name: str          # RTL port name
    function: str
    block: str


@dataclass(frozen=True, slots=True)
class MonitorPort:
    """The deadlock monitor of a dataflow top (designs built with a monitor): the 1-bit
    output ``deadlock`` rises once no task has run or started for a bound number of
    cycles while the region is active; bit i of ``waits`` (``len(wait_list)`` bits) is
    high while ``wait_list[i]`` = (task, the task it waits for, channel or argument,
    FULL/EMPTY/BUSY) holds.  ``lines``: the source line of each task's call."""

    deadlock: str
    waits: str
    wait_list: tuple[tuple[str, str, str, str], ...]
    lines: tuple[tuple[str, int | None], ...] = ()
    region: str = ""
    file: str | None = None


@dataclass(frozen=True, slots=True)
class TopInterface:
    module_name: str                    # Verilog module name of the top
    function: str                       # LLVM name of the top function
    scalars: tuple[ScalarPort, ...]
    memories: tuple[MemoryPort, ...]
    return_width: int                   # 0 for void
    return_signed: bool = False
    return_float: int = 0               # 32/64: a float/double (NaN-aware comparison)
    probes: tuple[ProbePort, ...] = ()  # profiling outputs (designs built with probes)
    monitor: MonitorPort | None = None  # a dataflow top's deadlock monitor
    return_ctype: CType | None = None   # the declared C type of the return value

    def with_c_types(self, args, ret: CType | None = None) -> TopInterface:
        """This interface with the declared C types ``args`` (argument index -> CType:
        the value's for a scalar, one element's for a pointer) and ``ret`` set on its
        scalars, argument memories (every bank of one) and return value.  A scalar
        type narrower than its port is an error: the port holds the C value."""
        for s in self.scalars:
            t = args.get(s.arg_index)
            if t is not None and 8 * t.size < s.width:
                raise ValueError(f"argument {s.name}: C type {t.name} ({t.size} bytes) is "
                                 f"narrower than its {s.width}-bit port")
        if ret is not None and 8 * ret.size < self.return_width:
            raise ValueError(f"return value: C type {ret.name} is narrower than its "
                             f"{self.return_width}-bit port")
        return replace(
            self,
            scalars=tuple(replace(s, ctype=args.get(s.arg_index)) for s in self.scalars),
            memories=tuple(replace(m, ctype=args.get(m.arg_index)) if m.arg_index is not None
                           else m for m in self.memories),
            return_ctype=ret if self.return_width else None)


@dataclass(frozen=True, slots=True)
class MAxiPort:
    """One AXI4 master bundle ``m_axi_<bundle>``."""

    bundle: str
    data_width: int            # bits: 32, 64, ..., 512
    address_width: int = 64

    @property
    def port(self) -> str:
        return f"m_axi_{self.bundle}"
