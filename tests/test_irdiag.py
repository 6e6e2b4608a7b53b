"""A failed co-simulation says which half of the compiler is wrong: the final CDFG is
interpreted on the same calls; if it agrees with native execution the RTL side is wrong,
else translation or a rewrite."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from amaranth.hdl import Const as AConst
from amaranth.hdl import Mux

import hls.transforms
from hls.ir import OPS
from hls.transforms import magic_unsigned, narrow_widths
from hls.verify import cosim

SRC = Path(__file__).resolve().parent / "kernels" / "div_const.c"


def test_an_rtl_bug_is_diagnosed_as_such(monkeypatch):
    def old_div_const(op, a):  # the pre-fix builder: a narrow quotient negated
        k, x, w, d = op.kind, a[0], op.width, op.attrs["divisor"]
        signed = k[0] == "s"
        neg = x[w - 1] if signed else AConst(0, 1)
        mag = Mux(neg, (-x)[:w], x) if signed else x
        m, sh = magic_unsigned(abs(d), w)
        q = (mag * AConst(m, max(1, m.bit_length())))[sh:sh + w] if sh or m != 1 else mag
        if k.endswith("divc"):
            return Mux(neg ^ (d < 0), (-q)[:w], q) if signed else q
        r = (mag - (q * AConst(abs(d), max(1, abs(d).bit_length())))[:w])[:w]
        return Mux(neg, (-r)[:w], r) if signed else r

    for kind in ("udivc", "uremc", "sdivc", "sremc"):
        monkeypatch.setitem(OPS, kind, dataclasses.replace(OPS[kind], rtl=old_div_const))
    res = cosim(SRC, "main")
    assert not res.passed
    assert "agrees with native execution" in res.diagnosis, res.summary()
    assert "scheduling, binding or RTL" in res.summary()


def test_a_rewrite_bug_is_diagnosed_as_such(monkeypatch):
    def wrong_narrow(func):     # a broken rewrite: signed quotients computed unsigned
        n = narrow_widths(func)
        for op in func.ops():
            if op.kind == "sdivc":
                op.kind = "udivc"
        return n

    monkeypatch.setattr(hls.transforms, "PASSES", tuple(
        dataclasses.replace(p, run=wrong_narrow) if p.name == "narrow-widths" else p
        for p in hls.transforms.PASSES))
    res = cosim(SRC, "div_const", depth={"o": 8}, runs=6, seed=1)
    assert not res.passed
    assert "already disagrees with native execution" in res.diagnosis, res.summary()
