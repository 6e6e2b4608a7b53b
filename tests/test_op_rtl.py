"""The RTL expression of every combinational op kind against its evaluation rule.

``hls.rtl._units.comb_expr`` builds the hardware of an op from its operands (the ``rtl``
builder of its definition in ``hls.ir._ops``); the FSMD and the
pipeline controller put each result in a ``Signal(op.width)`` and read operands as
exact-width unsigned signals.  This test builds the same thing in Amaranth's simulator and
compares every output with :func:`hls.ir.eval_op`, the semantics the IR interpreter, the
pass tests and native execution agree on.  Exhaustive over all operand pairs at 8 bits;
edge values (0, ±1, MIN, MAX, powers of two and their neighbours) and random values at
5, 16, 32 and 64 bits, and at 65, 96 and 128 bits for the multiply (and division by
constants, and the sequential divider) of wide products.  Division by constants gets
every divisor at 8 bits.

It closes the class of the bug where ``x / 4096`` on a negative int32 came out wrong: the
quotient of the reciprocal multiply was sliced to fewer than ``w`` bits, so its negation
was zero-extended instead of wrapping.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from amaranth.hdl import Module, Signal
from amaranth.sim import Simulator

from hls.ir import OPS, Op, Param, Undefined, eval_op
from hls.rtl._units import comb_expr as _expr

BINARY = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "smax", "smin",
          "umax", "umin", "sadd_sat", "ssub_sat", "uadd_sat", "usub_sat"]
UNARY = ["abs", "bitreverse", "ctpop", "ctlz", "cttz"]
PREDS = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"]


def edge_values(w: int) -> list[int]:
    """0, ±1, ±2, MIN, MAX, MIN+1, MAX-1, powers of two and their neighbours."""
    mask = (1 << w) - 1
    vals = {0, 1, 2, 3, mask, mask - 1, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1}
    for k in sorted({1, 2, w // 2 - 1, w // 2, w - 2, w - 1}):
        if 0 < k < w:
            for d in (-1, 0, 1):
                vals.add(((1 << k) + d) & mask)
                vals.add((-(1 << k) + d) & mask)
    return sorted(vals)


def _simulate(ops: list[Op], in_widths: list[int], vectors: list[tuple[int, ...]]) -> list[list[int]]:
    """Outputs of every op's ``_expr`` on every vector (one value per input signal)."""
    ins = [Signal(w, name=f"in{i}") for i, w in enumerate(in_widths)]
    m = Module()
    outs = []
    for op in ops:
        o = Signal(op.width, name=f"o{len(outs)}")
        m.d.comb += o.eq(_expr(op, [ins[p.index] for p in op.operands]))
        outs.append(o)
    res: list[list[int]] = []

    async def bench(ctx):
        for vec in vectors:
            for s, v in zip(ins, vec):
                ctx.set(s, v)
            res.append([ctx.get(o) for o in outs])

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    return res


def _check(ops: list[Op], in_widths: list[int], vectors: list[tuple[int, ...]]) -> int:
    """Compare; returns the number of defined comparisons made (so a test can assert that
    it compared something)."""
    got = _simulate(ops, in_widths, vectors)
    bad, n = [], 0
    for vec, outs in zip(vectors, got):
        for op, g in zip(ops, outs):
            vals = [vec[p.index] for p in op.operands]
            try:
                want = eval_op(op.kind, op.width, op.attrs, vals, [p.width for p in op.operands])
            except Undefined:
                continue
            n += 1
            if g != want and len(bad) < 10:
                bad.append(f"{op.kind}{op.attrs or ''} i{op.width}({', '.join(map(hex, vals))}) "
                           f"= {g:#x}, expected {want:#x}")
    assert not bad, "\n".join(bad)
    return n


def _params(widths: list[int]) -> list[Param]:
    return [Param(w, f"p{i}", i) for i, w in enumerate(widths)]


def _pairs(w: int, seed: int, n_random: int = 600) -> list[tuple[int, int]]:
    if w <= 8:
        return list(itertools.product(range(1 << w), repeat=2))
    rng = random.Random(seed)
    e = edge_values(w)
    pairs = list(itertools.product(e, repeat=2))
    pairs += [(rng.getrandbits(w), rng.getrandbits(w)) for _ in range(n_random)]
    # shift amounts below the width, where shifts are defined
    pairs += [(rng.getrandbits(w), rng.randrange(w)) for _ in range(n_random // 2)]
    return pairs


@pytest.mark.parametrize("w", [8, 5, 16, 32, 64])
def test_binary_and_compare_ops(w):
    p = _params([w, w])
    ops = [Op(width=w, kind=k, operands=p) for k in BINARY]
    ops += [Op(width=1, kind="icmp", operands=p, attrs={"pred": pr}) for pr in PREDS]
    # three-way comparisons: -1/0/1 at a result width of their own (2 bits, a byte, i32)
    ops += [Op(width=rw, kind=k, operands=p) for k in ("scmp", "ucmp") for rw in (2, 8, 32)]
    # ctlz/cttz are priority chains of w muxes; the simulator compiles a chain of 64 into
    # Python nested past its indentation limit, so they are compared up to 32 bits (the
    # builder is one loop over the bits, the same at every width)
    ops += [Op(width=w, kind=k, operands=p[:1]) for k in UNARY
            if w <= 32 or k not in ("ctlz", "cttz")]
    if w % 16 == 0:
        ops.append(Op(width=w, kind="bswap", operands=p[:1]))
    pairs = _pairs(w, seed=w)
    assert _check(ops, [w, w], pairs) > len(pairs) * len(ops) // 2


@pytest.mark.parametrize("w", [65, 96, 128])
def test_wide_multiply(w):
    """The 65..128-bit multiplies of wide ap_int/ap_fixed products (the frontend's
    ``MAX_MULDIV_BITS``), with the adds and subtracts around them: edge and random values."""
    p = _params([w, w])
    ops = [Op(width=w, kind=k, operands=p) for k in ("mul", "add", "sub")]
    pairs = _pairs(w, seed=w, n_random=300)
    assert _check(ops, [w, w], pairs) == len(pairs) * len(ops)


@pytest.mark.parametrize("w", [8, 16, 32, 64])
def test_funnel_shifts_and_select(w):
    p = _params([w, w, w, 1])
    ops = [Op(width=w, kind=k, operands=p[:3]) for k in ("fshl", "fshr")]
    ops.append(Op(width=w, kind="select", operands=[p[3], p[0], p[1]]))
    rng = random.Random(w)
    e = edge_values(w)
    vecs = [(a, b, s, c) for a, b in itertools.product(e[:8], e[-8:])
            for s in (0, 1, w - 1, w, w + 1, 2 * w - 1, rng.getrandbits(w)) for c in (0, 1)]
    vecs += [(rng.getrandbits(w), rng.getrandbits(w), rng.getrandbits(w), rng.getrandbits(1))
             for _ in range(500)]
    assert _check(ops, [w, w, w, 1], vecs) == len(vecs) * len(ops)


def _divisors(w: int, signed: bool) -> list[int]:
    if w <= 8:
        ds = range(-(1 << (w - 1)) + 1, 1 << (w - 1)) if signed else range(1, 1 << w)
        return [d for d in ds if d != 0]
    hi = (1 << (w - 1)) - 1 if signed else (1 << w) - 1
    ds = {1, 2, 3, 5, 7, 10, 100, 641, 4096, 1 << (w // 2), (1 << (w // 2)) + 1, 1 << (w - 2),
          (1 << (w - 2)) + 1, hi, hi - 1, hi // 3}
    if not signed:
        ds |= {1 << (w - 1), (1 << (w - 1)) + 1}
    rng = random.Random(w * 2 + signed)
    ds |= {rng.randrange(1, hi) for _ in range(6)}
    ds = sorted(ds)
    return ds + [-d for d in ds] if signed else ds


@pytest.mark.parametrize("w", [8, 16, 32, 64, 128])
@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_division_by_constants(w, signed):
    p = _params([w])
    kinds = ("sdivc", "sremc") if signed else ("udivc", "uremc")
    ops = [Op(width=w, kind=k, operands=p, attrs={"divisor": d})
           for d in _divisors(w, signed) for k in kinds]
    if w <= 8:
        xs = list(range(1 << w))
    else:
        rng = random.Random(w)
        xs = edge_values(w) + [rng.getrandbits(w) for _ in range(150)]
    n = _check(ops, [w], [(x,) for x in xs])
    undefined = 2 if signed else 0  # INT_MIN / -1 and INT_MIN % -1: poison in LLVM
    assert n == len(xs) * len(ops) - undefined


@pytest.mark.parametrize("src", [1, 5, 8, 16, 32])
def test_conversions(src):
    p = _params([src])
    ops = []
    for dst in (src + 1, 16, 33, 64):
        if dst > src:
            ops += [Op(width=dst, kind=k, operands=p) for k in ("zext", "sext")]
    for dst in range(1, src):
        ops.append(Op(width=dst, kind="trunc", operands=p))
    for lo in range(src):
        for w in {1, src - lo}:
            ops.append(Op(width=w, kind="slice", operands=p, attrs={"lo": lo}))
    q = _params([src, 3])
    ops.append(Op(width=src + 3, kind="concat", operands=q))
    xs = range(1 << src) if src <= 8 else edge_values(src) + [random.Random(src).getrandbits(src)
                                                               for _ in range(200)]
    vecs = [(x, x % 8) for x in xs]
    assert _check(ops, [src, 3], vecs) == len(vecs) * len(ops)


def test_the_check_catches_a_wrong_expression(monkeypatch):
    """The comparison fails when an expression is wrong (here: the old quotient slice)."""
    from amaranth.hdl import Const as AConst
    from amaranth.hdl import Mux

    def old_div_const(op, a):  # the pre-fix negation of a narrow quotient
        x, w = a[0], op.width
        neg = x[w - 1]
        mag = Mux(neg, (-x)[:w], x)
        q = (mag * AConst(1, 1))[12:12 + w]
        return Mux(neg, (-q)[:w], q)

    monkeypatch.setitem(OPS, "sdivc", dataclasses.replace(OPS["sdivc"], rtl=old_div_const))
    p = _params([32])
    op = Op(width=32, kind="sdivc", operands=p, attrs={"divisor": 4096})
    with pytest.raises(AssertionError, match="sdivc"):
        _check([op], [32], [(0xFFFE8E2D,)])


def _check_divider(w: int, k: int, vecs: list[tuple[int, int, int]]) -> int:
    """Simulate ``SeqDivider(w, k)`` on ``(a, b, signed)`` vectors issued back to back and
    compare with the semantics; the outputs must hold the previous result until exactly
    the modelled latency.  Returns how many defined results were compared."""
    from hls.rtl import SeqDivider
    from hls.targets import divider_latency

    dut = SeqDivider(w, k)
    assert dut.latency == divider_latency(w, k) == -(-w // k) + 2
    got: list[tuple[int, int]] = []
    early: list[str] = []

    async def bench(ctx):
        prev = (0, 0)
        for a, b, s in vecs:
            ctx.set(dut.a, a)
            ctx.set(dut.b, b)
            ctx.set(dut.signed, s)
            ctx.set(dut.start, 1)
            await ctx.tick()                   # the issue step ends: operands captured
            ctx.set(dut.start, 0)
            for _ in range(dut.latency - 2):
                await ctx.tick()
            held = (ctx.get(dut.quot), ctx.get(dut.rem))
            if held != prev and len(early) < 4:
                early.append(f"({a:#x}, {b:#x}, signed={s}): outputs changed before the latency")
            await ctx.tick()                   # valid from step issue + latency
            prev = (ctx.get(dut.quot), ctx.get(dut.rem))
            got.append(prev)

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert not early, f"SeqDivider({w}, {k}): " + "\n".join(early)
    bad, n = [], 0
    for (a, b, s), (q, r) in zip(vecs, got):
        kq, kr = ("sdiv", "srem") if s else ("udiv", "urem")
        if b == 0:
            # undefined in LLVM; the unit's convention: all-ones quotient magnitude (given
            # the dividend's sign when signed, i.e. 1 for a negative dividend) and the
            # dividend as remainder
            wq = 1 if s and a >> (w - 1) else (1 << w) - 1
            wr = a
        else:
            try:
                wq = eval_op(kq, w, {}, [a, b], [w, w])
                wr = eval_op(kr, w, {}, [a, b], [w, w])
            except Undefined:                  # signed overflow MIN / -1
                continue
        n += 1
        if (q, r) != (wq, wr) and len(bad) < 8:
            bad.append(f"{kq}/{kr} i{w}({a:#x}, {b:#x}) = ({q:#x}, {r:#x}), expected ({wq:#x}, {wr:#x})")
    assert not bad, f"SeqDivider({w}, {k}):\n" + "\n".join(bad)
    return n


@pytest.mark.parametrize("w", range(1, 7))
def test_sequential_divider_exhaustive(w):
    """Every operand pair (signed and unsigned, divisor 0 included) at 1..6 bits, for k = 1,
    2, 3, 4, 8 quotient bits per cycle (k <= w) and k = w: exact results at the modelled
    latency, whether or not k divides w."""
    vecs = [(a, b, s) for a in range(1 << w) for b in range(1 << w) for s in (0, 1)]
    for k in sorted({k for k in (1, 2, 3, 4, 8) if k <= w} | {w}):
        assert _check_divider(w, k, vecs) > len(vecs) * 3 // 4


@pytest.mark.parametrize("w,k", [(8, 1), (8, 3), (8, 8), (16, 1), (16, 3), (16, 4),
                                 (32, 1), (32, 2), (32, 3), (32, 4), (32, 8),
                                 (64, 1), (64, 2), (64, 3), (64, 4), (64, 8),
                                 (96, 3), (128, 1), (128, 8)])
def test_sequential_divider(w, k):
    """The multi-cycle divider of udiv/sdiv/urem/srem with a variable divisor, retiring k
    bits per cycle, clocked for its modelled latency (hls.targets.divider_latency), against
    the same semantics: edge values and random operands."""
    rng = random.Random(w * 10 + k)
    e = edge_values(w)
    if w == 8:
        vecs = [(a, b, s) for a in range(256) for b in e for s in (0, 1)]
    else:
        vecs = [(a, b, s) for a in e[::2] for b in e[1::2] for s in (0, 1)]
        vecs += [(rng.getrandbits(w), rng.getrandbits(rng.randrange(1, w + 1)), rng.getrandbits(1))
                 for _ in range(150)]
    assert _check_divider(w, k, vecs) > len(vecs) // 2
