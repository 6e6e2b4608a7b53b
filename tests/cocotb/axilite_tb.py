"""cocotb protocol tests of ``s_axi_control`` (:mod:`axilite_dut`), run by
``tests/test_axilite.py`` through ``cocotb_tools.runner``.

The register offsets come from the generated C header (``$PYHLS_AXIL_HEADER``), so the
RTL is checked against what a host program compiled with that header would do.  An
:class:`AxiLiteMaster` from cocotbext-axi drives the registers the way XRT does (write
the argument words, write ``ap_start``, poll ``ap_done``, read ``ap_return``), with random
stalls on every channel: AW and W thus arrive in either order, B and R are back-pressured.
"""

from __future__ import annotations

import os
import random
import re

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from axilite_dut import fake_result

CTRL, GIE, IER, ISR = 0x00, 0x04, 0x08, 0x0C
AP_START, AP_DONE, AP_IDLE, AP_READY, AUTO_RESTART, INTR = 1, 2, 4, 8, 0x80, 0x200


def header() -> dict[str, int]:
    """The ``#define``s of the generated header: name without prefix -> value."""
    with open(os.environ["PYHLS_AXIL_HEADER"]) as f:
        text = f.read()
    out = {}
    for m in re.finditer(r"#define X\w+?_CONTROL_(\w+)\s+(0x[0-9a-fA-F]+|\d+)\s*$", text, re.M):
        out[m.group(1)] = int(m.group(2), 0)
    return out


H = header()
ARGS = {m.group(1).lower(): (H[k], H[f"BITS_{m.group(1)}_DATA"])
        for k in H if (m := re.fullmatch(r"ADDR_(\w+)_DATA", k))}


def pauses(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


async def setup(dut, *, stall: float = 0.0, seed: int = 1,
                master: bool = True) -> AxiLiteMaster | None:
    Clock(dut.ap_clk, 4, unit="ns").start()
    for s in ("awvalid", "wvalid", "arvalid"):
        getattr(dut, f"s_axi_control_{s}").value = 0
    dut.s_axi_control_bready.value = 0
    dut.s_axi_control_rready.value = 0
    dut.ap_rst_n.value = 0
    await ClockCycles(dut.ap_clk, 5)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)
    if not master:
        return None
    bus = AxiLiteBus.from_prefix(dut, "s_axi_control")
    m = AxiLiteMaster(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False)
    if stall:
        rng = random.Random(seed)
        for ch in (m.write_if.aw_channel, m.write_if.w_channel, m.write_if.b_channel,
                   m.read_if.ar_channel, m.read_if.r_channel):
            ch.set_pause_generator(pauses(stall, rng))
    return m


async def write_arg(m: AxiLiteMaster, name: str, value: int) -> None:
    """As XRT: one 32-bit write per data word, low word first."""
    off, bits = ARGS[name]
    for k in range((bits + 31) // 32):
        await m.write_dword(off + 4 * k, (value >> (32 * k)) & 0xFFFFFFFF)


async def read_arg(m: AxiLiteMaster, name: str) -> int:
    off, bits = ARGS[name]
    v = 0
    for k in range((bits + 31) // 32):
        v |= await m.read_dword(off + 4 * k) << (32 * k)
    return v


async def wait_done(m: AxiLiteMaster, limit: int = 2000) -> int:
    """Poll the control word until ap_done; returns the value read."""
    for _ in range(limit):
        v = await m.read_dword(CTRL)
        if v & AP_DONE:
            return v
    raise AssertionError("ap_done never set")


def random_args(rng: random.Random) -> dict[str, int]:
    return {"a": rng.getrandbits(32), "b": rng.getrandbits(32), "c": rng.getrandbits(64),
            "p": rng.getrandbits(64), "delay": rng.choice([0, 1, 2, rng.getrandbits(6)])}


async def call(m: AxiLiteMaster, args: dict[str, int]) -> int:
    for name, v in args.items():
        await write_arg(m, name, v)
    await m.write_dword(CTRL, AP_START)
    v = await wait_done(m)
    assert v & AP_READY, f"ap_ready not seen with ap_done: ctrl={v:#x}"
    return await m.read_dword(H["ADDR_AP_RETURN"])


@cocotb.test(timeout_time=200, timeout_unit="us")
async def xrt_flow(dut):
    """Arguments, start, poll done, return value, done/ready clear-on-read, idle and
    ap_start cleared at ap_ready; random stalls on all five channels."""
    m = await setup(dut, stall=0.4, seed=11)
    rng = random.Random(5)
    v = await m.read_dword(CTRL)
    assert v == AP_IDLE, f"control after reset {v:#x}"
    for it in range(12):
        args = random_args(rng)
        ret = await call(m, args)
        assert ret == fake_result(args["a"], args["b"], args["c"], args["p"]), \
            f"call {it}: ap_return {ret:#x}"
        for name, val in args.items():
            got = await read_arg(m, name)
            assert got == val, f"{name} reads back {got:#x}, wrote {val:#x}"
        v = await m.read_dword(CTRL)
        assert not v & (AP_DONE | AP_READY), f"done/ready not cleared on read: {v:#x}"
        assert v & AP_IDLE and not v & AP_START, f"after the call ctrl={v:#x}"
    assert int(dut.runs.value) == 12


@cocotb.test(timeout_time=200, timeout_unit="us")
async def start_bit_held_until_ready(dut):
    """ap_start reads 1 and ap_idle 0 while a long call runs."""
    m = await setup(dut)
    await write_arg(m, "delay", 60)
    await m.write_dword(CTRL, AP_START)
    v = await m.read_dword(CTRL)
    assert v & AP_START and not v & AP_IDLE and not v & AP_DONE, f"running: ctrl={v:#x}"
    v = await wait_done(m)
    assert not v & AP_START
    assert await m.read_dword(CTRL) & AP_IDLE


@cocotb.test(timeout_time=200, timeout_unit="us")
async def interrupts(dut):
    """interrupt = GIE & |(ISR & IER); ISR toggle-on-write; GIE masks."""
    m = await setup(dut, stall=0.3, seed=3)
    await write_arg(m, "delay", 5)
    await m.write_dword(GIE, 1)
    await m.write_dword(IER, 1)        # ap_done only
    assert await m.read_dword(IER) == 1
    await m.write_dword(CTRL, AP_START)
    await with_timeout(RisingEdge(dut.interrupt), 2000, "ns")
    assert await m.read_dword(ISR) == 1
    assert await m.read_dword(CTRL) & INTR
    await m.write_dword(ISR, 1)        # toggle: clears
    assert await m.read_dword(ISR) == 0
    await ReadOnly()
    assert int(dut.interrupt.value) == 0
    await FallingEdge(dut.ap_clk)
    # ap_ready channel
    await m.write_dword(IER, 2)
    await m.write_dword(CTRL, AP_START)
    await with_timeout(RisingEdge(dut.interrupt), 2000, "ns")
    assert await m.read_dword(ISR) == 2
    await m.write_dword(ISR, 2)
    assert await m.read_dword(ISR) == 0
    # toggle-on-write also sets a bit; GIE=0 masks the output
    await m.write_dword(ISR, 1)
    assert await m.read_dword(ISR) == 1
    assert int(dut.interrupt.value) == 0      # IER bit0 is off now
    await m.write_dword(IER, 3)
    assert int(dut.interrupt.value) == 1
    await m.write_dword(GIE, 0)
    assert int(dut.interrupt.value) == 0
    await m.write_dword(ISR, 1)
    assert await m.read_dword(ISR) == 0
    # a disabled event does not set ISR
    await m.write_dword(IER, 0)
    await m.write_dword(CTRL, AP_START)
    await wait_done(m)
    assert await m.read_dword(ISR) == 0


@cocotb.test(timeout_time=200, timeout_unit="us")
async def auto_restart(dut):
    """With auto_restart the kernel is restarted at each ap_ready; clearing it lets the
    current call finish and the kernel go idle."""
    m = await setup(dut, stall=0.2, seed=7)
    await write_arg(m, "delay", 3)
    runs0 = int(dut.runs.value)
    await m.write_dword(CTRL, AP_START | AUTO_RESTART)
    await ClockCycles(dut.ap_clk, 60)
    v = await m.read_dword(CTRL)
    assert v & AUTO_RESTART and v & AP_START, f"auto_restart: ctrl={v:#x}"
    assert int(dut.runs.value) - runs0 >= 5
    await m.write_dword(CTRL, 0)
    await ClockCycles(dut.ap_clk, 20)
    v = await m.read_dword(CTRL)
    assert v & AP_IDLE and not v & AP_START and not v & AUTO_RESTART, f"ctrl={v:#x}"
    runs1 = int(dut.runs.value)
    await ClockCycles(dut.ap_clk, 30)
    assert int(dut.runs.value) == runs1


@cocotb.test(timeout_time=200, timeout_unit="us")
async def register_map(dut):
    """Offsets of the header: read/write of every argument word, width masks, byte
    strobes, reserved and unmapped words read 0, ap_return read-only."""
    m = await setup(dut, stall=0.3, seed=9)
    rng = random.Random(2)
    assert set(ARGS) == {"a", "b", "delay", "c", "p"}
    assert H["ADDR_AP_RETURN"] == 0x10 and ARGS["a"][0] == 0x18
    used = {CTRL, GIE, IER, ISR, H["ADDR_AP_RETURN"]}
    for name, (off, bits) in ARGS.items():
        val = rng.getrandbits(32 * ((bits + 31) // 32))
        await write_arg(m, name, val)
        assert await read_arg(m, name) == val & ((1 << bits) - 1), name
        used |= {off + 4 * k for k in range((bits + 31) // 32)}
    # byte strobes: write one byte in the middle of a
    off = ARGS["a"][0]
    await m.write_dword(off, 0x11223344)
    await m.write(off + 2, b"\xab")
    assert await m.read_dword(off) == 0x11AB3344
    await m.write(off, b"\x01\x02")
    assert await m.read_dword(off) == 0x11AB0201
    # everything else reads 0 and ignores writes
    addr_span = 1 << len(dut.s_axi_control_awaddr)
    for addr in range(0, addr_span, 4):
        if addr in used:
            continue
        await m.write_dword(addr, 0xFFFFFFFF)
        assert await m.read_dword(addr) == 0, f"{addr:#x} is not a data register"
    await m.write_dword(H["ADDR_AP_RETURN"], 0x1234)
    assert await m.read_dword(H["ADDR_AP_RETURN"]) == 0
    assert await m.read_dword(CTRL) == AP_IDLE


@cocotb.test(timeout_time=200, timeout_unit="us")
async def pin_level_orders(dut):
    """Hand-driven handshakes (all driving at falling edges): W before AW, AW before W,
    both together; B and R held under back-pressure until READY; one outstanding
    transaction per direction (no AWREADY/WREADY while B waits, no ARREADY while R does)."""
    await setup(dut, master=False)   # the pins are driven by hand here
    clk = dut.ap_clk
    p = "s_axi_control_"

    def sig(n):
        return getattr(dut, p + n)

    def val(n):
        return int(sig(n).value)

    async def hs(valid, ready):
        """At a falling edge with ``valid`` asserted: wait for the handshake (READY seen
        at a falling edge is registered state, so it holds at the next rising edge),
        then drop VALID at the falling edge after it."""
        while True:
            r = val(ready)
            await FallingEdge(clk)
            if r:
                break
        sig(valid).value = 0

    def drive_aw(addr):
        sig("awaddr").value = addr
        sig("awvalid").value = 1

    def drive_w(data):
        sig("wdata").value = data
        sig("wstrb").value = 0xF
        sig("wvalid").value = 1

    async def write(addr, data, order):
        if order == "aw":
            drive_aw(addr)
            await hs("awvalid", "awready")
            await ClockCycles(clk, 3)
            await FallingEdge(clk)
            assert not val("bvalid"), "write response before the data"
            drive_w(data)
            await hs("wvalid", "wready")
        elif order == "w":
            drive_w(data)
            await hs("wvalid", "wready")
            await ClockCycles(clk, 3)
            await FallingEdge(clk)
            assert not val("bvalid"), "write response before the address"
            drive_aw(addr)
            await hs("awvalid", "awready")
        else:
            drive_aw(addr)
            drive_w(data)
            assert val("awready") and val("wready")
            await FallingEdge(clk)
            sig("awvalid").value = 0
            sig("wvalid").value = 0
        for _ in range(3):
            if val("bvalid"):
                break
            await FallingEdge(clk)
        assert val("bvalid"), "no write response"
        for _ in range(3):   # BREADY low: BVALID held, nothing new accepted
            assert val("bvalid") and val("bresp") == 0
            assert not val("awready") and not val("wready")
            await FallingEdge(clk)
        sig("bready").value = 1
        await FallingEdge(clk)
        sig("bready").value = 0
        assert not val("bvalid")

    async def read(addr):
        sig("araddr").value = addr
        sig("arvalid").value = 1
        await hs("arvalid", "arready")
        assert val("rvalid")
        data = val("rdata")
        for _ in range(3):   # RREADY low: RVALID and RDATA held
            await FallingEdge(clk)
            assert val("rvalid") and val("rdata") == data and val("rresp") == 0
            assert not val("arready")
        sig("rready").value = 1
        await FallingEdge(clk)
        sig("rready").value = 0
        assert not val("rvalid")
        return data

    a = ARGS["a"][0]
    b = ARGS["b"][0]
    await FallingEdge(clk)
    for i, order in enumerate(("w", "aw", "both")):
        await write(a, 0x1000 + i, order)
        await write(b, 0x2000 + i, order)
        assert await read(a) == 0x1000 + i
        assert await read(b) == 0x2000 + i
