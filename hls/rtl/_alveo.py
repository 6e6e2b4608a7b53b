"""The Alveo (Vitis RTL kernel) top: the accelerator core behind AXI4 masters and the
``s_axi_control`` slave.

:class:`AlveoTop` wraps the accelerator of the plain top (the FunctionRTL of a
:class:`hls.rtl.TopRTL`, which itself is unchanged) this way::

    ap_clk, ap_rst_n ──► clock and synchronous reset of everything
    s_axi_control_* ──► AxiLiteControl ──► scalars, pointer offsets (64-bit), ap_start
                                    ◄── ap_done/ap_ready (one cycle), ap_idle, ap_return
    m_axi_<bundle>_* ◄─► AxiMasterAdapter (one per bundle) ◄─► the core's BRAM ports
    <arg>_T*         ◄─► AxisAdapter (one per axis argument) ◄─► the core's BRAM ports
    interrupt        ◄── AxiLiteControl

* The core sits under ``EnableInserter({"sync": run})`` with ``run`` the AND of every
  adapter's ``ready``, m_axi and AXI4-Stream alike (see :mod:`hls.memory._axi_master`,
  :mod:`hls.memory._axis`): a core cycle is a clock cycle
  with ``run == 1``, and only then are the core's handshake outputs sampled.
* A small controller (IDLE/BUSY/FLUSH/DONE) starts the core in a core cycle when the
  control slave's ``ap_start`` is set, latches ``ap_return`` in the core's ``ap_done``
  core cycle, then flushes the adapters' write buffers and waits for their ``idle`` (every
  write burst has its B response) before pulsing ``ap_done``/``ap_ready`` to the slave.
  So when the host sees ap_done every write of the call is in memory (and every element
  of an output stream has been handed over).  In DONE the m_axi adapters are also reset
  (they are idle then), which drops their cached lines: the host may change the buffers
  before the next call; the stream adapters only restart their element count (elements
  that arrived early for the next call stay in their FIFO).
* An AXI4-Stream argument (``axis``) has ports ``<arg>_TDATA``, ``_TVALID``, ``_TREADY``
  (and ``_TLAST`` on outputs) and no control register.  The stream adapters' sticky
  ``error`` flags (an access out of stream order) are ORed into ``stream_error``, an
  internal register the co-simulation reads (it is not a port: Vitis kernels have none
  for it).
* ``ap_idle`` is high in IDLE only.

Writable globals of a whole-program top (``--top main``) stay inside the core as on-chip
memories: only pointer arguments go over m_axi (the TopRTL must be built without
external globals).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from amaranth.hdl import ClockDomain, Const, Elaboratable, EnableInserter, Module, ResetInserter, Signal
from amaranth.lib import wiring

from ..errors import RTLError
from ..interface import MAxiPort, TopInterface
from ..memory import AxiMasterAdapter, AxisAdapter, MasterArg, StreamArg
from ._axilite import AxiLiteControl, register_map
from ._fsmd import NPORTS
from ._top import TopRTL

__all__ = ["AlveoTop", "AxiBundle", "AxiDescription", "AxisPort", "DEFAULT_BUNDLE"]

DEFAULT_BUNDLE = "gmem"


@dataclass(frozen=True, slots=True)
class AxiBundle:
    """One ``m_axi_<name>`` master: the pointer arguments it serves, its data width in
    bits and the beats per read line / write burst of its adapter."""

    name: str
    data_width: int
    line_beats: int
    args: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AxisPort:
    """One AXI4-Stream argument: its name (the port prefix), ``"in"``/``"out"``, the
    TDATA width in bits and the elements of one call (the argument's depth)."""

    name: str
    direction: str
    data_width: int
    depth: int


@dataclass(frozen=True)
class AxiDescription:
    """What the packaging and the co-simulation need to know about an Alveo top."""

    bundles: tuple[AxiBundle, ...]
    bundle_of: Mapping[str, str] = field(default_factory=dict)  # pointer arg -> bundle
    internal_globals: tuple[str, ...] = ()   # writable globals kept on chip
    streams: tuple[AxisPort, ...] = ()        # AXI4-Stream arguments

    def m_axi(self) -> list[MAxiPort]:
        return [MAxiPort(b.name, b.data_width) for b in self.bundles]

    def to_json(self) -> dict:
        return {"bundles": [{"name": b.name, "data_width": b.data_width,
                             "line_beats": b.line_beats, "args": list(b.args)}
                            for b in self.bundles],
                "internal_globals": list(self.internal_globals),
                "streams": [{"name": s.name, "direction": s.direction,
                             "data_width": s.data_width, "depth": s.depth}
                            for s in self.streams]}


class AlveoTop(Elaboratable):
    """``ap_clk``, ``ap_rst_n``, ``m_axi_<bundle>_*`` per bundle, ``s_axi_control_*`` and
    ``interrupt`` around ``core`` (a :class:`TopRTL` built without external globals).

    ``m_axi_bundles``: pointer argument (name or zero-based position) -> bundle (default
    every pointer on ``gmem``); ``axis``: pointer arguments (name or position) that are
    AXI4-Stream interfaces instead (each must be only read or only written; that the
    accesses are in order is :func:`hls.analysis.stream_order_problem`'s job, and the
    adapters check it at run time); ``data_width``: bits of each bundle's data (raised to the
    widest word of its arguments); ``line_beats``: beats per line/burst (1: no bursts);
    ``prefetch``: sequential read prefetch in the m_axi adapters."""

    def __init__(self, core: TopRTL, interface: TopInterface,
                 m_axi_bundles: Mapping[str, str] | None = None, *,
                 axis: Iterable[str] = (), data_width: int = 64,
                 line_beats: int = 16, max_writes: int = 15, prefetch: bool = True):
        core._MustUse__silence = True      # only its FunctionRTL is elaborated (here)
        try:
            if core.external_globals:
                raise RTLError("an Alveo top keeps writable globals on chip: build its TopRTL "
                               "without external globals")
            self.core = core
            self.ap_clk = Signal(name="ap_clk")
            self.ap_rst_n = Signal(name="ap_rst_n")
            streams = resolve_streams(interface, axis)
            bundle_of = resolve_bundles(interface, m_axi_bundles)
            both = sorted(set(streams) & set(bundle_of))
            if both:
                raise RTLError(f"argument '{both[0]}' cannot be both m_axi and axis")
            interface = dataclasses.replace(interface, memories=tuple(
                dataclasses.replace(m, stream=streams.get(m.name, "")) for m in interface.memories))
            self.interface = interface
            self.ctl = AxiLiteControl(register_map(interface))
            ptrs = [m for m in interface.memories if m.arg_index is not None and not m.stream]
            for m in ptrs:
                bundle_of.setdefault(m.name, DEFAULT_BUNDLE)
            # pointer argument -> the FunctionRTL's ports of its memory
            self.mem_of_arg = {p.name: core.core.ext[p.mem] for p in core.top.ptr_params}
            order = list(dict.fromkeys(bundle_of[m.name] for m in ptrs))
            self.adapters: dict[str, AxiMasterAdapter] = {}
            bundles = []
            for b in order:
                margs = []
                for m in ptrs:
                    if bundle_of[m.name] != b:
                        continue
                    mp = self.mem_of_arg[m.name]
                    margs.append(MasterArg(m.name, m.word_bytes, mp.addr_bits, NPORTS,
                                           readonly=m.readonly, writeonly=m.writeonly))
                dw = max([data_width] + [8 * a.word_bytes for a in margs])
                self.adapters[b] = AxiMasterAdapter(b, margs, data_width=dw,
                                                    line_beats=line_beats, max_writes=max_writes,
                                                    prefetch=prefetch)
                bundles.append(AxiBundle(b, dw, line_beats, tuple(a.name for a in margs)))
            self.streams: dict[str, AxisAdapter] = {}
            sports = []
            for m in interface.memories:
                if not m.stream:
                    continue
                mp = self.mem_of_arg[m.name]
                self.streams[m.name] = AxisAdapter(StreamArg(
                    m.name, m.word_bytes, mp.addr_bits, m.depth_words, m.stream, NPORTS))
                sports.append(AxisPort(m.name, m.stream, 8 * m.word_bytes, m.depth_words))
            self.description = AxiDescription(tuple(bundles), bundle_of, streams=tuple(sports))
        except RTLError:             # no "created but never used" warnings as well
            for e in [core.core, self, getattr(self, "ctl", None),
                      *getattr(self, "adapters", {}).values(),
                      *getattr(self, "streams", {}).values()]:
                if e is not None:
                    e._MustUse__silence = True
            raise

    @property
    def interrupt(self) -> Signal:
        return self.ctl.interrupt

    def ports(self) -> list[Signal]:
        """Vitis order: clock, reset, the masters, the streams, the control slave,
        interrupt."""
        out = [self.ap_clk, self.ap_rst_n]
        for ad in self.adapters.values():
            out += ad.axi_ports()
        for st in self.streams.values():
            out += st.axis_ports()
        return out + self.ctl.bus_ports()

    def elaborate(self, platform):
        m = Module()
        # The accelerator proper is TopRTL's FunctionRTL, wired here exactly as TopRTL
        # wires it (start/done/idle/return, scalars, BRAM ports) but to the control slave
        # and the adapters; the ``sync`` domain is defined here (TopRTL defines its own).
        m.domains.sync = cd = ClockDomain("sync")
        m.d.comb += [cd.clk.eq(self.ap_clk), cd.rst.eq(~self.ap_rst_n)]
        core, ctl = self.core.core, self.ctl
        run = Signal(name="run")
        m.submodules.core = EnableInserter({"sync": run})(core)
        m.submodules.control = ctl
        readies = []
        # The adapters' line buffers would outlive a call, and the host may rewrite the
        # buffers between calls: each adapter is reset in DONE, when it is idle (no burst
        # in flight, every B received), so every call starts with no line cached.
        clear = Signal(name="clear_adapters")
        for b, ad in self.adapters.items():
            m.submodules[f"axi_{b}"] = ResetInserter({"sync": clear})(ad)
            m.d.comb += ad.run.eq(run)
            readies.append(ad.ready)
        stream_error = Signal(name="stream_error")
        errors = []
        for name, st in self.streams.items():
            m.submodules[f"axis_{name}"] = st
            m.d.comb += [st.run.eq(run), st.restart.eq(clear)]
            readies.append(st.ready)
            errors.append(st.error)
            mp = self.mem_of_arg[name]
            for cp, bp in zip(mp.port, st.ports, strict=True):
                wiring.connect(m, cp, bp)
        m.d.comb += stream_error.eq(_any(errors))
        m.d.comb += run.eq(Const(1, 1) if not readies else _all(readies))

        by_index = {r.arg_index: ctl.args[r.name] for r in ctl.regs if r.is_arg}
        for p, sig in core.params.items():
            m.d.comb += sig.eq(by_index[p.index])
        for b, ad in self.adapters.items():
            for a in ad.args:
                mp = self.mem_of_arg[a.name]
                m.d.comb += ad.base[a.name].eq(ctl.args[a.name])
                for cp, bp in zip(mp.port, ad.ports[a.name], strict=True):
                    wiring.connect(m, cp, bp)

        ret = None
        if core.ret is not None:
            ret = Signal(len(core.ret), name="ret_latched")
            m.d.comb += ctl.ap_return.eq(ret)
        flush = Signal(name="flush")
        for ad in self.adapters.values():
            m.d.comb += ad.flush.eq(flush)
        idles = [ad.idle for ad in self.adapters.values()] + [
            st.idle for st in self.streams.values()]
        all_idle = _all(idles) if idles else 1
        with m.FSM(name="alveo_ctrl") as fsm:
            with m.State("IDLE"):
                m.d.comb += core.start.eq(ctl.ap_start)
                with m.If(run & ctl.ap_start):       # the core takes start in a core cycle
                    m.next = "BUSY"
            with m.State("BUSY"):
                with m.If(run & core.done):          # the core's last cycle completes
                    if ret is not None:
                        m.d.sync += ret.eq(core.ret)
                    m.next = "FLUSH"
            with m.State("FLUSH"):
                m.d.comb += flush.eq(1)
                with m.If(all_idle):                 # every write has its B response
                    m.next = "DONE"
            with m.State("DONE"):
                m.d.comb += [ctl.ap_done.eq(1), ctl.ap_ready.eq(1), clear.eq(1)]
                m.next = "IDLE"
        m.d.comb += ctl.ap_idle.eq(fsm.ongoing("IDLE"))
        return m


def _all(sigs):
    out = sigs[0]
    for s in sigs[1:]:
        out = out & s
    return out


def _any(sigs):
    out = Const(0, 1)
    for s in sigs:
        out = out | s
    return out


def resolve_streams(interface: TopInterface, spec: Iterable[str]) -> dict[str, str]:
    """``--interface ARG=axis`` arguments (name or zero-based position) to pointer
    argument name -> ``"in"`` (only read) or ``"out"`` (only written)."""
    ptrs = {m.name: m for m in interface.memories if m.arg_index is not None}
    out = {}
    for arg in spec:
        name = _pointer_arg(interface, arg, "axis")
        m = ptrs[name]
        if m.readonly == m.writeonly:
            raise RTLError(f"--interface {arg}=axis: argument '{name}' must be only read or "
                           f"only written to be a stream, not "
                           f"{'both read and written' if not m.readonly else 'never accessed'}")
        out[name] = "in" if m.readonly else "out"
    return out


def resolve_bundles(interface: TopInterface, spec: Mapping[str, str] | None) -> dict[str, str]:
    """``--interface``-style ``ARG -> bundle`` (ARG a pointer argument's name or its
    zero-based position) to pointer argument name -> bundle."""
    out = {}
    for arg, bundle in (spec or {}).items():
        out[_pointer_arg(interface, arg, "m_axi")] = bundle or DEFAULT_BUNDLE
    return out


def _pointer_arg(interface: TopInterface, arg: str, kind: str) -> str:
    """The name of the pointer argument ``arg`` (a name or a zero-based position) of an
    ``--interface ARG=<kind>`` option."""
    ptrs = [m.name for m in interface.memories if m.arg_index is not None]
    by_pos = {str(m.arg_index): m.name for m in interface.memories if m.arg_index is not None}
    name = arg if arg in ptrs else by_pos.get(str(arg))
    if name is None:
        what = "a scalar" if any(s.name == arg for s in interface.scalars) else "unknown"
        raise RTLError(f"--interface {arg}={kind}: '{arg}' must be a pointer argument of "
                       f"{interface.function} (name or position), not {what}; pointer "
                       f"arguments: {', '.join(ptrs) or 'none'}")
    return name
