"""Co-simulated regression kernels for bugs found while building the core."""

from __future__ import annotations

import struct
from pathlib import Path

from hls.verify import cosim

HERE = Path(__file__).resolve().parent / "kernels"


def wrap(v: int) -> int:
    """``v`` as a C int (two's complement, 32 bits)."""
    return (v + (1 << 31)) % (1 << 32) - (1 << 31)


def test_call_chain_tb():
    src = HERE / "call_chain.c"
    res = cosim(src, "call_chain", tb=src, depth={"buf": 16})
    assert res.passed, res.summary()
    assert len(res.calls) == 3


def test_call_chain_whole_program():
    res = cosim(HERE / "call_chain.c", "main")
    assert res.passed, res.summary()


def test_call_chain_random():
    res = cosim(HERE / "call_chain.c", "call_chain", depth={"buf": 16}, runs=6, seed=3)
    assert res.passed, res.summary()


def test_division_by_constants_random():
    """x / 4096 on a negative int32 gave 'expected 4294872659, got 4099667'."""
    res = cosim(HERE / "div_const.c", "div_const", depth={"o": 8}, runs=24, seed=7)
    assert res.passed, res.summary()


def test_division_by_constants_whole_program():
    res = cosim(HERE / "div_const.c", "main")
    assert res.passed, res.summary()


def test_struct_by_value_in_memory():
    """A struct the ABI passes in memory (byval): the testbench's calls are captured
    with the right values (the native output is the C program's), the callee's writes to
    its copy stay its own, and random stimulus' golden is the C function's."""
    src = HERE / "byval_struct.c"
    res = cosim(src, "byval_struct", tb=src)
    assert res.passed, res.summary()
    assert res.native_output.splitlines() == ["call 0: s 137 y7 51 k.a 1",
                                              "call 1: s 109 y7 37 k.a 1"]
    assert [c.ret for c in res.stimulus] == [137, 109]
    res = cosim(src, "byval_struct", runs=3, seed=5)
    assert res.passed, res.summary()
    for c in res.stimulus:      # the golden is the C function of the random inputs
        x = struct.unpack("<8i", c.mem_in[0][:32])
        a, b, cc, d, e = struct.unpack("<5i", c.mem_in[2][:20])
        ys = [wrap(x[i] * (a + i) + b - cc * d + e) for i in range(8)]
        assert c.ret == (sum(ys) + a + 8) & 0xFFFFFFFF
