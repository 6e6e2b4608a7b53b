"""The AXI4-Lite control slave ``s_axi_control`` of an Alveo (Vitis) RTL kernel.

Register map (:func:`register_map`), the single source of truth for this RTL, the C header
and ``kernel.xml`` (:mod:`hls.package`).  It follows the ``x<kernel>_hw.h`` headers that
Vitis HLS writes into ``solution/impl/misc/drivers/<kernel>/src/`` (checked against many
published headers of Vivado HLS 2019.x and Vitis HLS 2020-2024)::

    0x00  control     bit0 ap_start     R/W, set by a host write of 1, cleared when the kernel
                                         raises ap_ready unless auto_restart (COH)
                      bit1 ap_done      R, set by the kernel's ap_done, clear-on-read (COR)
                      bit2 ap_idle      R, the kernel's ap_idle (registered)
                      bit3 ap_ready     R, set by the kernel's ap_ready, clear-on-read
                      bit7 auto_restart R/W
                      bit9 interrupt    R, the ``interrupt`` output (Vitis HLS 2022+)
    0x04  GIE         bit0 global interrupt enable
    0x08  IER         bit0 ap_done interrupt enable, bit1 ap_ready interrupt enable
    0x0C  ISR         bit0 ap_done, bit1 ap_ready; set by the event when enabled in IER,
                      toggle-on-write (TOW): writing 1 to a bit flips it
    0x10  ap_return   only when the function returns a value (read-only, latched on
                      ap_done); ceil(width/32) words, then one reserved word
    ....  arguments   in C argument order; each takes ceil(width/32) data words (low word
                      first) then one reserved word: a 32-bit scalar 8 bytes, a 64-bit
                      scalar or a pointer (the m_axi byte offset, 64 bits) 12 bytes

E.g. ``int f(int *src, int num)`` gives ap_return 0x10, src 0x18/0x1c (0x20 reserved),
num 0x24 (0x28 reserved) -- exactly Vitis HLS's ``XAVERAGE_FLOAT_CONTROL_ADDR_*`` layout;
``void vadd(int*, int*, int*, int)`` gives 0x10, 0x1c, 0x28, 0x34, the offsets of the
``kernel.xml`` Vitis writes for its hello-world example.

``interrupt = GIE & |(ISR & IER)``; ISR bits are only set while enabled in IER, so this
equals ``GIE & |ISR`` as in Vitis's ``int_interrupt``.

Protocol: one outstanding transaction per direction, as Vitis's slave.  The AW and W
channels are accepted independently, in either order or together (each is buffered once
and the write takes effect when both are present); no new AW/W is accepted while the B
response waits for BREADY.  A read is accepted when no R response is pending; RVALID and
RDATA are held until RREADY.  BRESP/RRESP are always OKAY.  Addresses are decoded on
whole 32-bit words (the two low address bits are ignored, as Vitis does); reads of
unmapped or reserved words return 0 and writes to them are ignored.  Clear-on-read side
effects happen at the AR handshake, so a kernel event in the same cycle wins and is seen
by the next read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..errors import RTLError
from ..interface import CType, TopInterface

__all__ = [
    "Reg", "register_map", "control_addr_width", "AxiLiteControl",
    "ADDR_AP_CTRL", "ADDR_GIE", "ADDR_IER", "ADDR_ISR", "ADDR_ARGS",
    "AP_START", "AP_DONE", "AP_IDLE", "AP_READY", "AUTO_RESTART", "CTRL_INTERRUPT",
]

ADDR_AP_CTRL = 0x00
ADDR_GIE = 0x04
ADDR_IER = 0x08
ADDR_ISR = 0x0C
ADDR_ARGS = 0x10

#: bits of the control register at 0x00
AP_START = 1 << 0
AP_DONE = 1 << 1
AP_IDLE = 1 << 2
AP_READY = 1 << 3
AUTO_RESTART = 1 << 7
CTRL_INTERRUPT = 1 << 9

#: width in bits of a pointer argument's register (the 64-bit m_axi byte offset)
POINTER_BITS = 64

_KINDS = ("ctrl", "gie", "ier", "isr", "return", "scalar", "pointer")


@dataclass(frozen=True, slots=True)
class Reg:
    """One register of the control map.

    ``width`` is in bits; the register occupies ``words`` consecutive 32-bit words from
    ``offset`` (low word first).  Argument and return registers are followed by one
    reserved word (``span`` counts it).  ``access`` is ``"RW"``, ``"R"`` or ``"RW/TOW"``
    (the ISR); the bit-level behaviour of the control word is in ``description``.
    """

    name: str
    offset: int
    width: int
    access: str
    description: str
    kind: str = "scalar"          # one of _KINDS
    arg_index: int | None = None  # C argument position (scalar/pointer registers)
    signed: bool = False          # informative (C type in kernel.xml/host code)
    elem_bytes: int = 0           # pointers: bytes of one pointed-to element
    #: the declared C type (pointers: of one element; None: unknown, see
    #: hls.interface.CType); informative, for kernel.xml and the host code
    ctype: CType | None = None

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"Reg kind must be one of {_KINDS}, not {self.kind!r}")
        if self.offset % 4:
            raise ValueError(f"Reg offset must be word aligned, not {self.offset:#x}")
        if self.width < 1:
            raise ValueError(f"Reg width must be positive, not {self.width}")

    @property
    def words(self) -> int:
        return (self.width + 31) // 32

    @property
    def is_arg(self) -> bool:
        return self.kind in ("scalar", "pointer")

    @property
    def span(self) -> int:
        """Bytes taken in the map, the trailing reserved word included."""
        return 4 * self.words + (4 if self.kind in ("return", "scalar", "pointer") else 0)


_CTRL_DESC = ("Control signals: bit0 ap_start (R/W, COH), bit1 ap_done (R, COR), "
              "bit2 ap_idle (R), bit3 ap_ready (R, COR), bit7 auto_restart (R/W), "
              "bit9 interrupt (R)")


def register_map(interface: TopInterface) -> list[Reg]:
    """The Vitis HLS control register map of ``interface`` (see module docstring).

    Arguments are the top's scalars and pointer arguments (memories with an
    ``arg_index``; globals of a whole-program top and AXI4-Stream arguments have no
    register), in C argument order.  A pointer argument's register is the 64-bit byte offset of its buffer."""
    regs = [
        Reg("ap_ctrl", ADDR_AP_CTRL, 32, "RW", _CTRL_DESC, kind="ctrl"),
        Reg("gie", ADDR_GIE, 1, "RW", "Global Interrupt Enable: bit0", kind="gie"),
        Reg("ier", ADDR_IER, 2, "RW",
            "IP Interrupt Enable: bit0 ap_done, bit1 ap_ready", kind="ier"),
        Reg("isr", ADDR_ISR, 2, "RW/TOW",
            "IP Interrupt Status (toggle-on-write): bit0 ap_done, bit1 ap_ready", kind="isr"),
    ]
    off = ADDR_ARGS
    if interface.return_width:
        r = Reg("ap_return", off, interface.return_width, "R",
                f"Data signal of ap_return ({interface.return_width} bits)", kind="return",
                signed=interface.return_signed, ctype=interface.return_ctype)
        regs.append(r)
        off += r.span
    args: list[tuple[int, Reg]] = []
    for s in interface.scalars:
        args.append((s.arg_index, Reg(s.name, 0, s.width, "RW",
                                      f"Data signal of {s.name} ({s.width} bits)",
                                      kind="scalar", arg_index=s.arg_index, signed=s.signed,
                                      ctype=s.ctype)))
    for m in interface.memories:
        if m.arg_index is None or m.stream:     # AXI4-Stream arguments have no register
            continue
        args.append((m.arg_index, Reg(m.name, 0, POINTER_BITS, "RW",
                                      f"Data signal of {m.name} (64-bit buffer offset)",
                                      kind="pointer", arg_index=m.arg_index,
                                      elem_bytes=m.elem_bytes or m.word_bytes,
                                      ctype=m.ctype)))
    args.sort(key=lambda t: t[0])
    seen: set[str] = {r.name for r in regs}
    for _, r in args:
        if r.name in seen:
            raise RTLError(f"control register names must be unique, not {r.name!r} twice")
        seen.add(r.name)
        r = Reg(r.name, off, r.width, r.access, r.description, kind=r.kind,
                arg_index=r.arg_index, signed=r.signed, elem_bytes=r.elem_bytes,
                ctype=r.ctype)
        regs.append(r)
        off += r.span
    return regs


def control_addr_width(regs: Sequence[Reg]) -> int:
    """``C_S_AXI_ADDR_WIDTH`` of the slave: the bits needed to address every word of the
    map (reserved words included), at least 4 (the four control words), as Vitis."""
    end = max(r.offset + r.span for r in regs)
    return max(4, (end - 1).bit_length())


class AxiLiteControl(wiring.Component):
    """AXI4-Lite slave ``s_axi_control_*`` with the Vitis register map (module docstring).

    Bus side (32-bit data, ``addr_width`` address bits): ``s_axi_control_{awvalid,
    awready, awaddr, wvalid, wready, wdata, wstrb, bvalid, bready, bresp, arvalid, arready,
    araddr, rvalid, rready, rdata, rresp}`` and ``interrupt``.

    Kernel side: ``ap_start`` (out), ``ap_done``, ``ap_idle``, ``ap_ready`` (in),
    ``ap_return`` (in, when the map has a return value) and one output ``arg_<name>`` per
    argument register, carrying the register's value (``args[name]`` maps names to them).

    Clocked by the ``sync`` domain, whose reset clears every register (the top maps
    ``ap_rst_n`` to it).
    """

    def __init__(self, regs: Sequence[Reg]):
        self.regs = tuple(regs)
        self.addr_width = aw = control_addr_width(self.regs)
        self._ret = next((r for r in self.regs if r.kind == "return"), None)
        self._arg_regs = tuple(r for r in self.regs if r.is_arg)
        p = "s_axi_control_"
        members = {
            p + "awvalid": In(1), p + "awready": Out(1), p + "awaddr": In(aw),
            p + "wvalid": In(1), p + "wready": Out(1), p + "wdata": In(32), p + "wstrb": In(4),
            p + "bvalid": Out(1), p + "bready": In(1), p + "bresp": Out(2),
            p + "arvalid": In(1), p + "arready": Out(1), p + "araddr": In(aw),
            p + "rvalid": Out(1), p + "rready": In(1), p + "rdata": Out(32), p + "rresp": Out(2),
            "interrupt": Out(1),
            "ap_start": Out(1), "ap_done": In(1), "ap_idle": In(1), "ap_ready": In(1),
        }
        if self._ret is not None:
            members["ap_return"] = In(self._ret.width)
        for r in self._arg_regs:
            members["arg_" + r.name] = Out(r.width)
        super().__init__(members)

    @classmethod
    def from_interface(cls, interface: TopInterface) -> AxiLiteControl:
        return cls(register_map(interface))

    @property
    def args(self) -> dict[str, Signal]:
        """Argument name -> the output carrying its register."""
        return {r.name: getattr(self, "arg_" + r.name) for r in self._arg_regs}

    def bus_ports(self) -> list[Signal]:
        """The ``s_axi_control_*`` signals and ``interrupt``, in Vitis's port order."""
        p = "s_axi_control_"
        names = ["awvalid", "awready", "awaddr", "wvalid", "wready", "wdata", "wstrb",
                 "arvalid", "arready", "araddr", "rvalid", "rready", "rdata", "rresp",
                 "bvalid", "bready", "bresp"]
        return [getattr(self, p + n) for n in names] + [self.interrupt]

    def elaborate(self, platform):
        m = Module()
        aw = self.addr_width
        b = lambda n: getattr(self, "s_axi_control_" + n)  # noqa: E731

        # ---------------------------------------------------------------- registers
        ap_start = Signal(name="int_ap_start")
        ap_done = Signal(name="int_ap_done")
        ap_idle = Signal(name="int_ap_idle")
        ap_ready = Signal(name="int_ap_ready")
        auto_restart = Signal(name="int_auto_restart")
        gie = Signal(name="int_gie")
        ier = Signal(2, name="int_ier")
        isr = Signal(2, name="int_isr")
        ret = Signal(self._ret.width, name="int_ap_return") if self._ret is not None else None
        argv = {r.name: Signal(r.width, name="int_" + r.name) for r in self._arg_regs}

        m.d.comb += [self.ap_start.eq(ap_start), self.interrupt.eq(gie & (isr & ier).any())]
        for r in self._arg_regs:
            m.d.comb += getattr(self, "arg_" + r.name).eq(argv[r.name])

        # ---------------------------------------------------------------- write channel
        aw_full = Signal()
        aw_addr = Signal(aw)
        w_full = Signal()
        w_data = Signal(32)
        w_strb = Signal(4)
        bvalid = Signal()
        m.d.comb += [
            b("awready").eq(~aw_full & ~bvalid),
            b("wready").eq(~w_full & ~bvalid),
            b("bvalid").eq(bvalid),
            b("bresp").eq(0),
        ]
        aw_hs = b("awvalid") & b("awready")
        w_hs = b("wvalid") & b("wready")
        waddr = Signal(aw)
        wdata = Signal(32)
        wstrb = Signal(4)
        do_write = Signal()
        m.d.comb += [
            waddr.eq(Mux(aw_full, aw_addr, b("awaddr"))),
            wdata.eq(Mux(w_full, w_data, b("wdata"))),
            wstrb.eq(Mux(w_full, w_strb, b("wstrb"))),
            do_write.eq((aw_full | aw_hs) & (w_full | w_hs)),
        ]
        with m.If(do_write):
            m.d.sync += [aw_full.eq(0), w_full.eq(0), bvalid.eq(1)]
        with m.Else():
            with m.If(aw_hs):
                m.d.sync += [aw_full.eq(1), aw_addr.eq(b("awaddr"))]
            with m.If(w_hs):
                m.d.sync += [w_full.eq(1), w_data.eq(b("wdata")), w_strb.eq(b("wstrb"))]
        with m.If(bvalid & b("bready")):
            m.d.sync += bvalid.eq(0)

        widx = waddr[2:]
        wmask = Cat(*(wstrb[i].replicate(8) for i in range(4)))

        def wr(word_offset: int):
            return do_write & (widx == word_offset // 4)

        # ---------------------------------------------------------------- read channel
        rvalid = Signal()
        rdata = Signal(32)
        m.d.comb += [
            b("arready").eq(~rvalid),
            b("rvalid").eq(rvalid),
            b("rdata").eq(rdata),
            b("rresp").eq(0),
        ]
        ar_hs = Signal()
        m.d.comb += ar_hs.eq(b("arvalid") & b("arready"))
        ridx = b("araddr")[2:]
        read_ctrl = ar_hs & (ridx == ADDR_AP_CTRL // 4)
        with m.If(ar_hs):
            m.d.sync += rvalid.eq(1)
            with m.Switch(ridx):
                with m.Case(ADDR_AP_CTRL // 4):
                    m.d.sync += rdata.eq(Cat(ap_start, ap_done, ap_idle, ap_ready,
                                             Const(0, 3), auto_restart, Const(0, 1),
                                             self.interrupt))
                with m.Case(ADDR_GIE // 4):
                    m.d.sync += rdata.eq(gie)
                with m.Case(ADDR_IER // 4):
                    m.d.sync += rdata.eq(ier)
                with m.Case(ADDR_ISR // 4):
                    m.d.sync += rdata.eq(isr)
                for r in self.regs:
                    if r.kind not in ("return", "scalar", "pointer"):
                        continue
                    src = ret if r.kind == "return" else argv[r.name]
                    for k in range(r.words):
                        with m.Case(r.offset // 4 + k):
                            m.d.sync += rdata.eq(src[32 * k:32 * (k + 1)])
                with m.Default():
                    m.d.sync += rdata.eq(0)
        with m.Elif(rvalid & b("rready")):
            m.d.sync += rvalid.eq(0)

        # ---------------------------------------------------------------- control
        with m.If(wr(ADDR_AP_CTRL) & wstrb[0] & wdata[0]):
            m.d.sync += ap_start.eq(1)
        with m.Elif(self.ap_ready):
            m.d.sync += ap_start.eq(auto_restart)
        with m.If(wr(ADDR_AP_CTRL) & wstrb[0]):
            m.d.sync += auto_restart.eq(wdata[7])
        with m.If(self.ap_done):
            m.d.sync += ap_done.eq(1)
        with m.Elif(read_ctrl):
            m.d.sync += ap_done.eq(0)
        with m.If(self.ap_ready):
            m.d.sync += ap_ready.eq(1)
        with m.Elif(read_ctrl):
            m.d.sync += ap_ready.eq(0)
        m.d.sync += ap_idle.eq(self.ap_idle)
        with m.If(wr(ADDR_GIE) & wstrb[0]):
            m.d.sync += gie.eq(wdata[0])
        with m.If(wr(ADDR_IER) & wstrb[0]):
            m.d.sync += ier.eq(wdata[:2])
        for bit, event in ((0, self.ap_done), (1, self.ap_ready)):
            with m.If(ier[bit] & event):
                m.d.sync += isr[bit].eq(1)
            with m.Elif(wr(ADDR_ISR) & wstrb[0]):
                m.d.sync += isr[bit].eq(isr[bit] ^ wdata[bit])
        if ret is not None:
            with m.If(self.ap_done):
                m.d.sync += ret.eq(self.ap_return)

        # ---------------------------------------------------------------- arguments
        for r in self._arg_regs:
            reg = argv[r.name]
            for k in range(r.words):
                lo, hi = 32 * k, min(32 * (k + 1), r.width)
                part = reg[lo:hi]
                n = hi - lo
                with m.If(wr(r.offset + 4 * k)):
                    m.d.sync += part.eq((wdata[:n] & wmask[:n]) | (part & ~wmask[:n]))
        return m

