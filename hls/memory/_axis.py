"""AXI4-Stream adapters: a pointer argument that the core reads (or writes) strictly in
order, element 0, 1, 2, ..., becomes an AXI4-Stream slave ``<arg>_TDATA/_TVALID/_TREADY``
(input) or master ``<arg>_TDATA/_TVALID/_TREADY/_TLAST`` (output).

The core keeps its BRAM-style ports and its 1-cycle synchronous memory model (see
:mod:`hls.memory._axi_master`: the core sits under ``EnableInserter({"sync": run})`` and
``run`` is the AND of every adapter's ``ready``); a stream adapter joins that global
stall in the same way.  Its ``ready`` is a function of its own registers only.

**Input stream** (:class:`AxisAdapter` with ``direction="in"``).  ``nxt`` counts the
elements the core has read in this call.  A read (``ce`` with ``we == 0``) sampled at the
end of a core cycle must address

* word ``nxt`` (the next element): the element is taken from a 2-entry FIFO, or straight
  from ``TDATA`` when the FIFO is empty and ``TVALID`` is high; if neither has one, the
  read becomes *pending* and ``ready`` drops until the element arrives (the core is
  frozen; its ``q`` gets the element at the edge the element is taken, so it is on ``q``
  in the next core cycle as a BRAM read would be);
* word ``nxt - 1`` (the element read last): it is answered again from a register, so a
  schedule that reads the same element twice in a row costs nothing and loses nothing.

Any other access (another address, a write, two ports asking for two different new
elements in one core cycle) sets the sticky ``error`` output; it is a design the compiler
should have rejected (:func:`hls.analysis.stream_access_check`), and the co-simulation
fails on it.  ``TREADY`` is high while the FIFO has room, also between calls: elements
that arrive early wait in the FIFO (at most two) and belong to the next call.

**Output stream** (``direction="out"``).  A write sampled at the end of a core cycle must
address word ``nxt`` with every byte enabled; it enters a 2-entry FIFO whose head drives
``TDATA``/``TVALID`` (registers: VALID never depends on READY, and TDATA holds while
TVALID && !TREADY).  ``ready`` is low while the FIFO is full, so the core runs only when
a write of the coming core cycle has room.  ``TLAST`` is high on element ``depth_words -
1``, the last element of the argument's declared extent (``--depth``): a kernel that writes
its whole extent ends the packet there; one that writes fewer elements sends no TLAST.
``idle`` (the top waits for it before ``ap_done``) is high once every element has been
handed over (the FIFO is empty).

Both directions: the FIFO is an ``amaranth.lib.fifo.SyncFIFO`` of depth 2 (first-word
fall-through, ``level`` updated at the clock edge: the same timing as two registers and a
count).  ``restart`` (a pulse at the end of a call) sets ``nxt`` back to 0; the FIFO keeps
its elements.  The steady state is one element per clock cycle in either
direction when the stream partner does not stall.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal
from amaranth.lib.fifo import SyncFIFO

from ..errors import RTLError
from ._axi_master import BramPort

__all__ = ["AxisAdapter", "StreamArg"]


@dataclass(frozen=True, slots=True)
class StreamArg:
    """One stream argument: ``nports`` BRAM-style core ports of ``word_bytes``-byte words
    addressed by ``addr_bits``-bit word addresses; ``direction`` ``"in"`` (the core only
    reads) or ``"out"`` (the core only writes); ``depth_words`` is the declared extent
    (the element carrying TLAST on an output)."""

    name: str
    word_bytes: int
    addr_bits: int
    depth_words: int
    direction: str
    nports: int = 2

    def __post_init__(self):
        if self.direction not in ("in", "out"):
            raise RTLError(f"direction of stream '{self.name}' must be 'in' or 'out', "
                           f"not {self.direction!r}")
        if self.word_bytes < 1 or self.nports < 1 or self.addr_bits < 1:
            raise RTLError(f"stream '{self.name}' must have words, ports and address bits")
        if self.depth_words < 1 or self.depth_words >= 1 << self.addr_bits:
            raise RTLError(f"depth of stream '{self.name}' must be 1..{(1 << self.addr_bits) - 1} "
                           f"words, not {self.depth_words}")

    @property
    def readonly(self) -> bool:       # what BramPort expects of its argument
        return self.direction == "in"

    @property
    def writeonly(self) -> bool:
        return self.direction == "out"


class AxisAdapter(Elaboratable):
    """The core's ports of one stream argument over one AXI4-Stream interface (module
    docstring).  Signals: ``ports[k]`` (:class:`BramPort`), ``run`` (in), ``ready`` (out),
    ``restart`` (in), ``idle`` (out), ``error`` (out, sticky until reset), ``elements``
    (out: elements read or written in this call so far), and ``axis[NAME]`` for NAME in
    ``TDATA``, ``TVALID``, ``TREADY`` (and ``TLAST`` on outputs), Verilog names
    ``<arg>_<NAME>``."""

    def __init__(self, arg: StreamArg):
        self.arg = arg
        self.ports = [BramPort(arg, k) for k in range(arg.nports)]
        self.run = Signal(name=f"{arg.name}_run")
        self.ready = Signal(name=f"{arg.name}_ready")
        self.restart = Signal(name=f"{arg.name}_restart")
        self.idle = Signal(name=f"{arg.name}_idle")
        self.error = Signal(name=f"{arg.name}_error")
        self.elements = Signal(arg.addr_bits + 1, name=f"{arg.name}_elements")
        w = 8 * arg.word_bytes
        self.axis = {"TDATA": Signal(w, name=f"{arg.name}_TDATA"),
                     "TVALID": Signal(name=f"{arg.name}_TVALID"),
                     "TREADY": Signal(name=f"{arg.name}_TREADY")}
        if arg.direction == "out":
            self.axis["TLAST"] = Signal(name=f"{arg.name}_TLAST")

    def axis_ports(self) -> list[Signal]:
        return list(self.axis.values())

    def axis_inputs(self) -> list[Signal]:
        if self.arg.direction == "in":
            return [self.axis["TDATA"], self.axis["TVALID"]]
        return [self.axis["TREADY"]]

    def elaborate(self, platform):
        m = Module()
        a = self.arg
        w = 8 * a.word_bytes
        ab = a.addr_bits
        nxt = Signal(ab + 1, name="nxt")          # elements taken by the core this call
        m.d.comb += self.elements.eq(nxt)
        # the 2-entry FIFO (first-word fall-through: r_data is the head while r_rdy);
        # an output stream's entries carry TLAST as their top bit
        m.submodules.fifo = fifo = SyncFIFO(width=w + (a.direction == "out"), depth=2)
        with m.If(self.restart):
            m.d.sync += nxt.eq(0)
        if a.direction == "in":
            self._input(m, nxt, fifo)
        else:
            self._output(m, nxt, fifo)
        return m

    # ------------------------------------------------------------------ input

    def _input(self, m, nxt, fifo):
        ax, w = self.axis, 8 * self.arg.word_bytes
        last = Signal(w, name="last")             # element nxt - 1
        pend = Signal(name="pend")
        pend_mask = Signal(len(self.ports), name="pend_mask")
        qs = [Signal(w, name=f"q{k}") for k in range(len(self.ports))]
        for p, q in zip(self.ports, qs):
            m.d.comb += p.q.eq(q)
        tready = Signal(name="tready")
        m.d.comb += [tready.eq(fifo.w_rdy), ax["TREADY"].eq(tready)]

        new = [Signal(name=f"new{k}") for k in range(len(self.ports))]
        again = [Signal(name=f"again{k}") for k in range(len(self.ports))]
        bad = []
        for k, p in enumerate(self.ports):
            rd = p.ce & (p.we == 0)
            m.d.comb += [new[k].eq(rd & (p.address == nxt)),
                         again[k].eq(rd & (nxt != 0) & (p.address + 1 == nxt))]
            bad.append(p.ce & ~new[k] & ~again[k])
        new_mask = Cat(*new)
        m.d.comb += [self.ready.eq(~pend), self.idle.eq(~pend)]
        with m.If(self.run & Cat(*bad).any()):
            m.d.sync += self.error.eq(1)

        # the element to hand over: the FIFO head, else TDATA straight from the stream
        avail = Signal(name="avail")
        head = Signal(w, name="head")
        m.d.comb += [avail.eq(fifo.r_rdy | ax["TVALID"]),
                     head.eq(Mux(fifo.r_rdy, fifo.r_data, ax["TDATA"]))]
        take = Signal(name="take")                # an element goes to the core now
        mask = Signal(len(self.ports), name="take_mask")
        with m.If(pend):
            m.d.comb += [take.eq(avail), mask.eq(pend_mask)]
            with m.If(avail):
                m.d.sync += pend.eq(0)
        with m.Elif(self.run & new_mask.any()):
            m.d.comb += [take.eq(avail), mask.eq(new_mask)]
            with m.If(~avail):
                m.d.sync += [pend.eq(1), pend_mask.eq(new_mask)]
        with m.If(take):
            m.d.sync += [last.eq(head), nxt.eq(nxt + 1)]
            for k, q in enumerate(qs):
                with m.If(mask[k]):
                    m.d.sync += q.eq(head)
        with m.If(self.run & ~pend):
            for k, q in enumerate(qs):
                with m.If(again[k]):
                    m.d.sync += q.eq(last)

        # an element taken straight from TDATA (FIFO empty) does not enter the FIFO
        m.d.comb += [fifo.r_en.eq(take),
                     fifo.w_en.eq(ax["TVALID"] & ~(take & ~fifo.r_rdy)),
                     fifo.w_data.eq(ax["TDATA"])]

    # ------------------------------------------------------------------ output

    def _output(self, m, nxt, fifo):
        a, ax, w = self.arg, self.axis, 8 * self.arg.word_bytes
        ones = (1 << a.word_bytes) - 1
        good = [Signal(name=f"good{k}") for k in range(len(self.ports))]
        bad = []
        for k, p in enumerate(self.ports):
            m.d.comb += good[k].eq(p.ce & (p.we == ones) & (p.address == nxt))
            bad.append(p.ce & ~good[k])
        # one element per core cycle: a second port writing in the same cycle is an error
        for k in range(1, len(good)):
            bad.append(good[k] & Cat(*good[:k]).any())
        with m.If(self.run & Cat(*bad).any()):
            m.d.sync += self.error.eq(1)
        data = Signal(w, name="wdata")
        for k in reversed(range(len(self.ports))):
            with m.If(good[k]):
                m.d.comb += data.eq(self.ports[k].d)
        push = Signal(name="push")
        m.d.comb += push.eq(self.run & Cat(*good).any())
        is_last = Signal(name="is_last")
        m.d.comb += is_last.eq(nxt == a.depth_words - 1)
        with m.If(push):
            m.d.sync += nxt.eq(nxt + 1)
        for p in self.ports:
            m.d.comb += p.q.eq(0)
        m.d.comb += [ax["TVALID"].eq(fifo.r_rdy), ax["TDATA"].eq(fifo.r_data[:w]),
                     ax["TLAST"].eq(fifo.r_data[w]),
                     self.ready.eq(fifo.w_rdy), self.idle.eq(~fifo.r_rdy),
                     fifo.r_en.eq(ax["TREADY"]),
                     fifo.w_en.eq(push), fifo.w_data.eq(Cat(data, is_last))]
