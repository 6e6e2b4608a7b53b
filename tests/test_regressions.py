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
