"""AXI4 master adapter: the accelerator core's BRAM-style memory ports over one
``m_axi_<bundle>`` master into DDR/HBM, with a global stall.

The core (``hls.rtl``) assumes synchronous single-cycle memories: a read issued in cycle
``t`` (``ce`` with ``we == 0``) has its data on ``q`` in cycle ``t + 1``; a write issued in
cycle ``t`` is seen by every later read; within one cycle reads see the old contents
(read-first).  AXI memory has a variable latency, so the core is frozen instead of
rescheduled:

* the whole core sits under ``EnableInserter({"sync": run})``: while ``run`` is 0 no
  register or memory of the core changes, and its combinational outputs are those of the
  frozen cycle again.  A *core cycle* is one clock cycle with ``run == 1``; the core's
  requests are sampled (and only then) at the rising edge that ends a core cycle;
* ``run`` is the AND of the ``ready`` outputs of every adapter of the top (and whatever
  else the top gates it with).  An adapter's ``ready`` is 0 while a read of the previous
  core cycle has not got its data onto ``q`` yet, or a write of the previous core cycle
  still waits for room in the write buffer.  ``ready`` is a function of the adapter's
  registers only, so the enable of the core's flip-flops has no combinational path from
  the core, and AXI ``READY`` inputs never reach it either.

Because requests are sampled only at ``run`` edges, the identical outputs of a frozen
core cycle are never taken as new requests, and the outputs of a cycle whose ``q`` is not
yet final (an address computed from a loaded value) are never sampled at all.

Per core port that reads, a **line buffer** of ``line_beats`` (L) data beats holds one
aligned line (L * data bytes, never crossing 4 KiB) fetched with one INCR burst
(``ARLEN = L - 1``).  A read that hits it is answered at once (a synchronous read of the
line memory at the sampling edge: no stall).  A miss stalls only until the missed beat has
arrived: the rest of the line streams in while the core goes on, and reads of beats that
are already in hit (a sequential stream follows the burst one word per cycle).

**Prefetch** (``prefetch=True``, the default, when L > 1): each reading port has two line
buffers (*ways*).  While port p reads line T (the line of the way its last read was
answered from) and no miss is pending, the adapter issues the burst of line T + 1 into the
other way, unless that way is busy, already holds T + 1, or T + 1 lies in the next 4 KiB
page.  So a sequential stream finds its next line already in (or streaming in) and does
not stall at line boundaries.  Up to two read bursts are in flight (one per way, one ID:
the R beats of the second follow those of the first); a demand fill goes before any
prefetch, and evicts the way q does not come from (else the other, whichever is not busy).
*Over-reading*: a prefetch never leaves the 4 KiB page of a line the core has read, so it
reads at most to the end of that page.  XRT buffers are 4 KiB aligned (and, we assume,
allocated in whole pages: a buffer whose size is not a multiple of 4 KiB may be read up to
its page's end), and hls.verify's co-simulation (``_axi_cosim.axi_layout``) places buffers 4 KiB
aligned with guard pages inside the AxiRam, so such reads stay in memory that exists; their
data is never used unless the core reads it (Vitis HLS also reads whole bursts).  The cost:
one line-boundary stall per 4 KiB page of a stream, and, for irregular accesses, one extra
burst per miss on the read channel (``prefetch=False``: one way per port, one burst in
flight).  No prefetch is issued while ``flush`` is high: once ``idle`` is reached at the
end of a call it stays high while the top holds ``flush``.

A write to a line whose burst is in flight (streaming in or not yet started, demand or
prefetch) waits until its last beat is in.  Writes of
all ports go through one **write-combining buffer** per bundle, two buffers of L beats
each: a write to a beat of the open buffer's window, or to the beat just after it (inside
the same aligned L-beat block), is merged (data and byte strobes); any other write closes
the open buffer, which then goes out as one burst (AW + its W beats, ``WLAST``), and
starts a new window in the other buffer at the same edge.  So a sequential write stream
fills one buffer while the other goes out, one write per cycle; a write waits only when
both are full (the other's burst still going out, or ``max_writes`` bursts waiting for
their B).  Coherence, conservatively:

* every write also updates any line buffer of the bundle that holds its beat (so reads
  that hit always see every earlier write, from any port or argument of the bundle);
* a line fill or prefetch waits while a write burst in flight (going out or waiting for
  its B response) may hold its line: the lines of those bursts lie in an interval of
  tags, ``[wf_lo, wf_hi]``, widened at each close and started again once no burst is in
  flight.  It also waits until the open write buffer holds no write to that line (a
  demand fill closes it; a prefetch just waits), and is not issued at an edge where a
  write to that line is applied, so the memory the burst reads holds every earlier write
  to the line; later writes to it wait for its last beat (above) and then update the
  way;
* the writes of a core cycle are applied after its reads: directly at the sampling edge
  when all the cycle's reads hit (the line memories are read-first), else kept in one
  *slot* per port and applied after the misses are served; a core cycle with two or more
  writes also leaves all but the first in slots (one apply per clock);
* ``flush`` closes the write buffer; ``idle`` says that nothing is pending and every
  burst has its B response: the top holds ``ap_done`` until then.

AXI4 rules kept: VALID outputs are registers and never depend on READY; payload is held
while VALID && !READY (the W beat comes from the buffer memory's read port, which is not
enabled then); ``WLAST`` on the last beat; every B counted; R beats counted against
``ARLEN`` and ``RLAST``; any ``RRESP``/``BRESP`` other than OKAY, or an ``RLAST`` in the
wrong place, sets the sticky ``error`` output.  One ID (0); up to two read bursts in flight
with prefetch (one without), whose R beats return in AR order; any number of write bursts
in flight (up to ``max_writes``).  ``RREADY`` is high while a burst is expected.

Addresses: the byte address of word ``a`` of argument ``x`` is ``base[x] + a * word_bytes``
(64 bits); ``base[x]`` must be a multiple of ``word_bytes`` (XRT buffers are 4 KiB
aligned), so a word never straddles two beats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from amaranth.hdl import Array, Cat, Const, Elaboratable, Module, Mux, Signal
from amaranth.lib.memory import Memory

from ..errors import RTLError
from ._ports import MemPort

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "BramPort", "MasterArg"]

#: AxCACHE of every burst: Vitis HLS's default "normal non-cacheable bufferable"
AXI_CACHE = 0b0011
ADDR_BITS = 64


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@dataclass(frozen=True, slots=True)
class MasterArg:
    """One pointer argument served by a bundle: ``nports`` BRAM-style ports of words of
    ``word_bytes`` bytes addressed by ``addr_bits``-bit word addresses (the core's
    ``MemPorts``).  ``readonly`` arguments get no write logic, ``writeonly`` ones no line
    buffers."""

    name: str
    word_bytes: int
    addr_bits: int
    nports: int = 2
    readonly: bool = False
    writeonly: bool = False

    def __post_init__(self):
        if not _pow2(self.word_bytes):
            raise RTLError(f"word size of argument '{self.name}' must be a power of two "
                           f"bytes, not {self.word_bytes}")
        if not 1 <= self.addr_bits <= 48:
            raise RTLError(f"address width of argument '{self.name}' must be 1..48 bits, "
                           f"not {self.addr_bits}")
        if self.nports < 1:
            raise RTLError(f"argument '{self.name}' must have at least one port")
        if self.readonly and self.writeonly:
            raise RTLError(f"argument '{self.name}' cannot be both read-only and write-only")


class BramPort(MemPort):
    """The core-side port of one argument, seen from the memory (a flipped
    :class:`~hls.memory.MemPortSignature`), with signals named as the core's top-level
    ports (``<arg>_address<k>``, ``_ce<k>``, ``_we<k>``, ``_d<k>``, ``_q<k>``)."""

    def __init__(self, arg: MasterArg, k: int):
        super().__init__(arg.addr_bits, arg.word_bytes, arg.name, k, flip=True)
        self.arg = arg
        self.k = k

    def inputs(self) -> list[Signal]:
        """Driven by the core."""
        return self.requests()


class AxiMasterAdapter(Elaboratable):
    """N BRAM-style ports (one per (argument, port k)) over one AXI4 master.

    Parameters: ``bundle`` (the ``m_axi_<bundle>_*`` prefix), ``args`` (the arguments the
    bundle serves), ``data_width`` (32..512, a power of two; at least every argument's
    word), ``id_width`` (width of the ID signals, all IDs are 0), ``line_beats`` (L: beats
    per read line and per write burst; 1 disables bursts and prefetch; L * data bytes <=
    4096), ``max_writes`` (write bursts in flight waiting for B), ``prefetch`` (two line
    buffers per reading port and a second read burst in flight: the next line of a port's
    stream is fetched while the core reads the current one).

    Signals: ``ports[arg][k]`` (:class:`BramPort`), ``base[arg]`` (64-bit byte address,
    in), ``run`` (in: this clock cycle is a core cycle), ``ready`` (out), ``flush`` (in),
    ``idle`` (out), ``error`` (out, sticky until reset), and the AXI4 master ``axi[NAME]``
    with Vitis names ``m_axi_<bundle>_<NAME>`` (NAME upper case: ``AWADDR``, ``RDATA``...).
    """

    AXI_SIGNALS: tuple[tuple[str, str, str], ...] = (
        # (name, direction seen from the master, width key)
        ("AWVALID", "o", "1"), ("AWREADY", "i", "1"), ("AWADDR", "o", "addr"),
        ("AWID", "o", "id"), ("AWLEN", "o", "8"), ("AWSIZE", "o", "3"),
        ("AWBURST", "o", "2"), ("AWLOCK", "o", "1"), ("AWCACHE", "o", "4"),
        ("AWPROT", "o", "3"), ("AWQOS", "o", "4"), ("AWREGION", "o", "4"),
        ("WVALID", "o", "1"), ("WREADY", "i", "1"), ("WDATA", "o", "data"),
        ("WSTRB", "o", "strb"), ("WLAST", "o", "1"),
        ("BVALID", "i", "1"), ("BREADY", "o", "1"), ("BRESP", "i", "2"), ("BID", "i", "id"),
        ("ARVALID", "o", "1"), ("ARREADY", "i", "1"), ("ARADDR", "o", "addr"),
        ("ARID", "o", "id"), ("ARLEN", "o", "8"), ("ARSIZE", "o", "3"),
        ("ARBURST", "o", "2"), ("ARLOCK", "o", "1"), ("ARCACHE", "o", "4"),
        ("ARPROT", "o", "3"), ("ARQOS", "o", "4"), ("ARREGION", "o", "4"),
        ("RVALID", "i", "1"), ("RREADY", "o", "1"), ("RDATA", "i", "data"),
        ("RRESP", "i", "2"), ("RLAST", "i", "1"), ("RID", "i", "id"),
    )

    def __init__(self, bundle: str, args: Sequence[MasterArg], *, data_width: int = 64,
                 id_width: int = 1, line_beats: int = 16, max_writes: int = 15,
                 prefetch: bool = True):
        try:
            self._check(bundle, args, data_width, id_width, line_beats, max_writes)
        except RTLError:
            self._MustUse__silence = True   # no "created but never used" warning as well
            raise
        db = data_width // 8
        self.bundle = bundle
        self.args = tuple(args)
        self.data_width = data_width
        self.id_width = id_width
        self.line_beats = line_beats
        self.max_writes = max_writes
        self.prefetch = prefetch

        self.ports: dict[str, list[BramPort]] = {
            a.name: [BramPort(a, k) for k in range(a.nports)] for a in self.args}
        self.base: dict[str, Signal] = {
            a.name: Signal(ADDR_BITS, name=f"{bundle}_{a.name}_base") for a in self.args}
        self.run = Signal(name=f"{bundle}_run")
        self.ready = Signal(name=f"{bundle}_ready")
        self.flush = Signal(name=f"{bundle}_flush")
        self.idle = Signal(name=f"{bundle}_idle")
        self.error = Signal(name=f"{bundle}_error")

        widths = {"addr": ADDR_BITS, "id": id_width, "data": data_width, "strb": db}
        self.axi: dict[str, Signal] = {}
        for name, _dir, wk in self.AXI_SIGNALS:
            self.axi[name] = Signal(widths.get(wk) or int(wk), name=f"m_axi_{bundle}_{name}")

    @staticmethod
    def _check(bundle, args, data_width, id_width, line_beats, max_writes):
        if not args:
            raise RTLError(f"bundle '{bundle}' must serve at least one argument")
        if len({a.name for a in args}) != len(args):
            raise RTLError(f"argument names of bundle '{bundle}' must be unique")
        if not (_pow2(data_width) and 32 <= data_width <= 512):
            raise RTLError(f"data width of bundle '{bundle}' must be a power of two in "
                           f"32..512, not {data_width}")
        db = data_width // 8
        for a in args:
            if a.word_bytes > db:
                raise RTLError(f"argument '{a.name}' has {a.word_bytes}-byte words, wider "
                               f"than the {data_width}-bit data of bundle '{bundle}'")
        if not (_pow2(line_beats) and line_beats <= 256 and line_beats * db <= 4096):
            raise RTLError(f"line_beats of bundle '{bundle}' must be a power of two with at "
                           f"most 256 beats and 4096 bytes, not {line_beats}")
        if not 1 <= id_width <= 32:
            raise RTLError(f"id_width must be 1..32, not {id_width}")
        if max_writes < 1:
            raise RTLError(f"max_writes must be at least 1, not {max_writes}")

    # ------------------------------------------------------------------ port lists

    def flat_ports(self) -> list[BramPort]:
        return [p for a in self.args for p in self.ports[a.name]]

    def axi_ports(self) -> list[Signal]:
        return [self.axi[n] for n, _d, _w in self.AXI_SIGNALS]

    def io_ports(self) -> list[Signal]:
        """Every port of the adapter, for its Verilog alone (``verilog.convert(ad,
        ports=ad.io_ports())``): control, base addresses, the AXI4 master, and each core
        port's requests and ``q``."""
        ports = [self.run, self.ready, self.flush, self.idle, self.error,
                 *self.base.values(), *self.axi_ports()]
        for p in self.flat_ports():
            ports += p.inputs() + [p.q]
        return ports

    def axi_inputs(self) -> list[Signal]:
        return [self.axi[n] for n, d, _w in self.AXI_SIGNALS if d == "i"]

    # ------------------------------------------------------------------ elaboration

    def elaborate(self, platform):
        m = Module()
        ax = self.axi
        dw, db, L = self.data_width, self.data_width // 8, self.line_beats
        ob, lb = _log2(db), _log2(L)
        lbs = max(lb, 1)                    # width of beat-index signals
        tag_bits = ADDR_BITS - ob - lb
        mem_depth = max(L, 2)
        ones_db = (1 << db) - 1

        ports = self.flat_ports()
        readers = [p for p in ports if not p.arg.writeonly]
        writers = [p for p in ports if not p.arg.readonly]

        # --- constant AXI fields
        m.d.comb += [
            ax["AWID"].eq(0), ax["ARID"].eq(0),
            ax["AWSIZE"].eq(ob), ax["ARSIZE"].eq(ob),
            ax["AWBURST"].eq(1), ax["ARBURST"].eq(1),           # INCR
            ax["AWLOCK"].eq(0), ax["ARLOCK"].eq(0),
            ax["AWCACHE"].eq(AXI_CACHE), ax["ARCACHE"].eq(AXI_CACHE),
            ax["AWPROT"].eq(0), ax["ARPROT"].eq(0),
            ax["AWQOS"].eq(0), ax["ARQOS"].eq(0),
            ax["AWREGION"].eq(0), ax["ARREGION"].eq(0),
            ax["ARLEN"].eq(L - 1),
            ax["BREADY"].eq(1),
        ]
        error = self.error
        with m.If(ax["BVALID"] & (ax["BRESP"] != 0)):
            m.d.sync += error.eq(1)

        # --- per port: decoded request of the current (possibly frozen) core cycle
        class Req:
            pass

        reqs: dict[int, Req] = {}
        for i, p in enumerate(ports):
            a = p.arg
            wb = _log2(a.word_bytes)
            r = Req()
            r.byte = Signal(ADDR_BITS, name=f"{a.name}{p.k}_byte")
            m.d.comb += r.byte.eq(self.base[a.name] + (p.address << wb))
            r.idx = r.byte[ob:ob + lb] if lb else Const(0, 1)
            r.tag = r.byte[ob + lb:]
            r.lanes = db // a.word_bytes
            r.lane = r.byte[wb:ob] if ob > wb else Const(0, 1)
            r.rd = Signal(name=f"{a.name}{p.k}_rd")
            r.wr = Signal(name=f"{a.name}{p.k}_wr")
            m.d.comb += [r.rd.eq(p.ce & (p.we == 0) & (not a.writeonly)),
                         r.wr.eq(p.ce & (p.we != 0) & (not a.readonly))]
            # data replicated over every lane; the strobes pick the word's bytes
            r.data = Cat(*([p.d] * r.lanes))
            r.strb = Signal(db, name=f"{a.name}{p.k}_strb")
            if r.lanes == 1:
                m.d.comb += r.strb.eq(p.we)
            else:
                m.d.comb += r.strb.eq(Cat(*[Mux(r.lane == j, p.we, 0) for j in range(r.lanes)]))
            reqs[i] = r

        # --- read side: line buffers (``NW`` ways per reading port), pending misses
        # Read bursts in flight: up to ``NW`` (port, way) records in AR order (one ID, so
        # R beats come in that order); the head's beats ``0 .. cnt - 1`` are already in
        # its way's memory, so reads of them hit while the rest streams in.
        NW = 2 if self.prefetch and L > 1 else 1
        nrd = max(len(readers), 1)
        fq_n = Signal(range(NW + 1), name="rd_outstanding")
        fq_port = [Signal(range(max(nrd, 2)), name=f"rd_q{e}_port") for e in range(NW)]
        fq_way = [Signal(range(2), name=f"rd_q{e}_way") for e in range(NW)]
        cnt = Signal(lb + 1, name="fill_count")
        arvalid = Signal(name="arvalid")
        araddr = Signal(ADDR_BITS, name="araddr")
        fill_busy = Signal(name="fill_busy")
        m.d.comb += fill_busy.eq(arvalid | (fq_n != 0))
        head_on = fq_n != 0
        # the write applied at this edge (driven by _write_side)
        ap_go = Signal(name="ap_go")
        ap_tag = Signal(tag_bits, name="ap_tag")
        rd_state = {}
        pend_any = Signal(name="pend_any")
        any_miss = Signal(name="any_miss")
        miss_terms, pend_terms = [], []
        for jr, p in enumerate(readers):
            i = ports.index(p)
            r = reqs[i]
            a = p.arg
            s = Req()
            s.ways = []
            for w in range(NW):
                wy = Req()
                wy.mem = Memory(shape=dw, depth=mem_depth, init=[])
                m.submodules[f"line_{a.name}{p.k}" + (f"_{w}" if NW > 1 else "")] = wy.mem
                wy.rp = wy.mem.read_port(domain="sync")
                m.d.comb += wy.rp.en.eq(0)    # (a read port's en resets to 1)
                wy.wp = wy.mem.write_port(granularity=8)
                sfx = f"{a.name}{p.k}" + (f"_w{w}" if NW > 1 else "")
                wy.valid = Signal(name=f"{sfx}_line_valid")   # all L beats in
                wy.busy = Signal(name=f"{sfx}_line_busy")     # its burst is in flight
                wy.tag = Signal(tag_bits, name=f"{sfx}_line_tag")
                wy.streaming = Signal(name=f"{sfx}_streaming")
                m.d.comb += wy.streaming.eq(head_on & (fq_port[0] == jr) & (fq_way[0] == w))
                s.ways.append(wy)
            s.qway = Signal(range(2), name=f"{a.name}{p.k}_qway")  # the way q comes from
            s.lane = Signal(len(r.lane), name=f"{a.name}{p.k}_lane")
            s.pend = Signal(name=f"{a.name}{p.k}_pend")
            s.pend_tag = Signal(tag_bits, name=f"{a.name}{p.k}_pend_tag")
            s.pend_idx = Signal(lbs, name=f"{a.name}{p.k}_pend_idx")
            s.pend_lane = Signal(len(r.lane), name=f"{a.name}{p.k}_pend_lane")

            def present(tag, idx, wy):
                return (wy.tag == tag) & (wy.valid | (wy.streaming & (idx < cnt)))

            def lookup(tag, idx, what, s=s, pre=f"{a.name}{p.k}"):
                """(any way has it, per-way hit signals)"""
                hs = []
                for w, wy in enumerate(s.ways):
                    h = Signal(name=f"{pre}_{what}{w}")
                    m.d.comb += h.eq(present(tag, idx, wy))
                    hs.append(h)
                return Cat(*hs).any(), hs

            s.hit = Signal(name=f"{a.name}{p.k}_hit")
            hit_any, hit_w = lookup(r.tag, r.idx, "hitw")
            m.d.comb += s.hit.eq(hit_any)
            # a pending miss is served once its beat is in: q has it next cycle
            s.serve = Signal(name=f"{a.name}{p.k}_serve")
            srv_any, srv_w = lookup(s.pend_tag, s.pend_idx, "srvw")
            m.d.comb += s.serve.eq(s.pend & srv_any)
            with m.If(s.serve):
                for w, wy in enumerate(s.ways):
                    with m.If(srv_w[w]):
                        m.d.comb += [wy.rp.en.eq(1), wy.rp.addr.eq(s.pend_idx)]
                        m.d.sync += s.qway.eq(w)
                m.d.sync += [s.lane.eq(s.pend_lane), s.pend.eq(0)]
            word = Signal(dw, name=f"{a.name}{p.k}_qword")
            m.d.comb += word.eq(s.ways[0].rp.data if NW == 1 else
                                Mux(s.qway, s.ways[1].rp.data, s.ways[0].rp.data))
            if r.lanes == 1:
                m.d.comb += p.q.eq(word)
            else:
                m.d.comb += p.q.eq(word.word_select(s.lane, 8 * a.word_bytes))
            # a read of this core cycle: answered now if it hits, else pending
            with m.If(self.run & r.rd):
                with m.If(s.hit):
                    for w, wy in enumerate(s.ways):
                        with m.If(hit_w[w]):
                            m.d.comb += [wy.rp.en.eq(1), wy.rp.addr.eq(r.idx)]
                            m.d.sync += s.qway.eq(w)
                    m.d.sync += s.lane.eq(r.lane)
                with m.Else():
                    m.d.sync += [s.pend.eq(1), s.pend_tag.eq(r.tag), s.pend_idx.eq(r.idx),
                                 s.pend_lane.eq(r.lane)]
            miss_terms.append(r.rd & ~s.hit)
            pend_terms.append(s.pend)
            rd_state[i] = s
        m.d.comb += [any_miss.eq(Cat(*miss_terms).any() if miss_terms else 0),
                     pend_any.eq(Cat(*pend_terms).any() if pend_terms else 0)]

        def inflight(tag):
            """Some read burst in flight (or being issued) fetches line ``tag``."""
            terms = [wy.busy & (wy.tag == tag) for s in rd_state.values() for wy in s.ways]
            return Cat(*terms).any() if terms else Const(0, 1)

        # --- write side: the write-combining buffer (WCB) and the write engine
        slot_any = Signal(name="slot_any")
        w_empty = Signal(name="wcb_empty")
        w_busy = Signal(name="wcb_busy")           # closed, going out as a burst
        need_close = Signal(name="wcb_need_close")
        b_out = Signal(range(self.max_writes + 1), name="b_outstanding")
        w_tag = Signal(tag_bits, name="wcb_tag")  # the aligned block of the open buffer
        w_quiet = Signal(name="writes_quiet")       # buffer empty and every B received
        m.d.comb += w_quiet.eq(w_empty & ~w_busy & (b_out == 0))
        # the lines of every write burst in flight (going out or waiting for its B) lie
        # in [wf_lo, wf_hi]; the interval starts again once none is in flight
        wf_any = Signal(name="writes_in_flight")
        wf_lo = Signal(tag_bits, name="writes_lo_tag")
        wf_hi = Signal(tag_bits, name="writes_hi_tag")
        m.d.comb += wf_any.eq(w_busy | (b_out != 0))
        if writers:
            self._write_side(m, ports, writers, reqs, rd_state, pend_any, any_miss, slot_any,
                             w_empty, w_busy, w_tag, need_close, b_out, tag_bits,
                             ones_db, inflight, ap_go, ap_tag, wf_any, wf_lo, wf_hi)
        else:
            m.d.comb += [w_empty.eq(1), w_tag.eq(0), ax["AWVALID"].eq(0), ax["WVALID"].eq(0),
                         ax["AWADDR"].eq(0), ax["AWLEN"].eq(0), ax["WDATA"].eq(0),
                         ax["WSTRB"].eq(0), ax["WLAST"].eq(0), ap_go.eq(0), ap_tag.eq(0)]

        # --- the read engine: issues one AR at a time while fewer than NW bursts are in
        # flight; a demand fill (the lowest port whose pending miss is neither in a way nor
        # in flight) goes first, else a prefetch of the line after the one a port reads.
        if readers:
            rs = [rd_state[ports.index(p)] for p in readers]
            nr = len(rs)
            can_issue = ~arvalid & (fq_n != NW)
            # The memory holds every earlier write to a line once no write burst in flight
            # may hold it (its tag outside [wf_lo, wf_hi]), the open write buffer holds
            # none of it (else: close it), and no write to it is applied at the issuing
            # edge.  Writes to a line in flight wait (see _write_side) until its last beat
            # is in.
            def mem_ok(tag):
                return (~(wf_any & (tag >= wf_lo) & (tag <= wf_hi))
                        & ~(~w_empty & (w_tag == tag)) & ~(ap_go & (ap_tag == tag)))

            need, vict = [], []
            for j, s in enumerate(rs):
                nd = Signal(name=f"rd{j}_need")
                v = Signal(range(2), name=f"rd{j}_victim")
                vok = Signal(name=f"rd{j}_victim_ok")
                if NW == 1:
                    m.d.comb += [v.eq(0), vok.eq(~s.ways[0].busy)]
                else:   # the way q does not come from, else the other one
                    other = Signal(range(2), name=f"rd{j}_other")
                    m.d.comb += other.eq(~s.qway)
                    busy = Array(wy.busy for wy in s.ways)
                    with m.If(~busy[other]):
                        m.d.comb += [v.eq(other), vok.eq(1)]
                    with m.Elif(~busy[s.qway]):
                        m.d.comb += [v.eq(s.qway), vok.eq(1)]
                m.d.comb += nd.eq(s.pend & ~s.serve & ~Cat(
                    *[wy.busy & (wy.tag == s.pend_tag) for wy in s.ways]).any())
                need.append(nd & vok)
                vict.append(v)
            fsel = Signal(range(max(nr, 2)), name="fill_sel")
            for j in reversed(range(nr)):
                with m.If(need[j]):
                    m.d.comb += fsel.eq(j)
            need_any = Signal(name="fill_need")
            m.d.comb += need_any.eq(Cat(*need).any())
            sel_tag = Signal(tag_bits, name="fill_sel_tag")
            sel_way = Signal(range(2), name="fill_sel_way")
            m.d.comb += [sel_tag.eq(Array(s.pend_tag for s in rs)[fsel]),
                         sel_way.eq(Array(vict)[fsel])]
            with m.If(need_any & ~w_empty & (w_tag == sel_tag)):
                m.d.comb += need_close.eq(1)

            # prefetch: port j reads line T (the line of way qway); line T + 1 is fetched
            # into the other way if it is in the same 4 KiB page, not held nor in flight,
            # the other way is not busy, and no miss is pending (demand first)
            pb = 12 - ob - lb                   # lines per 4 KiB page: 2**pb
            pf_ok, pf_tags = [], []
            if NW == 2 and pb > 0:
                for j, s in enumerate(rs):
                    w0, w1 = s.ways
                    q1 = s.qway
                    t = Signal(tag_bits, name=f"rd{j}_cur_tag")
                    nt = Signal(tag_bits, name=f"rd{j}_pf_tag")
                    ok = Signal(name=f"rd{j}_pf_ok")
                    held = Mux(q1, w1.valid | w1.busy, w0.valid | w0.busy)
                    o_busy = Mux(q1, w0.busy, w1.busy)
                    o_has = Mux(q1, w0.valid & (w0.tag == nt), w1.valid & (w1.tag == nt))
                    m.d.comb += [t.eq(Mux(q1, w1.tag, w0.tag)), nt.eq(t + 1)]
                    m.d.comb += ok.eq(held & (t[:pb] != (1 << pb) - 1) & ~o_busy & ~o_has
                                      & mem_ok(nt))
                    pf_ok.append(ok)
                    pf_tags.append(nt)
            pf_go = Signal(name="pf_go")
            psel = Signal(range(max(nr, 2)), name="pf_sel")
            pf_tag = Signal(tag_bits, name="pf_sel_tag")
            if pf_ok:
                for j in reversed(range(nr)):
                    with m.If(pf_ok[j]):
                        m.d.comb += psel.eq(j)
                m.d.comb += [pf_tag.eq(Array(pf_tags)[psel]),
                             pf_go.eq(can_issue & ~pend_any & ~self.flush & Cat(*pf_ok).any())]

            dem_go = Signal(name="fill_go")
            m.d.comb += dem_go.eq(can_issue & need_any & mem_ok(sel_tag))
            iss_port = Signal(range(max(nr, 2)), name="issue_port")
            iss_way = Signal(range(2), name="issue_way")
            iss_tag = Signal(tag_bits, name="issue_tag")
            iss = Signal(name="issue")
            with m.If(dem_go):
                m.d.comb += [iss.eq(1), iss_port.eq(fsel), iss_way.eq(sel_way),
                             iss_tag.eq(sel_tag)]
            with m.Elif(pf_go):
                m.d.comb += [iss.eq(1), iss_port.eq(psel), iss_tag.eq(pf_tag)]
                m.d.comb += iss_way.eq(Array(~s.qway for s in rs)[psel])

            m.d.comb += [ax["ARVALID"].eq(arvalid), ax["ARADDR"].eq(araddr),
                         ax["RREADY"].eq(head_on)]
            with m.If(arvalid & ax["ARREADY"]):
                m.d.sync += arvalid.eq(0)
            # R beats: into the head's way
            pop = Signal(name="rd_pop")
            with m.If(head_on & ax["RVALID"]):
                last = cnt == L - 1
                for j, s in enumerate(rs):
                    for w, wy in enumerate(s.ways):
                        with m.If(wy.streaming):
                            m.d.comb += [wy.wp.addr.eq(cnt), wy.wp.data.eq(ax["RDATA"]),
                                         wy.wp.en.eq(ones_db)]
                            with m.If(last):
                                m.d.sync += [wy.valid.eq(1), wy.busy.eq(0)]
                m.d.sync += cnt.eq(cnt + 1)
                with m.If((ax["RRESP"] != 0) | (ax["RLAST"] != last)):
                    m.d.sync += error.eq(1)
                with m.If(last):
                    m.d.sync += cnt.eq(0)
                    m.d.comb += pop.eq(1)
            with m.If(pop):
                for e in range(NW - 1):
                    m.d.sync += [fq_port[e].eq(fq_port[e + 1]), fq_way[e].eq(fq_way[e + 1])]
            with m.If(iss):
                m.d.sync += [arvalid.eq(1), araddr.eq(Cat(Const(0, ob + lb), iss_tag))]
                for e in range(NW):
                    with m.If(fq_n - pop == e):
                        m.d.sync += [fq_port[e].eq(iss_port), fq_way[e].eq(iss_way)]
                for j, s in enumerate(rs):
                    for w, wy in enumerate(s.ways):
                        with m.If((iss_port == j) & (iss_way == w)):
                            m.d.sync += [wy.valid.eq(0), wy.busy.eq(1), wy.tag.eq(iss_tag)]
            m.d.sync += fq_n.eq(fq_n + iss - pop)
        else:
            m.d.comb += [ax["ARVALID"].eq(0), ax["ARADDR"].eq(0), ax["RREADY"].eq(0)]

        m.d.comb += [
            self.ready.eq(~pend_any & ~slot_any),
            self.idle.eq(~pend_any & ~slot_any & w_quiet & ~fill_busy),
        ]
        with m.If(self.flush):
            m.d.comb += need_close.eq(1)
        return m

    def _write_side(self, m, ports, writers, reqs, rd_state, pend_any, any_miss, slot_any,
                    w_empty, w_busy, w_tag, need_close, b_out, tag_bits,
                    ones_db, inflight, ap_go, ap_tag, wf_any, wf_lo, wf_hi):
        ax = self.axi
        dw, db, L = self.data_width, self.data_width // 8, self.line_beats
        ob, lb = _log2(db), _log2(L)
        lbs = max(lb, 1)

        # one slot per writing port: a write of a core cycle that could not be applied
        # at its sampling edge
        slots = []
        for p in writers:
            a = p.arg
            sl = type("Slot", (), {})()
            sl.v = Signal(name=f"{a.name}{p.k}_slot")
            sl.tag = Signal(tag_bits, name=f"{a.name}{p.k}_slot_tag")
            sl.idx = Signal(lbs, name=f"{a.name}{p.k}_slot_idx")
            sl.data = Signal(dw, name=f"{a.name}{p.k}_slot_data")
            sl.strb = Signal(db, name=f"{a.name}{p.k}_slot_strb")
            slots.append(sl)
        m.d.comb += slot_any.eq(Cat(*[s.v for s in slots]).any())

        # the write to apply this clock: the lowest slot, else the core's first writer
        ap_idx = Signal(lbs, name="ap_idx")
        ap_data = Signal(dw, name="ap_data")
        ap_strb = Signal(db, name="ap_strb")
        ap_req = Signal(name="ap_req")      # there is a write to apply
        ap_can = Signal(name="ap_can")      # the WCB accepts it
        slot_sel = [Signal(name=f"slot_sel{j}") for j in range(len(slots))]
        first = [Signal(name=f"first_writer{j}") for j in range(len(writers))]
        seen = Const(0, 1)
        for j, s in enumerate(slots):
            m.d.comb += slot_sel[j].eq(s.v & ~seen)
            seen = seen | s.v
        seen = Const(0, 1)
        for j, p in enumerate(writers):
            r = reqs[ports.index(p)]
            m.d.comb += first[j].eq(r.wr & ~seen)
            seen = seen | r.wr
        wr_any = seen
        direct = Signal(name="ap_direct")
        m.d.comb += direct.eq(~slot_any & ~pend_any & wr_any & ~any_miss)
        with m.If(slot_any):
            for j, s in enumerate(slots):
                with m.If(slot_sel[j]):
                    m.d.comb += [ap_tag.eq(s.tag), ap_idx.eq(s.idx), ap_data.eq(s.data),
                                 ap_strb.eq(s.strb)]
        with m.Else():
            for j, p in enumerate(writers):
                r = reqs[ports.index(p)]
                with m.If(first[j]):
                    m.d.comb += [ap_tag.eq(r.tag), ap_idx.eq(r.idx), ap_data.eq(r.data),
                                 ap_strb.eq(r.strb)]
        m.d.comb += ap_req.eq((slot_any & ~pend_any) | direct)

        # WCB state: two buffers of L beats; the open one (w_ob) holds the window
        # [w_start, w_start + w_count) of the aligned block w_tag, while the other, once
        # closed, goes out as a burst (w_busy).  Closing switches buffers, so writes go on
        # while a burst goes out; a write the closing buffer could not take at the closing
        # edge starts the new window.
        close = Signal(name="wcb_close")
        w_ob = Signal(name="wcb_open_buf")
        w_start = Signal(lbs, name="wcb_start")
        w_count = Signal(lb + 1, name="wcb_count")
        w_end = Signal(lb + 1, name="wcb_end")
        m.d.comb += [w_end.eq(w_start + w_count), w_empty.eq(w_count == 0)]
        fresh = Signal(name="ap_fresh")     # a beat new to the window
        new_win = Signal(name="ap_new_window")  # the write starts a window
        m.d.comb += new_win.eq(w_empty | close)
        if lb:
            in_window = (ap_tag == w_tag) & (ap_idx >= w_start) & (ap_idx <= w_end)
            m.d.comb += fresh.eq(new_win | (ap_idx == w_end))
        else:                               # one-beat bursts: merge into the same beat
            in_window = ap_tag == w_tag
            m.d.comb += fresh.eq(new_win)
        wcb_can = Signal(name="wcb_can")
        m.d.comb += wcb_can.eq(w_empty | in_window)
        # a write to the line streaming in waits for the fill's end (its later beats would
        # overwrite it in the line memory, and that memory port is the fill's meanwhile)
        m.d.comb += ap_can.eq((wcb_can | close) & ~inflight(ap_tag))
        m.d.comb += ap_go.eq(ap_can & ((slot_any & ~pend_any) | (direct & self.run)))
        ap_buf = Signal(name="ap_buf")      # the buffer the write goes into
        m.d.comb += ap_buf.eq(w_ob ^ close)

        def buf_addr(buf, idx):
            return Cat(idx[:lb], buf) if lb else buf

        data_mem = Memory(shape=dw, depth=2 * L, init=[])
        strb_mem = Memory(shape=db, depth=2 * L, init=[])
        m.submodules.wcb_data = data_mem
        m.submodules.wcb_strb = strb_mem
        dwp = data_mem.write_port(granularity=8)
        swp = strb_mem.write_port(granularity=1)
        drp = data_mem.read_port(domain="sync")
        srp = strb_mem.read_port(domain="sync")
        with m.If(ap_go):
            m.d.comb += [dwp.addr.eq(buf_addr(ap_buf, ap_idx)), dwp.data.eq(ap_data),
                         dwp.en.eq(ap_strb), swp.addr.eq(buf_addr(ap_buf, ap_idx)),
                         swp.data.eq(Mux(fresh, ap_strb, ones_db)),
                         swp.en.eq(Mux(fresh, ones_db, ap_strb))]
            with m.If(new_win):
                m.d.sync += [w_tag.eq(ap_tag), w_start.eq(ap_idx), w_count.eq(1)]
            with m.Elif(ap_idx == w_end):
                m.d.sync += w_count.eq(w_count + 1)
            # keep every line buffer that holds this beat up to date
            for s in rd_state.values():
                for wy in s.ways:
                    with m.If(wy.valid & (wy.tag == ap_tag)):
                        m.d.comb += [wy.wp.addr.eq(ap_idx), wy.wp.data.eq(ap_data),
                                     wy.wp.en.eq(ap_strb)]
        # slots: cleared when applied, filled at a sampling edge
        with m.If(slot_any & ~pend_any & ap_can):
            for j, s in enumerate(slots):
                with m.If(slot_sel[j]):
                    m.d.sync += s.v.eq(0)
        with m.If(self.run):
            for j, p in enumerate(writers):
                r = reqs[ports.index(p)]
                s = slots[j]
                taken = first[j] & direct & ap_can
                with m.If(r.wr & ~taken):
                    m.d.sync += [s.v.eq(1), s.tag.eq(r.tag), s.idx.eq(r.idx),
                                 s.data.eq(r.data), s.strb.eq(r.strb)]

        # close the buffer: a write it cannot take, a line fill, or flush
        with m.If(ap_req & ~wcb_can):
            m.d.comb += need_close.eq(1)
        m.d.comb += close.eq(need_close & ~w_busy & ~w_empty & (b_out != self.max_writes))

        awvalid = Signal(name="awvalid")
        awaddr = Signal(ADDR_BITS, name="awaddr")
        awlen = Signal(8, name="awlen")
        wvalid = Signal(name="wvalid")
        wlast = Signal(name="wlast")
        w_ptr = Signal(lb + 1, name="w_ptr")
        w_left = Signal(lb + 1, name="w_left")
        m.d.comb += [ax["AWVALID"].eq(awvalid), ax["AWADDR"].eq(awaddr), ax["AWLEN"].eq(awlen),
                     ax["WVALID"].eq(wvalid), ax["WLAST"].eq(wlast),
                     ax["WDATA"].eq(drp.data), ax["WSTRB"].eq(srp.data)]
        with m.If(close):
            m.d.sync += [w_busy.eq(1), awvalid.eq(1),
                         awaddr.eq(Cat(Const(0, ob), w_start[:lb], w_tag)),
                         awlen.eq(w_count - 1), w_ptr.eq(w_start), w_left.eq(w_count),
                         w_ob.eq(~w_ob)]
            with m.If(~ap_go):
                m.d.sync += w_count.eq(0)
            with m.If(wf_any):
                with m.If(w_tag < wf_lo):
                    m.d.sync += wf_lo.eq(w_tag)
                with m.If(w_tag > wf_hi):
                    m.d.sync += wf_hi.eq(w_tag)
            with m.Else():
                m.d.sync += [wf_lo.eq(w_tag), wf_hi.eq(w_tag)]
        with m.If(awvalid & ax["AWREADY"]):
            m.d.sync += awvalid.eq(0)
        # W beats: the buffer's read ports are enabled only when the W register is free,
        # so WDATA/WSTRB (their outputs) hold while WVALID && !WREADY
        w_load = Signal(name="w_load")
        m.d.comb += w_load.eq(w_busy & (w_left != 0) & (~wvalid | ax["WREADY"]))
        m.d.comb += [drp.addr.eq(buf_addr(~w_ob, w_ptr)), srp.addr.eq(buf_addr(~w_ob, w_ptr)),
                     drp.en.eq(w_load),
                     srp.en.eq(w_load)]
        with m.If(w_load):
            m.d.sync += [w_ptr.eq(w_ptr + 1), w_left.eq(w_left - 1), wvalid.eq(1),
                         wlast.eq(w_left == 1)]
        with m.Elif(wvalid & ax["WREADY"]):
            m.d.sync += [wvalid.eq(0), wlast.eq(0)]
        with m.If(w_busy & (w_left == 0) & ~wvalid & ~awvalid):
            m.d.sync += w_busy.eq(0)
        # B responses outstanding: one per closed burst
        b_in = ax["BVALID"]
        with m.If(close & ~b_in):
            m.d.sync += b_out.eq(b_out + 1)
        with m.Elif(~close & b_in & (b_out != 0)):
            m.d.sync += b_out.eq(b_out - 1)
