"""cocotb tests of :class:`hls.memory.AxiMasterAdapter` (:mod:`axim_dut`), run by
``tests/test_axi_master.py`` through ``cocotb_tools.runner``.

Every channel's ``m_axi_<channel>`` master talks to its own cocotbext-axi :class:`AxiRam`
(random pause generators on AR, R, AW, W and B, and a random memory latency before beats
are read or written).  The program channels' cores check every value they read against
the Python model; the test then checks the counters, the sticky AXI error flag and the
RAM's final contents byte by byte (the arguments' final contents at their random base
addresses, every other byte untouched).  ``seq_throughput`` measures cycles per element
of a sequential read of 4096 32-bit words, and of ``z[i] = x[i] + y[i]`` over 4096
elements on one bundle (checking ``z`` in the RAM), and writes them to
``$PYHLS_AXIM_REPORT``.
"""

from __future__ import annotations

import json
import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiRam

from axim_dut import CHANNELS, pattern, program

RAM_SIZE = 1 << 16
REGION = 0x4000                 # program channels: one argument per 16 KiB region
PROGRAMS = {c.name: program(c) for c in CHANNELS if c.kind == "program"}


def pauses(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


async def reset(dut) -> None:
    Clock(dut.ap_clk, 4, unit="ns").start()
    for c in CHANNELS:
        getattr(dut, f"{c.name}_start").value = 0
    dut.ap_rst_n.value = 0
    await ClockCycles(dut.ap_clk, 4)


def make_ram(dut, name: str, rng: random.Random, stall: float, latency: int) -> AxiRam:
    bus = AxiBus.from_prefix(dut, f"m_axi_{name}")
    ram = AxiRam(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False, size=RAM_SIZE)
    for log in (ram.write_if.log, ram.read_if.log):
        log.setLevel(logging.WARNING)
    if stall:
        for ch in (ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                   ram.read_if.ar_channel, ram.read_if.r_channel):
            ch.set_pause_generator(pauses(stall * rng.random(), rng))
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


async def wait_done(dut, names, limit: int) -> None:
    for _ in range(limit):
        await RisingEdge(dut.ap_clk)
        if all(int(getattr(dut, f"{n}_done").value) for n in names):
            return
    raise AssertionError(f"channels {[n for n in names if not int(getattr(dut, f'{n}_done').value)]} "
                         f"not done after {limit} cycles")


@cocotb.test(timeout_time=20, timeout_unit="ms")
@cocotb.parametrize(seed=[1, 2, 3])
async def program_channels(dut, seed: int):
    """Every program channel against an AxiRam; seed 1 without stalls, then random
    pauses on all five channels and random memory latency."""
    rng = random.Random(seed)
    stall, latency = (0.0, 0) if seed == 1 else (0.2 + 0.15 * (seed % 3), 6)
    await reset(dut)
    rams, models = {}, {}
    for cfg in CHANNELS:
        if cfg.kind != "program":
            continue
        prog = PROGRAMS[cfg.name]
        ram = make_ram(dut, cfg.name, rng, stall, latency)
        background = rng.randbytes(RAM_SIZE)
        ram.write(0, background)
        model = bytearray(background)
        for k, a in enumerate(cfg.args):
            size = a.word_bytes << (a.addr_bits - 1)
            base = k * REGION + rng.randrange(0, REGION - size + 1) // a.word_bytes * a.word_bytes
            ram.write(base, prog.init[a.name])
            model[base:base + size] = prog.final[a.name]
            getattr(dut, f"{cfg.name}_{a.name}_base").value = base
        rams[cfg.name], models[cfg.name] = ram, bytes(model)
    await ClockCycles(dut.ap_clk, 2)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)
    for n in rams:
        getattr(dut, f"{n}_start").value = 1
    await wait_done(dut, list(rams), 200_000)
    for n, ram in rams.items():
        prog = PROGRAMS[n]
        cycles = int(getattr(dut, f"{n}_cycles").value)
        dut._log.info("seed %d channel %s: %d core cycles in %d clock cycles", seed, n,
                      len(prog.cycles), cycles)
        assert int(getattr(dut, f"{n}_error").value) == 0, f"{n}: AXI error flag"
        assert int(getattr(dut, f"{n}_mismatch").value) == 0, f"{n}: read mismatches"
        assert int(getattr(dut, f"{n}_checks").value) == prog.reads, f"{n}: reads checked"
        assert int(getattr(dut, f"{n}_checksum").value) == prog.checksum, f"{n}: checksum"
        got = ram.read(0, RAM_SIZE)
        if got != models[n]:
            bad = [i for i in range(RAM_SIZE) if got[i] != models[n][i]]
            raise AssertionError(f"{n}: {len(bad)} bytes differ, first at 0x{bad[0]:x}: "
                                 f"0x{got[bad[0]]:02x} != 0x{models[n][bad[0]]:02x}")


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def seq_throughput(dut):
    """Sequential read of 4096 32-bit words: cycles per element per configuration, with
    an ideal memory (no pauses, no added latency)."""
    await reset(dut)
    rng = random.Random(0)
    seq = [c for c in CHANNELS if c.kind in ("seq", "vadd")]
    names = [c.name for c in seq]
    base = 0x1000
    rams = {}
    for cfg in seq:
        ram = rams[cfg.name] = make_ram(dut, cfg.name, rng, 0.0, 0)
        ram.write(base, b"".join(pattern(i).to_bytes(4, "little") for i in range(cfg.seq_len)))
        getattr(dut, f"{cfg.name}_x_base").value = base
        if cfg.kind == "vadd":      # y after x, z after y
            ram.write(base + 4 * cfg.seq_len, b"".join(
                pattern(i + cfg.seq_len).to_bytes(4, "little") for i in range(cfg.seq_len)))
            getattr(dut, f"{cfg.name}_y_base").value = base + 4 * cfg.seq_len
            getattr(dut, f"{cfg.name}_z_base").value = base + 8 * cfg.seq_len
    await ClockCycles(dut.ap_clk, 2)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)
    for n in names:
        getattr(dut, f"{n}_start").value = 1
    await wait_done(dut, names, 200_000)
    report = {}
    for cfg in seq:
        n = cfg.name
        assert int(getattr(dut, f"{n}_error").value) == 0
        assert int(getattr(dut, f"{n}_mismatch").value) == 0
        assert int(getattr(dut, f"{n}_checks").value) == cfg.seq_len
        if cfg.kind == "vadd":
            got = rams[n].read(base + 8 * cfg.seq_len, 4 * cfg.seq_len)
            want = b"".join(((pattern(i) + pattern(i + cfg.seq_len)) & 0xFFFFFFFF)
                            .to_bytes(4, "little") for i in range(cfg.seq_len))
            assert got == want, f"{n}: z differs from x + y"
            assert rams[n].read(base + 12 * cfg.seq_len, 64) == bytes(64), f"{n}: wrote past z"
        cycles = int(getattr(dut, f"{n}_cycles").value)
        report[n] = {"data_width": cfg.data_width, "line_beats": cfg.line_beats,
                     "elements": cfg.seq_len, "cycles": cycles,
                     "cycles_per_element": cycles / cfg.seq_len}
        dut._log.info("%s: %d-bit, L=%d: %.3f cycles/element", n, cfg.data_width,
                      cfg.line_beats, cycles / cfg.seq_len)
    path = os.environ.get("PYHLS_AXIM_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(report, f, indent=1)
