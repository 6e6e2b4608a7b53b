"""The operators of the datapath, shared by the FSMD and the pipeline controller: the
combinational expression of an op and the multi-cycle units."""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, signed

from ..errors import RTLError
from ..ir import op_def
from ..targets import divider_latency
from ..targets._model import mul_unit_signs, staged_tiles


def comb_expr(op, a: list):
    """The combinational expression of ``op`` over its operand values ``a``: the ``rtl``
    builder of its definition (:mod:`hls.ir._ops`)."""
    build = op_def(op.kind).rtl
    if build is None:
        raise RTLError(f"internal error: no hardware for op kind '{op.kind}'")
    return build(op, a)


class SeqDivider(Elaboratable):
    """Sequential restoring divider retiring ``bits_per_cycle`` (``k``) quotient bits per
    clock (``k`` restoring steps chained combinationally), signed or unsigned per operation.

    Timing (``L = ceil(width / k) + 2`` = :func:`hls.targets.divider_latency`): the operands
    are captured (and made non-negative) at the clock edge that ends the issue step,
    ``ceil(width / k)`` iterations follow, and one more edge fixes the signs into the output
    registers, so ``quot``/``rem`` are valid from step ``issue + L`` on and hold until the
    next start.  When ``k`` does not divide ``width`` the dividend is zero-extended to
    ``ceil(width / k) * k`` bits: the leading restoring steps then see zero bits, produce
    zero quotient bits and leave the partial remainder at 0 (all-ones quotient bits when
    dividing by zero).  Division by zero gives an all-ones quotient magnitude and the
    dividend as remainder (its LLVM result is undefined anyway).
    """

    def __init__(self, width: int, bits_per_cycle: int = 1):
        if not 1 <= bits_per_cycle <= width:
            raise RTLError(f"internal error: divider of {width} bits retiring "
                           f"{bits_per_cycle} bits per cycle")
        self.width = width
        self.bits_per_cycle = bits_per_cycle
        self.iterations = -(-width // bits_per_cycle)
        self.latency = divider_latency(width, bits_per_cycle)
        assert self.latency == self.iterations + 2, "divider latency model and unit disagree"
        self.start = Signal()
        self.signed = Signal()
        self.a = Signal(width)
        self.b = Signal(width)
        self.quot = Signal(width)
        self.rem = Signal(width)

    def elaborate(self, platform):
        m = Module()
        w, k, n = self.width, self.bits_per_cycle, self.iterations
        p = n * k                       # padded dividend width
        quo = Signal(p)                 # dividend bits shifted out, quotient bits shifted in
        acc = Signal(w)                 # partial remainder
        den = Signal(w)
        neg_q = Signal()
        neg_r = Signal()
        count = Signal(range(n + 2))
        a_neg = self.signed & self.a[w - 1]
        b_neg = self.signed & self.b[w - 1]
        # k chained restoring steps
        acc_i, quo_i = acc, quo
        for j in range(k):
            sfx = f"_{j}" if k > 1 else ""
            shifted = Signal(w + 1, name=f"shifted{sfx}")  # (acc << 1) | msb(quo)
            diff = Signal(w + 2, name=f"diff{sfx}")
            m.d.comb += [shifted.eq(Cat(quo_i[p - 1], acc_i)), diff.eq(shifted - den)]
            fits = ~diff[w + 1]         # no borrow: subtract
            acc_n = Signal(w, name=f"acc_next{sfx}")
            m.d.comb += acc_n.eq(Mux(fits, diff[:w], shifted[:w]))
            acc_i, quo_i = acc_n, Cat(fits, quo_i[:p - 1])
        with m.If(self.start):
            m.d.sync += [
                quo.eq(Mux(a_neg, -self.a, self.a)[:w]),
                den.eq(Mux(b_neg, -self.b, self.b)),
                acc.eq(0),
                neg_q.eq(a_neg ^ b_neg),
                neg_r.eq(a_neg),
                count.eq(n + 1),
            ]
        with m.Elif(count > 1):
            m.d.sync += [count.eq(count - 1), acc.eq(acc_i), quo.eq(quo_i)]
        with m.Elif(count == 1):
            m.d.sync += [
                count.eq(0),
                self.quot.eq(Mux(neg_q, -quo[:w], quo[:w])),
                self.rem.eq(Mux(neg_r, -acc, acc)),
            ]
        return m


class PipelinedMul(Elaboratable):
    """A multiply ``o = (a * b) mod 2**width`` in two pipeline stages, as the ECP5 target
    builds multiplies that span several MULT18X18D blocks (``TechParams.mul_tile``):

    1. the partial products ``a[i:i+t] * b[j:j+t]`` (each one DSP block) of the tiles whose
       offset is below ``width``, registered;
    2. their shifted sum truncated to ``width`` bits, registered.

    The registers advance when ``ce`` is 1 (the FSM's ``advance``; 1 in a pipeline), so
    ``o`` holds the product of the operands of two advancing cycles before.  Only the
    low ``width`` bits are kept, so the operands' signedness does not matter (as for the
    op's combinational form, ``(a * b)[:width]``), but an operand sign-extended from
    ``sa``/``sb`` bits is sliced as a signed value of those bits (unsigned 17-bit slices
    below a signed top one, ``staged_tiles``): fewer tiles than the sign copies' slices
    would take.  ``used``: the low bits of the product
    the design reads (``hls.estimate.demanded_bits``; default ``width``): only the tiles
    below it are built, and ``o``'s bits above it are 0.  Yosys does not find those
    tiles dead when the high bits go round a loop (an accumulator whose top bits nothing
    reads), so a 64-bit product of which 46 bits are used is 6 MULT18X18D, not 10."""

    def __init__(self, width: int, wa: int, wb: int, tile: int, used: int | None = None,
                 sa: int | None = None, sb: int | None = None):
        self.width, self.tile = width, tile
        self.used = min(used or width, width)
        #: an operand sign-extended from these bits (``hls.targets._model.mul_signed_bits``):
        #: its slices below them, the top one signed (``staged_tiles``)
        self.sa, self.sb = sa, sb
        self.a = Signal(wa, name="a")
        self.b = Signal(wb, name="b")
        self.ce = Signal(name="ce")
        self.o = Signal(width, name="o")

    def elaborate(self, platform):
        m = Module()
        w = self.used
        pps = []
        for k, (xl, xh, xs, yl, yh, ys, keep) in enumerate(staged_tiles(
                w, self.tile, len(self.a), len(self.b), self.sa, self.sb)):
            x, y = self.a[xl:xh], self.b[yl:yh]
            if xs or ys:        # a signed product, sign-extended to the sum's bits
                r = Signal(signed(keep), name=f"pp{k}")
                prod = (x.as_signed() if xs else x) * (y.as_signed() if ys else y)
                ext = Signal(signed(w - (xl + yl)), name=f"pp{k}_x")
                m.d.comb += ext.eq(r)
                term = ext.as_unsigned()
            else:
                r = Signal(keep, name=f"pp{k}")
                prod = (x * y)[:keep]
                term = r
            with m.If(self.ce):
                m.d.sync += r.eq(prod)
            pps.append((term, xl + yl))
        total = sum(((r << off)[:w] for r, off in pps[1:]), start=pps[0][0][:w])
        with m.If(self.ce):
            m.d.sync += self.o.eq(total[:w])
        return m


def pipelined_mul(op, target, used: int | None = None, ops=None) -> PipelinedMul:
    """The two-stage multiplier of a ``mul`` op the target pipelines (its timing has
    latency 2: ``TechParams.mul_tile``); ``used``: the product's bits the design reads
    (the widest of a shared unit's ops: :meth:`FunctionRTL.product_bits`); ``ops``: the
    ops a shared unit serves (default ``[op]``), whose operands decide its signed
    slices (:func:`mul_unit_signs`)."""
    from ..scheduling import op_timing     # (scheduling imports the RTL's units)

    lat = op_timing(target, op).latency
    if lat != 2:
        raise RTLError(f"internal error: a pipelined multiply of latency {lat}, not 2")
    return PipelinedMul(op.width, op.operands[0].width, op.operands[1].width,
                        target.tech.mul_tile, used, *mul_unit_signs(ops or [op]))


def src_attrs(op) -> dict:
    """The ``hls_src`` attribute ("file:line") of the wire that carries ``op``'s value, so
    that a timing path reported on the Verilog (``hls.pnr``) maps back to C source lines."""
    return {"hls_src": f"{op.loc.file}:{op.loc.line}"} if op.loc and op.loc.line else {}
