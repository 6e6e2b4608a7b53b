"""cocotb testbench of an Alveo top (:class:`hls.rtl.AlveoTop`), run by
:func:`hls.verify.run_axi_cosim` through ``cocotb_tools.runner``.

It replays the golden calls of a job file (``$PYHLS_AXI_JOB``, a pickle written by
:mod:`hls.verify._axi_cosim`) the way an XRT host drives a Vitis kernel:

* one cocotbext-axi :class:`AxiRam` per ``m_axi`` bundle, with random pause generators on
  AW, W, B, AR and R and a random extra latency before some bursts are read or written;
  the RAM is filled with random background bytes, then each pointer argument's input
  bytes are loaded at its buffer (4 KiB aligned, distinct, with a guard gap of at least
  one page);
* an :class:`AxiLiteMaster` on ``s_axi_control`` (random pauses too) writes every scalar
  and every pointer's 64-bit offset (one 32-bit write per word, low word first), enables
  the ap_done interrupt (GIE, IER), writes ap_start, polls the control word until ap_done,
  reads ap_return, and clears the ISR;
* the buffers are read back; any byte outside the buffers that changed is reported;
* AXI4-Stream arguments: an ``AxiStreamSource`` per input stream (random pauses) sends
  the call's whole input buffer (the argument's depth in elements) before ap_start, and
  must be drained by ap_done; an ``AxiStreamSink`` per output stream (random
  back-pressure through its pause generator) collects the elements, which stand for the
  argument's buffer: exactly ``depth`` elements, ``TLAST`` on the last one only (a
  monitor of the handshake records TLAST; the sink itself sees one frame per beat);
  the top's ``stream_error`` (a stream adapter saw an access out of order) fails the call.

Buffer offsets lie above 4 GiB (the RAM's size is a power of two and AxiRam wraps
addresses modulo its size), so the upper halves of the 64-bit pointers are exercised.

Cycles of a call: clock cycles from the host's ap_start write (its B response) to the
rising edge of ``interrupt`` (the kernel's ap_done); the polling overhead is not counted.
Results go to the pickle named by the job (``result_path``).
"""

from __future__ import annotations

import logging
import os
import pickle
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import (
    AxiBus,
    AxiLiteBus,
    AxiLiteMaster,
    AxiRam,
    AxiStreamBus,
    AxiStreamFrame,
    AxiStreamSink,
    AxiStreamSource,
)

CTRL, GIE, IER, ISR = 0x00, 0x04, 0x08, 0x0C
AP_START, AP_DONE = 0x1, 0x2


def _pauses(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


def _quiet(*logs) -> None:
    for log in logs:
        log.setLevel(logging.WARNING)


class _Counter:
    """Counts clock cycles and remembers the first cycle ``interrupt`` was high."""

    def __init__(self, dut):
        self.dut = dut
        self.cycle = 0
        self.irq_cycle: int | None = None

    async def run(self):
        while True:
            await RisingEdge(self.dut.ap_clk)
            self.cycle += 1
            if self.irq_cycle is None and int(self.dut.interrupt.value):
                self.irq_cycle = self.cycle


def _make_ram(dut, bundle: str, size: int, rng: random.Random, stall: float, latency: int):
    bus = AxiBus.from_prefix(dut, f"m_axi_{bundle}")
    ram = AxiRam(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False, size=size)
    _quiet(ram.write_if.log, ram.read_if.log)
    if stall:
        for ch in (ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                   ram.read_if.ar_channel, ram.read_if.r_channel):
            ch.set_pause_generator(_pauses(stall * (0.5 + rng.random()), rng))
    if latency:
        read, write = ram.read_if._read, ram.write_if._write

        async def slow_read(address, length):
            if rng.random() < 0.25:
                await ClockCycles(dut.ap_clk, rng.randint(1, latency))
            return await read(address, length)

        async def slow_write(address, data):
            if rng.random() < 0.25:
                await ClockCycles(dut.ap_clk, rng.randint(1, latency))
            await write(address, data)

        ram.read_if._read = slow_read
        ram.write_if._write = slow_write
    return ram


class _OutStream:
    """An ``AxiStreamSink`` on output stream ``name`` (one frame per beat: the bus is
    taken without TLAST) and a monitor that records the beats with TLAST high."""

    def __init__(self, dut, name: str, rng: random.Random, stall: float):
        bus = AxiStreamBus.from_prefix(dut, name)
        self.tlast = bus.tlast
        self.tvalid, self.tready = bus.tvalid, bus.tready
        del bus.tlast
        self.sink = AxiStreamSink(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False)
        _quiet(self.sink.log)
        if stall:
            self.sink.set_pause_generator(_pauses(stall * (0.5 + rng.random()), rng))
        self.dut = dut
        self.beats = 0
        self.last_at: list[int] = []

    async def monitor(self):
        while True:
            await RisingEdge(self.dut.ap_clk)
            if int(self.tvalid.value) and int(self.tready.value):
                if int(self.tlast.value):
                    self.last_at.append(self.beats)
                self.beats += 1

    def take(self) -> tuple[bytes, int, list[int]]:
        data = bytes(self.sink.read_nowait())
        beats, last = self.beats, self.last_at
        self.beats, self.last_at = 0, []
        return data, beats, last


@cocotb.test()
async def replay_calls(dut):
    with open(os.environ["PYHLS_AXI_JOB"], "rb") as f:
        job = pickle.load(f)
    rng = random.Random(job["seed"])
    stall, latency = job["stall"], job["latency"]
    Clock(dut.ap_clk, 4, unit="ns").start()
    for s in ("awvalid", "wvalid", "arvalid", "bready", "rready"):
        getattr(dut, f"s_axi_control_{s}").value = 0
    dut.ap_rst_n.value = 0
    size, high = job["ram_size"], job["high"]
    rams = {b: _make_ram(dut, b, size, rng, stall, latency) for b in job["bundles"]}
    ctl = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi_control"), dut.ap_clk, dut.ap_rst_n,
                        reset_active_level=False)
    _quiet(ctl.write_if.log, ctl.read_if.log)
    if stall:
        for ch in (ctl.write_if.aw_channel, ctl.write_if.w_channel, ctl.write_if.b_channel,
                   ctl.read_if.ar_channel, ctl.read_if.r_channel):
            ch.set_pause_generator(_pauses(stall, rng))
    sources, sinks = {}, {}
    for st in job.get("streams", []):
        if st["direction"] == "in":
            src = AxiStreamSource(AxiStreamBus.from_prefix(dut, st["name"]), dut.ap_clk,
                                  dut.ap_rst_n, reset_active_level=False)
            _quiet(src.log)
            if stall:
                src.set_pause_generator(_pauses(stall * (0.5 + rng.random()), rng))
            sources[st["name"]] = src
        else:
            sinks[st["name"]] = _OutStream(dut, st["name"], rng, stall)
    await ClockCycles(dut.ap_clk, 5)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)
    counter = _Counter(dut)
    cocotb.start_soon(counter.run())
    for out in sinks.values():
        cocotb.start_soon(out.monitor())

    async def write_reg(off: int, width: int, value: int) -> None:
        for k in range((width + 31) // 32):
            await ctl.write_dword(off + 4 * k, (value >> (32 * k)) & 0xFFFFFFFF)

    await ctl.write_dword(GIE, 1)
    await ctl.write_dword(IER, 1)           # the ap_done interrupt
    background = {b: rng.randbytes(size) for b in rams}
    results = []
    stuck = False
    for call in job["calls"]:
        if stuck:
            results.append({"cycles": 0, "status": "skipped", "ret": None, "mems": {},
                            "message": "an earlier call did not finish"})
            continue
        for b, ram in rams.items():
            ram.write(0, background[b])
        for m in job["memories"]:
            data = bytes(call["mem_in"].get(m["arg_index"]) or b"")[:m["size"]]
            data += bytes(m["size"] - len(data))
            rams[m["bundle"]].write(m["base"], data)
        for st in job.get("streams", []):
            if st["direction"] == "in":
                size_b = st["depth"] * st["word_bytes"]
                data = bytes(call["mem_in"].get(st["arg_index"]) or b"")[:size_b]
                sources[st["name"]].send_nowait(AxiStreamFrame(data + bytes(size_b - len(data))))
        for r in job["args"]:
            if r["kind"] == "pointer":
                value = high + r["base"]
            else:
                value = call["scalars"].get(r["arg_index"], 0) & ((1 << r["width"]) - 1)
            await write_reg(r["offset"], r["width"], value)
        counter.irq_cycle = None
        await ctl.write_dword(CTRL, AP_START)
        start = counter.cycle - 1       # the register took ap_start one edge before B
        limit = start + job["max_cycles"]
        done = False
        while counter.cycle <= limit:
            v = await ctl.read_dword(CTRL)
            if v & AP_DONE:
                done = True
                break
        if not done:
            stuck = True
            results.append({"cycles": counter.cycle - start, "status": "timeout", "ret": None,
                            "mems": {}, "message": f"no ap_done within "
                            f"{job['max_cycles']} cycles"})
            continue
        cycles = (counter.irq_cycle or counter.cycle) - start
        ret = None
        if job["return"] is not None:
            off, width = job["return"]
            ret = 0
            for k in range((width + 31) // 32):
                ret |= await ctl.read_dword(off + 4 * k) << (32 * k)
            ret &= (1 << width) - 1
        await ctl.write_dword(ISR, 1)    # toggle-on-write: clears the ap_done status
        mems, messages = {}, []
        guard = {b: bytearray(background[b]) for b in rams}
        for m in job["memories"]:
            ram = rams[m["bundle"]]
            mems[m["name"]] = ram.read(m["base"], m["size"])
            g = guard[m["bundle"]]
            g[m["base"]:m["base"] + m["size"]] = mems[m["name"]]
        for st in job.get("streams", []):
            name, n, wb = st["name"], st["depth"], st["word_bytes"]
            if st["direction"] == "in":
                src = sources[name]
                if not src.idle():
                    messages.append(f"input stream {name}: the call did not take all {n} "
                                    f"elements")
                    src.clear()
                mems[name] = bytes(call["mem_in"].get(st["arg_index"]) or b"")[:n * wb]
                continue
            data, beats, last = sinks[name].take()
            if beats != n:
                messages.append(f"output stream {name}: {beats} element(s), not {n}")
            elif last != [n - 1]:
                messages.append(f"output stream {name}: TLAST on element(s) {last}, not "
                                f"only on element {n - 1}")
            mems[name] = (data + bytes(n * wb))[:n * wb]
        if (sources or sinks) and int(dut.stream_error.value):
            messages.append("a stream adapter saw an access out of stream order "
                            "(stream_error)")
        for b, ram in rams.items():
            got = ram.read(0, size)
            if got != bytes(guard[b]):
                bad = [i for i in range(size) if got[i] != guard[b][i]]
                messages.append(f"m_axi_{b}: {len(bad)} byte(s) outside the buffers changed, "
                                f"the first at offset {high + bad[0]:#x}")
        results.append({"cycles": cycles, "status": "error" if messages else "ok",
                        "ret": ret, "mems": mems, "message": "; ".join(messages)})
        dut._log.info("call %d: %d cycles", len(results) - 1, cycles)
    with open(job["result_path"], "wb") as f:
        pickle.dump({"calls": results, "total_cycles": counter.cycle}, f)
