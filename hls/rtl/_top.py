"""The top-level wrapper (Vitis-style ``ap_ctrl_hs`` ports) and Verilog emission."""

from __future__ import annotations

import re

from amaranth.back import rtlil, verilog
from amaranth.hdl import ClockDomain, Elaboratable, Fragment, Module, Signal
from amaranth.lib import wiring

from ..binding import Binding
from ..interface import MemoryPort, MonitorPort, ProbePort, ScalarPort, TopInterface
from ..ir import Function, MemoryObject
from ..memory import MemPorts
from ..errors import RTLError
from ._dataflow import DataflowRTL
from ._fsmd import NPORTS, Control, FunctionRTL, mem_ports


#: the ports the top has of its own: the block-level handshake, the deadlock monitor of a
#: dataflow top, the loop probes (``prof<k>``)
CONTROL_PORTS = ("ap_clk", "ap_rst_n", "ap_start", "ap_done", "ap_idle", "ap_ready",
                 "ap_return", "df_deadlock", "df_waits")
_OWN = re.compile(r"prof\d+")
#: the suffixes of a memory's ports ``<name>_address<k>`` ... (:class:`hls.memory.MemPort`)
_MEM_PORTS = ("address", "ce", "we", "d", "q")


def port_names(top: Function, external_globals=()) -> tuple[dict, list]:
    """The port name of each scalar argument of ``top`` (by :class:`~hls.ir.Param`) and
    the port prefix of each memory of its pointer arguments (a bank's own name when
    partitioned) and of ``external_globals`` (by :class:`~hls.ir.MemoryObject`): their
    own names, except where one would be a port pyhls generates (:data:`CONTROL_PORTS`,
    ``prof<k>``, another memory's ``<M>_address0`` ...) or another argument's port; such
    a name gets ``_2``, ``_3``, ... (in argument order).  Also the renamed ones, as
    (C name, port name) pairs, which the flow warns about."""
    used = set(CONTROL_PORTS)
    out, renamed = {}, []

    def ports(base, mem):
        return ([f"{base}_{k}{i}" for k in _MEM_PORTS for i in range(NPORTS)] if mem
                else [base])

    def free(base, mem) -> bool:
        return not any(n in used or _OWN.fullmatch(n) for n in ports(base, mem))

    items = [(p, p.name, False) for p in top.scalar_params]
    for p in top.ptr_params:
        items += [(mem, mem.name if p.banks else p.name, True) for mem in p.port_mems]
    items += [(g, g.name, True) for g in external_globals]
    # every argument's own names first: a later argument named like an earlier one's
    # port is the one renamed, whatever the order
    own = [name for _, name, _ in items]
    for key, name, mem in items:
        base, k = name, 1
        while not free(base, mem) or (base != name and base in own):
            k += 1
            base = f"{name}_{k}"
        used.update(ports(base, mem))
        out[key] = base
        if base != name:
            renamed.append((name, base))
    return out, renamed


class TopRTL(Elaboratable):
    """``ap_clk``/``ap_rst_n``, ``ap_start``/``ap_done``/``ap_idle``/``ap_ready``,
    ``ap_return``, one input per scalar argument and BRAM-style memory ports.

    ``ctrl`` (a :class:`Control` of the core's :class:`ControlSignature` over the ``ap_*``
    and scalar ports) and ``mem_ports`` (one :class:`~hls.memory.MemPorts` per external
    memory) are the top's interfaces; ``elaborate`` joins them to the core's with
    ``wiring.connect``."""

    def __init__(self, bindings: dict[Function, Binding], top: Function,
                 external_globals: tuple[MemoryObject, ...] = (), probes: bool = False,
                 dataflow: dict | None = None, monitor: bool = False):
        self.top = top
        #: dataflow regions (hls.dataflow.TaskGraph by function): built as DataflowRTL
        self.dataflow = dataflow or {}
        self.bindings = bindings
        self.external_globals = external_globals
        self.ap_clk = Signal(name="ap_clk")
        self.ap_rst_n = Signal(name="ap_rst_n")
        self.ap_start = Signal(name="ap_start")
        self.ap_done = Signal(name="ap_done")
        self.ap_idle = Signal(name="ap_idle")
        self.ap_ready = Signal(name="ap_ready")
        self.ap_return = Signal(top.return_width, name="ap_return") if top.return_width else None
        #: the ports' names: (argument or global, its name, the name of its port(s)) of
        #: each renamed because it is a name pyhls gives a port of its own
        self.port_names, self.renamed = port_names(top, external_globals)
        self.scalars = {p: Signal(p.width, name=self.port_names[p]) for p in top.scalar_params}
        self.mem_ports: dict[MemoryObject, MemPorts] = {}
        for p in top.ptr_params:
            for mem in p.port_mems:
                self.mem_ports[mem] = mem_ports(mem, self.port_names[mem])
        for g in external_globals:
            self.mem_ports[g] = mem_ports(g, self.port_names[g])
        self.core = self._instantiate(top, external_globals)
        self.ctrl = Control(self.core.signature, self.ap_start, self.ap_done, self.ap_idle,
                            self.ap_return, tuple(self.scalars.values()))
        #: profiling outputs ``prof<k>``, one per pipelined loop instance (``probes=True``)
        self.probes = [(ProbePort(f"prof{k}", fn, bn), sig, Signal(name=f"prof{k}"))
                       for k, (fn, bn, sig) in enumerate(self.core.probes)] if probes else []
        #: the deadlock monitor's outputs of a dataflow top (``monitor=True``)
        self.monitor = None
        if monitor and isinstance(self.core, DataflowRTL):
            self.monitor = (Signal(name="df_deadlock"),
                            Signal(len(self.core.wait_bits), name="df_waits"))

    def _instantiate(self, func: Function, globs=()):
        if func in self.dataflow:
            if any(not g.readonly for g in globs):
                raise RTLError(f"dataflow region @{func.name} is the top of a design with "
                               "writable globals: its tasks cannot share them")
            return DataflowRTL(self.dataflow[func], self._instantiate)
        callees = {c: self._instantiate(c) for c in func.callees()}
        return FunctionRTL(self.bindings[func], callees, globs)

    def op_signals(self) -> dict[str, list]:
        """Generated wire name -> the ops whose value it carries (``v3_add``,
        ``pl_for_body_v2_mul``; several when functions repeat a name), from the elaborated
        functions: how a place-and-route path's signals name the ops on it
        (``--close-timing``)."""
        out: dict[str, list] = {}
        todo, seen = [self.core], set()
        while todo:
            rtl = todo.pop()
            if id(rtl) in seen:
                continue
            seen.add(id(rtl))
            if isinstance(rtl, DataflowRTL):
                todo.extend(rtl.inst_cores)
                continue
            todo.extend(rtl.callees.values())
            for op, sig in getattr(rtl, "wire", {}).items():
                ops = out.setdefault(sig.name, [])
                if op not in ops:
                    ops.append(op)
        return out

    def ports(self) -> list[Signal]:
        out = [self.ap_clk, self.ap_rst_n, self.ap_start, self.ap_done, self.ap_idle,
               self.ap_ready]
        if self.ap_return is not None:
            out.append(self.ap_return)
        out += list(self.scalars.values())
        for mp in self.mem_ports.values():
            for port in mp.port:
                out += port.signals()
        out += [port for _, _, port in self.probes]
        if self.monitor is not None:
            out += list(self.monitor)
        return out

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = cd = ClockDomain("sync")
        m.d.comb += [cd.clk.eq(self.ap_clk), cd.rst.eq(~self.ap_rst_n)]
        core = self.core
        m.submodules.core = core
        wiring.connect(m, wiring.flipped(self.ctrl), core)
        m.d.comb += self.ap_ready.eq(core.done)
        for _, sig, port in self.probes:
            m.d.comb += port.eq(sig)
        if self.monitor is not None:
            m.d.comb += [self.monitor[0].eq(core.deadlock), self.monitor[1].eq(core.wait_bits)]
        for mem, mp in self.mem_ports.items():
            wiring.connect(m, wiring.flipped(mp), core.ext[mem])
        return m

    def interface(self, module_name: str) -> TopInterface:
        f = self.top
        scal = tuple(ScalarPort(self.port_names[p], p.index, p.width) for p in f.scalar_params)
        mems = []
        for mem, mp in self.mem_ports.items():
            whole = mem.whole or mem
            name = self.port_names[mem]
            if mem.kind == "global":
                array = mem.name
            else:
                array = next(p for p in f.ptr_params if mem in p.port_mems).name
            mems.append(MemoryPort(
                name=name,
                word_bytes=mem.word_bytes, depth_words=mem.depth_words, nports=NPORTS,
                arg_index=mem.arg_index if mem.kind == "arg" else None,
                global_name=mem.symbol if mem.kind == "global" else None,
                elem_bytes=mem.elem_bytes or mem.word_bytes,
                init=whole.init if mem.kind == "global" else None,
                readonly=mem.readonly, writeonly=mem.writeonly, float_bits=mem.float_bits,
                bank=mem.bank, array_name=array, elem_dims=whole.elem_dims,
                elem_fields=whole.elem_fields))
        mon = None
        if self.monitor is not None:
            g = self.core.g
            mon = MonitorPort("df_deadlock", "df_waits", tuple(self.core.wait_list()),
                              tuple((t.name, t.line) for t in g.tasks), f.name,
                              f.loc.file if f.loc else None)
        return TopInterface(module_name, f.name, scal, tuple(mems), f.return_width,
                            return_float=f.return_float,
                            probes=tuple(pp for pp, _, _ in self.probes), monitor=mon)


#: a ``switch`` on an FSM's one-hot state register in Amaranth's RTLIL
#: (:class:`hls.rtl.StateRegister`)
_STATE_SWITCH = re.compile(r"^(\s*)(switch \\state \[)", re.M)


def emit_verilog(top: TopRTL, name: str) -> str:
    """Verilog-2005 text of the design; deterministic for the same input.

    Every ``switch`` on a one-hot state register is marked ``parallel_case``: its cases
    test one bit each and never hold together, but a pattern with don't-care bits makes
    Yosys keep the switch's priority, one 2:1 multiplexer per case in a chain as long as
    the FSM (proc_mux).  Marked, a register written in ``k`` states is one ``$pmux`` of
    ``k`` inputs selected by the state bits.  Amaranth has no attribute on a switch, so
    the mark is added to its RTLIL before Amaranth's own conversion to Verilog."""
    text, _ = rtlil.convert_fragment(Fragment.get(top, None), top.ports(), name, emit_src=False)
    text = _STATE_SWITCH.sub(lambda mm: f"{mm.group(1)}attribute \\parallel_case 1\n"
                             f"{mm.group(1)}{mm.group(2)}", text)
    text = verilog._convert_rtlil_text(text, strip_internal_attrs=True)
    # Yosys names submodule types hierarchically ("top.core"); keep them plain identifiers
    text = re.sub(r"\\([A-Za-z_][\w$]*(?:\.[\w$]+)+) ", lambda mm: mm.group(1).replace(".", "__") + " ", text)
    return text
