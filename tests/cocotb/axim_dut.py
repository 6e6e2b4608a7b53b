"""The design under test of the AXI4 master adapter tests (module ``axim_dut``), and the
Python model its checks are derived from.

One Verilog build holds several independent *channels*; each is an
:class:`~hls.memory.AxiMasterAdapter` (its own ``m_axi_<channel>_*`` master) and a fake
accelerator core under ``EnableInserter({"sync": run})``, wrapped the way a top should
wrap them: ``start`` (held by the testbench) starts the core; when the core finishes, the
wrapper raises ``flush`` and waits for the adapter's ``idle`` (every B response) before
``done``.  ``cycles`` counts clock cycles from start to done.

* *program* channels (``f32``, ``f512``, ``f64l1``): the core runs a fixed access program
  (:func:`program`) on every port of the channel's arguments, one instruction per core
  cycle, with the core's fixed-latency assumption: the value read in core cycle ``t`` is
  on ``q`` in core cycle ``t + 1``, where the core compares it with the expected value of
  the Python model (counting ``checks`` and ``mismatch``, summing ``checksum``) and may use
  it combinationally as an address or a write operand (pointer chasing, read-modify-write).
* *sequential* channels (``p32``, ``p64``, ``p512``, ``p32l1``, ``p32l64``, and ``p64np``
  without prefetch): the core reads words
  ``0..n-1`` of one argument, one per core cycle, and checks ``q == pattern(i)``; the
  testbench measures cycles per element.
* *vadd* channels (``v64``): the core reads ``x[i]`` and ``y[i]`` in core cycle ``i`` and
  writes ``z[i] = x[i] + y[i]`` in core cycle ``i + 1``, all three arguments on one bundle
  (Vitis's vadd); the testbench checks ``z`` in the RAM and measures cycles per element.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from amaranth.back import verilog
from amaranth.hdl import (
    Array, ClockDomain, Elaboratable, EnableInserter, Module, Mux, Signal,
)
from amaranth.lib.memory import Memory

from hls.memory import AxiMasterAdapter, MasterArg

MODULE = "axim_dut"
NONE, READ, WRITE = 0, 1, 2


def arg(name, word_bytes, depth, nports=1, **kw) -> MasterArg:
    return MasterArg(name, word_bytes, depth.bit_length(), nports, **kw)


@dataclass(frozen=True)
class ChannelCfg:
    name: str
    data_width: int
    line_beats: int
    args: tuple[MasterArg, ...]
    kind: str = "program"           # "program" | "seq" | "vadd"
    seq_len: int = 0
    seed: int = 1
    prefetch: bool = True

    def depth(self, a: MasterArg) -> int:
        return 1 << (a.addr_bits - 1)


_FARGS = (arg("a", 4, 1024, 2), arg("b", 2, 512), arg("c", 1, 256, writeonly=True))
_E = arg("e", 8, 256, readonly=True)
_X = arg("x", 4, 4096, readonly=True)
_VADD = (_X, arg("y", 4, 4096, readonly=True), arg("z", 4, 4096, writeonly=True))
SEQ_LEN = 4096

CHANNELS: tuple[ChannelCfg, ...] = (
    ChannelCfg("f32", 32, 16, _FARGS, seed=11),
    ChannelCfg("f512", 512, 4, _FARGS + (_E,), seed=12),
    ChannelCfg("f64l1", 64, 1, _FARGS + (_E,), seed=13),
    ChannelCfg("p32", 32, 16, (_X,), "seq", SEQ_LEN),
    ChannelCfg("p64", 64, 16, (_X,), "seq", SEQ_LEN),
    ChannelCfg("p64np", 64, 16, (_X,), "seq", SEQ_LEN, prefetch=False),
    ChannelCfg("p512", 512, 16, (_X,), "seq", SEQ_LEN),
    ChannelCfg("p32l1", 32, 1, (_X,), "seq", SEQ_LEN),
    ChannelCfg("p32l64", 32, 64, (_X,), "seq", SEQ_LEN),
    ChannelCfg("v64", 64, 16, _VADD, "vadd", SEQ_LEN),
)


def pattern(i: int) -> int:
    """Word ``i`` of the sequential channels' array."""
    return (i * 0x9E3779B1 + 0x1234567) & 0xFFFFFFFF


# ----------------------------------------------------------------------------- programs

@dataclass
class Acc:
    """One port's access in one core cycle.  ``amode``: address = ``aimm`` (0) or
    ``(q[asrc] + aimm) & (depth - 1)`` (1); ``dmode``: data = ``dimm`` (0) or
    ``q[dsrc] + dimm`` (1), where ``q[s]`` is the low 32 bits of the word port ``s`` read
    in the previous core cycle."""
    op: int = NONE
    amode: int = 0
    asrc: int = 0
    aimm: int = 0
    dmode: int = 0
    dsrc: int = 0
    dimm: int = 0
    we: int = 0
    exp: int = 0


@dataclass
class Program:
    ports: list[tuple[MasterArg, int]]
    cycles: list[list[Acc]]
    init: dict[str, bytes]
    final: dict[str, bytes]
    reads: int = 0
    checksum: int = 0
    layout: list[tuple[str, int, int]] = field(default_factory=list)  # (field, port, width)

    def rom(self) -> tuple[int, list[int]]:
        """(word width, ROM words): the fields of each port packed in ``layout`` order."""
        words = []
        width = sum(w for _f, _p, w in self.layout)
        for cyc in self.cycles:
            v, off = 0, 0
            for f, p, w in self.layout:
                v |= (getattr(cyc[p], f) & ((1 << w) - 1)) << off
                off += w
            words.append(v)
        return width, words


def _layout(ports) -> list[tuple[str, int, int]]:
    out = []
    for p, (a, _k) in enumerate(ports):
        out += [("op", p, 2), ("amode", p, 1), ("asrc", p, 3), ("aimm", p, a.addr_bits),
                ("dmode", p, 1), ("dsrc", p, 3), ("dimm", p, 8 * a.word_bytes),
                ("we", p, a.word_bytes), ("exp", p, 8 * a.word_bytes)]
    return out


def q32(v: int, wb: int) -> int:
    return v & 0xFFFFFFFF if wb >= 4 else v


def program(cfg: ChannelCfg) -> Program:
    """The access program of a program channel and its model results (deterministic)."""
    rng = random.Random(cfg.seed)
    ports = [(a, k) for a in cfg.args for k in range(a.nports)]
    pidx = {f"{a.name}{k}": i for i, (a, k) in enumerate(ports)}
    mem = {a.name: [rng.getrandbits(8 * a.word_bytes) for _ in range(cfg.depth(a))]
           for a in cfg.args}
    init = {a.name: b"".join(w.to_bytes(a.word_bytes, "little") for w in mem[a.name])
            for a in cfg.args}
    prog = Program(ports, [], init, {}, layout=_layout(ports))
    prev_q: dict[int, int] = {}     # port -> word it read in the previous core cycle

    def emit(**accs):
        """One core cycle; ``accs``: port name -> Acc (addresses/data not resolved)."""
        cyc = [Acc() for _ in ports]
        reads, writes = {}, []
        for name, acc in accs.items():
            p = pidx[name]
            a, _k = ports[p]
            depth = cfg.depth(a)
            addr = acc.aimm % depth if not acc.amode else (
                (q32(prev_q[acc.asrc], ports[acc.asrc][0].word_bytes) + acc.aimm) & (depth - 1))
            if not acc.amode:
                acc.aimm = addr
            if acc.op == READ:
                assert not a.writeonly
                reads[p] = mem[a.name][addr]
                acc.exp = reads[p]
            elif acc.op == WRITE:
                assert not a.readonly and acc.we
                mask = (1 << 8 * a.word_bytes) - 1
                data = acc.dimm & mask if not acc.dmode else (
                    (q32(prev_q[acc.dsrc], ports[acc.dsrc][0].word_bytes) + acc.dimm) & mask)
                writes.append((a, addr, data, acc.we))
            cyc[p] = acc
        seen = set()
        for a, addr, data, we in writes:     # after the reads: read-first
            assert (a.name, addr) not in seen, "two writes to one word in one cycle"
            seen.add((a.name, addr))
            old = mem[a.name][addr]
            for byte in range(a.word_bytes):
                if we >> byte & 1:
                    bm = 0xFF << 8 * byte
                    old = (old & ~bm) | (data & bm)
            mem[a.name][addr] = old
        for p, v in reads.items():
            prog.reads += 1
            prog.checksum = (prog.checksum + q32(v, ports[p][0].word_bytes)
                             + (v >> 32 if ports[p][0].word_bytes == 8 else 0)) & 0xFFFFFFFF
        prev_q.clear()
        prev_q.update(reads)
        prog.cycles.append(cyc)

    R = lambda addr, **kw: Acc(READ, aimm=addr, **kw)                     # noqa: E731
    W = lambda addr, data, we, **kw: Acc(WRITE, aimm=addr, dimm=data, we=we, **kw)  # noqa: E731
    names = [n for n in pidx]
    has_e = "e0" in pidx
    full = {a.name: (1 << a.word_bytes) - 1 for a in cfg.args}

    # 1. sequential reads (a ascending on a0, descending on a1, b and e ascending)
    for i in range(300):
        accs = dict(a0=R(i), a1=R(1023 - i), b0=R(i))
        if has_e:
            accs["e0"] = R(i)
        emit(**accs)
    emit()
    # 2. strided reads
    for i in range(64):
        emit(a0=R(i * 17), a1=R(i * 64 + 3), b0=R(i * 33))
    # 3. read-modify-write, pipelined (read a[i] on a0, write a[i-1] = q + 3 on a1), and
    #    b alternating read / write back on its single port
    for i in range(160):
        accs = dict(a0=R(100 + i))
        if i:
            accs["a1"] = W(100 + i - 1, 3, full["a"], dmode=1, dsrc=pidx["a0"])
        accs["b0"] = R(200 + i // 2) if i % 2 == 0 else W(200 + i // 2, 1, full["b"], dmode=1,
                                                          dsrc=pidx["b0"])
        emit(**accs)
    # 4. writes (partial byte enables) then read back
    for i in range(80):
        emit(a0=W(500 + i, rng.getrandbits(32), rng.randrange(1, 16)),
             c0=W(i, rng.getrandbits(8), 1))
    for i in range(80):
        emit(a1=R(500 + i), b0=W(300 + i, rng.getrandbits(16), rng.randrange(1, 4)))
    for i in range(80):
        emit(b0=R(300 + i))
    # 5. read and write of one word in one cycle (read-first), then read it again
    for _ in range(30):
        x = rng.randrange(1024)
        emit(a0=R(x), a1=W(x, rng.getrandbits(32), full["a"]))
        emit(a1=R(x))
    # 6. several writes in one cycle
    for _ in range(30):
        x, y = rng.sample(range(1024), 2)
        emit(a0=W(x, rng.getrandbits(32), rng.randrange(1, 16)),
             a1=W(y, rng.getrandbits(32), full["a"]),
             b0=W(rng.randrange(512), rng.getrandbits(16), 3),
             c0=W(rng.randrange(256), rng.getrandbits(8), 1))
        emit(a0=R(x), a1=R(y))
    # 7. indirect reads: addresses from the value read in the previous cycle
    for i in range(60):
        emit(a0=R(i * 7))
        emit(a1=R(rng.randrange(1024), amode=1, asrc=pidx["a0"]),
             b0=R(rng.randrange(512), amode=1, asrc=pidx["a0"]))
    chase = pidx["a1"]
    emit(a1=R(5))
    for _ in range(40):                     # pointer chasing on one port
        emit(a1=R(rng.randrange(1024), amode=1, asrc=chase))
    # 8. random mix, small windows (hits, line conflicts, write/read aliasing)
    win = {a.name: rng.randrange(cfg.depth(a) - 64) for a in cfg.args}
    for _ in range(500):
        accs, written = {}, set()
        for n in names:
            a, _k = ports[pidx[n]]
            r = rng.random()
            if r < 0.3:
                continue
            local = rng.random() < 0.8
            addr = win[a.name] + rng.randrange(64) if local else rng.randrange(cfg.depth(a))
            srcs = [p for p in prev_q]
            kw = {}
            if srcs and rng.random() < 0.15:
                kw = dict(amode=1, asrc=rng.choice(srcs))
            can_read, can_write = not a.writeonly, not a.readonly
            if can_read and (not can_write or r < 0.7):
                accs[n] = R(addr, **kw)
            elif can_write:
                if kw:  # resolve the address now to keep writes to distinct words
                    continue
                if (a.name, addr) in written:
                    continue
                written.add((a.name, addr))
                dkw = dict(dmode=1, dsrc=rng.choice(srcs)) if srcs and rng.random() < 0.3 else {}
                accs[n] = W(addr, rng.getrandbits(8 * a.word_bytes),
                            rng.randrange(1, full[a.name] + 1), **dkw)
        if rng.random() < 0.05:
            for nn in rng.sample(names, 1):
                win[ports[pidx[nn]][0].name] = rng.randrange(cfg.depth(ports[pidx[nn]][0]) - 64)
        emit(**accs)
    # 9. sequential streams through several lines (prefetched) on a0 and b0, with writes
    #    on a1 ahead of a0's stream, into the next line (the prefetched one, maybe still in
    #    flight), which a0 reads back later
    wpl = max(1, cfg.line_beats * cfg.data_width // 32)      # words of a per line
    ahead = wpl // 2 + 1
    for i in range(6 * wpl):
        accs = dict(a0=R(600 + i), b0=R(100 + i))
        if i % 3 == 0 and 600 + i + ahead < 1024:
            accs["a1"] = W(600 + i + ahead, rng.getrandbits(32), full["a"])
        emit(**accs)
    # 10. the last cycles write (they must reach memory before done)
    for i in range(20):
        emit(a0=W(900 + i, i, full["a"]), a1=W(950 + i, i, 0x3), b0=W(400 + i, i, 2),
             c0=W(200 + i, i, 1))
    prog.final = {a.name: b"".join(w.to_bytes(a.word_bytes, "little") for w in mem[a.name])
                  for a in cfg.args}
    return prog


# ----------------------------------------------------------------------------- cores

class _Core(Elaboratable):
    """What the channel reads of every core: ``start`` (in), ``fin`` (its last cycle), the
    counters of checked reads and mismatches, and the checksum of the values read."""

    def __init__(self):
        self.start = Signal(name="core_start")
        self.fin = Signal(name="core_fin")
        self.mismatch = Signal(16, name="mismatch")
        self.checks = Signal(32, name="checks")
        self.checksum = Signal(32, name="checksum")


class ProgramCore(_Core):
    """Runs :class:`Program` on ``ports`` (the adapter's :class:`BramPort` objects)."""

    def __init__(self, prog: Program, ports):
        super().__init__()
        self.prog = prog
        self.ports = ports

    def elaborate(self, platform):
        m = Module()
        prog = self.prog
        n = len(prog.cycles)
        width, words = prog.rom()
        m.submodules.rom = rom = Memory(shape=width, depth=n, init=words)
        rp = rom.read_port(domain="comb")
        busy = Signal(name="busy")
        pc = Signal(range(n + 1), name="pc")
        m.d.comb += [rp.addr.eq(pc), self.fin.eq(busy & (pc == n))]
        active = busy & (pc < n)
        fields, off = {}, 0
        for f, p, w in prog.layout:
            fields[(f, p)] = rp.data[off:off + w]
            off += w
        q32s = Array(Signal(32, name=f"q32_{i}") for i in range(len(self.ports)))
        for i, bp in enumerate(self.ports):
            m.d.comb += q32s[i].eq(bp.q[:32])
        checks, mis, csum = [], [], []
        for p, bp in enumerate(self.ports):
            a = bp.arg
            F = lambda f: fields[(f, p)]  # noqa: E731
            depth_mask = (1 << (a.addr_bits - 1)) - 1
            op = F("op")
            m.d.comb += [
                bp.ce.eq(active & (op != NONE)),
                bp.we.eq(Mux(op == WRITE, F("we"), 0)),
                bp.address.eq(Mux(F("amode"), (q32s[F("asrc")] + F("aimm")) & depth_mask,
                               F("aimm"))),
                bp.d.eq(Mux(F("dmode"), q32s[F("dsrc")] + F("dimm"), F("dimm"))),
            ]
            exp_v = Signal(name=f"exp_v{p}")
            exp = Signal(8 * a.word_bytes, name=f"exp{p}")
            with m.If(busy):
                m.d.sync += [exp_v.eq(active & (op == READ)), exp.eq(F("exp"))]
            with m.Else():
                m.d.sync += exp_v.eq(0)
            checks.append(exp_v)
            mis.append(exp_v & (bp.q != exp))
            val = bp.q[:32] + (bp.q[32:] if a.word_bytes == 8 else 0)
            csum.append(Mux(exp_v, val, 0))
        with m.If(~busy & self.start):
            m.d.sync += [busy.eq(1), pc.eq(0)]
        with m.If(busy):
            m.d.sync += [
                pc.eq(pc + (pc < n)),
                self.checks.eq(self.checks + sum(checks)),
                self.mismatch.eq(self.mismatch + sum(mis)),
                self.checksum.eq(self.checksum + sum(csum)),
            ]
            with m.If(pc == n):
                m.d.sync += busy.eq(0)
        return m


class SeqCore(_Core):
    """Reads words ``0..n-1`` of its one port, one per core cycle; checks each."""

    def __init__(self, n: int, port):
        super().__init__()
        self.n = n
        self.port = port

    def elaborate(self, platform):
        m = Module()
        bp, n = self.port, self.n
        busy = Signal(name="busy")
        i = Signal(range(n + 1), name="i")
        exp_v = Signal(name="exp_v")
        exp = Signal(32, name="exp")
        m.d.comb += [self.fin.eq(busy & (i == n)), bp.ce.eq(busy & (i < n)), bp.address.eq(i),
                     bp.we.eq(0), bp.d.eq(0)]
        with m.If(~busy & self.start):
            m.d.sync += [busy.eq(1), i.eq(0)]
        with m.If(busy):
            m.d.sync += [i.eq(i + (i < n)), exp_v.eq(i < n),
                         exp.eq((i * 0x9E3779B1 + 0x1234567)[:32])]
            with m.If(exp_v):
                m.d.sync += [self.checks.eq(self.checks + 1),
                             self.checksum.eq(self.checksum + bp.q),
                             self.mismatch.eq(self.mismatch + (bp.q != exp))]
            with m.If(i == n):
                m.d.sync += busy.eq(0)
        return m


class VaddCore(_Core):
    """``z[i] = x[i] + y[i]`` for ``i < n``: reads ``x[i]``, ``y[i]`` in core cycle ``i``,
    writes ``z[i]`` in core cycle ``i + 1`` from the values on ``q``."""

    def __init__(self, n: int, px, py, pz):
        super().__init__()
        self.n = n
        self.px, self.py, self.pz = px, py, pz

    def elaborate(self, platform):
        m = Module()
        n = self.n
        busy = Signal(name="busy")
        i = Signal(range(n + 2), name="i")
        m.d.comb += self.fin.eq(busy & (i == n + 1))
        for bp in (self.px, self.py):
            m.d.comb += [bp.ce.eq(busy & (i < n)), bp.address.eq(i), bp.we.eq(0), bp.d.eq(0)]
        pz = self.pz
        wr = Signal(name="wr")
        m.d.comb += [wr.eq(busy & (i >= 1) & (i <= n)), pz.ce.eq(wr), pz.address.eq(i - 1),
                     pz.we.eq(Mux(wr, 0xF, 0)), pz.d.eq(self.px.q + self.py.q)]
        with m.If(~busy & self.start):
            m.d.sync += [busy.eq(1), i.eq(0)]
        with m.If(busy):
            m.d.sync += i.eq(i + (i <= n))
            with m.If(wr):
                m.d.sync += [self.checks.eq(self.checks + 1),
                             self.checksum.eq(self.checksum + pz.d)]
            with m.If(i == n + 1):
                m.d.sync += busy.eq(0)
        return m


class Channel(Elaboratable):
    """Adapter + core under EnableInserter + the done/flush handshake of a top."""

    def __init__(self, cfg: ChannelCfg):
        self.cfg = cfg
        self.adapter = AxiMasterAdapter(cfg.name, cfg.args, data_width=cfg.data_width,
                                        line_beats=cfg.line_beats, prefetch=cfg.prefetch)
        ports = self.adapter.flat_ports()
        if cfg.kind == "program":
            self.core = ProgramCore(program(cfg), ports)
        elif cfg.kind == "vadd":
            self.core = VaddCore(cfg.seq_len, *ports)
        else:
            self.core = SeqCore(cfg.seq_len, ports[0])
        c = cfg.name
        self.start = Signal(name=f"{c}_start")
        self.done = Signal(name=f"{c}_done")
        self.cycles = Signal(32, name=f"{c}_cycles")
        self.mismatch = Signal(16, name=f"{c}_mismatch")
        self.checks = Signal(32, name=f"{c}_checks")
        self.checksum = Signal(32, name=f"{c}_checksum")
        self.error = Signal(name=f"{c}_error")

    def ports(self) -> list[Signal]:
        ad = self.adapter
        return [self.start, self.done, self.cycles, self.mismatch, self.checks,
                self.checksum, self.error, *ad.base.values(), *ad.axi_ports()]

    def elaborate(self, platform):
        m = Module()
        ad, core = self.adapter, self.core
        m.submodules.adapter = ad
        run = Signal(name="run")
        m.d.comb += [run.eq(ad.ready), ad.run.eq(run)]   # the AND of every adapter's ready
        m.submodules.core = EnableInserter({"sync": run})(core)
        m.d.comb += [self.mismatch.eq(core.mismatch), self.checks.eq(core.checks),
                     self.checksum.eq(core.checksum), self.error.eq(ad.error)]
        with m.FSM(name="top"):
            with m.State("IDLE"):
                m.d.comb += core.start.eq(self.start)
                with m.If(run & self.start):      # the core takes start in a core cycle
                    m.next = "BUSY"
            with m.State("BUSY"):
                m.d.sync += self.cycles.eq(self.cycles + 1)
                with m.If(run & core.fin):        # the core's last cycle has completed
                    m.next = "FLUSH"
            with m.State("FLUSH"):
                m.d.sync += self.cycles.eq(self.cycles + 1)
                m.d.comb += ad.flush.eq(1)
                with m.If(ad.idle):               # every write has its B response
                    m.next = "DONE"
            with m.State("DONE"):
                m.d.comb += self.done.eq(1)
        return m


class AximDut(Elaboratable):
    def __init__(self, channels=CHANNELS):
        self.ap_clk = Signal(name="ap_clk")
        self.ap_rst_n = Signal(name="ap_rst_n")
        self.channels = [Channel(c) for c in channels]

    def ports(self) -> list[Signal]:
        return [self.ap_clk, self.ap_rst_n] + [s for c in self.channels for s in c.ports()]

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = cd = ClockDomain("sync")
        m.d.comb += [cd.clk.eq(self.ap_clk), cd.rst.eq(~self.ap_rst_n)]
        for c in self.channels:
            m.submodules[c.cfg.name] = c
        return m


def dut_verilog(channels=CHANNELS) -> str:
    dut = AximDut(channels)
    return verilog.convert(dut, name=MODULE, ports=dut.ports(), emit_src=False)


__all__ = ["CHANNELS", "MODULE", "AximDut", "ChannelCfg", "dut_verilog", "pattern", "program"]
