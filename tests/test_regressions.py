"""Co-simulated regression kernels for bugs found while building the core."""

from __future__ import annotations

from pathlib import Path

from hls.verify import cosim

HERE = Path(__file__).resolve().parent / "kernels"


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
