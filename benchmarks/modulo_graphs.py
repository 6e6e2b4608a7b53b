"""A corpus of loop dependence graphs for the modulo scheduler (``bench_modulo.py``).

:func:`dsp_loops` builds classic DSP loop bodies by hand (FIR direct and transposed, IIR
biquad DF-I/DF-II, IIR lattice, radix-2 FFT butterfly, complex MAC, dot product,
matrix-multiply inner loop, 1-D/2-D stencils, histogram, prefix sum, a divider loop, and
recurrence rings whose forced offsets collide in the modulo reservation table) in
several variants (int/fp, limited multipliers, memory ports, banking, clock);
:func:`random_loops` builds seeded random graphs with recurrences and resource limits
(and, ``tight``, graphs where recurrences and resources compete); :func:`all_loops` is
93 hand-built loops, 60 random and 20 tight random graphs.  Every graph is a :class:`ModuloProblem` named
``family/variant``.

Operator figures (10 ns clock unless a variant says otherwise), in line with
``hls.targets`` where it has them: integer add/sub 2.0 ns, compare 1.2 ns, select 0.8 ns,
shift 0.6 ns (combinational, unshared); integer multiply pipelined DSP, latency 2 (a
variant 1 or 3), clock-to-out 0.2 ns, class ``mul``; fp add/sub latency 4, fp multiply
latency 3 (classes ``fadd``, ``fmul``); load latency 1, RAM clock-to-out 1.5 ns; store
combinational 0.5 ns; every memory ``mem:NAME`` has 2 ports unless said otherwise, a ROM
duplicated ``c`` times has ``2c`` ports; a sequential divider has latency = occupancy 18.
Memory order as in ``hls.scheduling._function``: load -> store of the same location may
share a cycle (delay 0); store -> a later iteration's load needs delay 1.
"""

from __future__ import annotations

import random

from hls.scheduling import ModuloEdge, ModuloProblem, SchedOp
from hls.scheduling._modulo import rec_mii

#: kind -> (latency, delay_ns, resource class, occupancy)
INT_OPS = {
    "add": (0, 2.0, None, 1), "sub": (0, 2.0, None, 1), "cmp": (0, 1.2, None, 1),
    "sel": (0, 0.8, None, 1), "shr": (0, 0.6, None, 1), "shl": (0, 0.6, None, 1),
    "mul": (2, 0.2, "mul", 1), "div": (18, 0.2, "div", 18),
}
FP_OPS = {
    "add": (4, 0.2, "fadd", 1), "sub": (4, 0.2, "fadd", 1), "mul": (3, 0.2, "fmul", 1),
    "cmp": (2, 0.2, "fcmp", 1), "sel": (0, 0.8, None, 1), "div": (12, 0.2, "fdiv", 12),
}


class LoopBuilder:
    """Small helper: ops by kind and number type, memories as port classes, edges."""

    def __init__(self, name: str, fp: bool = False, clock: float = 10.0, mul_lat: int = 2):
        self.name, self.fp, self.clock = name, fp, clock
        self.ops: list[SchedOp] = []
        self.edges: list[ModuloEdge] = []
        self.res: dict[str, int] = {}
        self.table = dict(FP_OPS if fp else INT_OPS)
        if not fp:
            self.table["mul"] = (mul_lat, 0.2, "mul", 1)

    def op(self, kind: str, *ins: int | tuple[int, int], name: str | None = None,
           ints: bool = False) -> int:
        """A new op; ``ins`` are producer ids or ``(id, distance)``.  ``ints``: use the
        integer table even in a fp loop (address and index arithmetic)."""
        lat, delay, res, occ = (INT_OPS if ints else self.table)[kind]
        i = len(self.ops)
        self.ops.append(SchedOp(i, name or f"{kind}{i}", lat, delay, res, occ))
        for x in ins:
            src, dist = x if isinstance(x, tuple) else (x, 0)
            self.edges.append(ModuloEdge(src, i, dist))
        return i

    def iv(self) -> int:
        """The induction variable ``i = i + 1`` (an add with a distance-1 self edge)."""
        i = self.op("add", name="iv", ints=True)
        self.edges.append(ModuloEdge(i, i, 1))
        return i

    def mem(self, name: str, ports: int = 2) -> str:
        cls = f"mem:{name}"
        self.res[cls] = ports
        return cls

    def load(self, mem: str, *addr: int | tuple[int, int], name: str | None = None) -> int:
        i = len(self.ops)
        self.ops.append(SchedOp(i, name or f"ld{i}", 1, 1.5, mem, 1))
        for x in addr:
            src, dist = x if isinstance(x, tuple) else (x, 0)
            self.edges.append(ModuloEdge(src, i, dist))
        return i

    def store(self, mem: str, *ins: int | tuple[int, int], name: str | None = None) -> int:
        i = len(self.ops)
        self.ops.append(SchedOp(i, name or f"st{i}", 0, 0.5, mem, 1))
        for x in ins:
            src, dist = x if isinstance(x, tuple) else (x, 0)
            self.edges.append(ModuloEdge(src, i, dist))
        return i

    def order(self, src: int, dst: int, delay: int, distance: int = 0) -> None:
        self.edges.append(ModuloEdge(src, dst, distance, delay))

    def limit(self, cls: str, units: int | None) -> None:
        if units is not None:
            self.res[cls] = units

    def build(self) -> ModuloProblem:
        return ModuloProblem(tuple(self.ops), tuple(self.edges), self.res, self.clock, self.name)


def _tag(fp: bool, **kw: object) -> str:
    parts = ["fp" if fp else "int"] + [f"{k}{v}" for k, v in kw.items() if v is not None]
    return "-".join(parts)


# -- DSP loops ---------------------------------------------------------------------------


def fir_direct(taps: int, fp: bool, muls: int | None = None, clock: float = 10.0) -> ModuloProblem:
    """y[n] = sum_k h[k] x[n-k]: one load, the delay line as distance-k edges, a chain of
    adds (direct form), constant coefficients."""
    b = LoopBuilder(f"fir_direct/{_tag(fp, taps=taps, mul=muls, clk=clock if clock != 10 else None)}",
                    fp, clock)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    x = b.load(xm, i, name="x")
    prods = [b.op("mul", (x, k), name=f"p{k}") for k in range(taps)]
    acc = prods[0]
    for k in range(1, taps):
        acc = b.op("add", acc, prods[k], name=f"a{k}")
    b.store(ym, i, acc, name="y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def fir_transposed(taps: int, fp: bool, muls: int | None = None) -> ModuloProblem:
    """Transposed FIR: every product of x[n] is added to the previous iteration's partial
    sum of the next tap (distance-1 edges, no recurrence cycle)."""
    b = LoopBuilder(f"fir_transposed/{_tag(fp, taps=taps, mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    x = b.load(xm, i, name="x")
    prods = [b.op("mul", x, name=f"p{k}") for k in range(taps)]
    s = b.op("add", prods[taps - 2], prods[taps - 1], name=f"s{taps - 2}")
    for k in range(taps - 3, -1, -1):
        s = b.op("add", prods[k], (s, 1), name=f"s{k}")
    b.store(ym, i, s, name="y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def biquad_df1(fp: bool, muls: int | None = None) -> ModuloProblem:
    """IIR biquad, direct form I: feed-forward on x[n-k], feedback y[n-1], y[n-2]."""
    b = LoopBuilder(f"biquad_df1/{_tag(fp, mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    x = b.load(xm, i, name="x")
    b0, b1, b2 = (b.op("mul", (x, k), name=f"b{k}") for k in range(3))
    s1 = b.op("add", b0, b1, name="s1")
    s2 = b.op("add", s1, b2, name="s2")
    a1 = b.op("mul", name="a1")
    a2 = b.op("mul", name="a2")
    s3 = b.op("sub", s2, a1, name="s3")
    y = b.op("sub", s3, a2, name="y")
    b.edges += [ModuloEdge(y, a1, 1), ModuloEdge(y, a2, 2)]
    b.store(ym, i, y, name="st_y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def biquad_df2(fp: bool, muls: int | None = None) -> ModuloProblem:
    """IIR biquad, direct form II: the state w[n] = x - a1 w[n-1] - a2 w[n-2]."""
    b = LoopBuilder(f"biquad_df2/{_tag(fp, mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    x = b.load(xm, i, name="x")
    a1 = b.op("mul", name="a1")
    a2 = b.op("mul", name="a2")
    t = b.op("sub", x, a1, name="t")
    w = b.op("sub", t, a2, name="w")
    b.edges += [ModuloEdge(w, a1, 1), ModuloEdge(w, a2, 2)]
    m0 = b.op("mul", w, name="b0")
    m1 = b.op("mul", (w, 1), name="b1")
    m2 = b.op("mul", (w, 2), name="b2")
    y1 = b.op("add", m0, m1, name="y1")
    y = b.op("add", y1, m2, name="y")
    b.store(ym, i, y, name="st_y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def lattice_iir(stages: int, fp: bool, muls: int | None = None) -> ModuloProblem:
    """All-pole IIR lattice: f[m-1] = f[m] - k[m] g[m-1](n-1), g[m] = k[m] f[m-1] +
    g[m-1](n-1), g[0] = f[0] = y."""
    b = LoopBuilder(f"lattice/{_tag(fp, stages=stages, mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    f = b.load(xm, i, name="x")
    pending: list[tuple[int, int]] = []  # (op needing g[m-1](n-1), m-1)
    g: dict[int, int] = {}
    fs: dict[int, int] = {}
    for m in range(stages, 0, -1):
        ka = b.op("mul", name=f"kg{m}")
        pending.append((ka, m - 1))
        f = b.op("sub", f, ka, name=f"f{m - 1}")
        fs[m - 1] = f
    g[0] = fs[0]
    for m in range(1, stages):
        kb = b.op("mul", fs[m - 1], name=f"kf{m}")
        g[m] = b.op("add", kb, name=f"g{m}")
        pending.append((g[m], m - 1))
    for dst, m in pending:
        b.edges.append(ModuloEdge(g[m], dst, 1))
    b.store(ym, i, fs[0], name="y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def fft_butterfly(fp: bool, banks: int, muls: int | None = None) -> ModuloProblem:
    """Radix-2 DIT butterfly: a' = a + w*b, b' = a - w*b on complex data; ``banks``: 1 (one
    dual-port memory for all 8 accesses), 2 (re/im split), 4 (a/b x re/im); twiddles from
    a dual-port ROM."""
    b = LoopBuilder(f"fft/{_tag(fp, banks=banks, mul=muls)}", fp)
    names = {1: ["d"] * 4, 2: ["re", "im", "re", "im"], 4: ["are", "aim", "bre", "bim"]}[banks]
    mems = [b.mem(n) for n in names]
    tw = b.mem("tw_rom")
    i = b.iv()
    ia = b.op("shl", i, name="ia", ints=True)
    ib = b.op("add", ia, name="ib", ints=True)
    ar = b.load(mems[0], ia, name="ar")
    ai = b.load(mems[1], ia, name="ai")
    br = b.load(mems[2], ib, name="br")
    bi = b.load(mems[3], ib, name="bi")
    wr = b.load(tw, i, name="wr")
    wi = b.load(tw, i, name="wi")
    m1 = b.op("mul", br, wr, name="brwr")
    m2 = b.op("mul", bi, wi, name="biwi")
    m3 = b.op("mul", br, wi, name="brwi")
    m4 = b.op("mul", bi, wr, name="biwr")
    tr = b.op("sub", m1, m2, name="tr")
    ti = b.op("add", m3, m4, name="ti")
    outs = [b.op("add", ar, tr, name="ar2"), b.op("add", ai, ti, name="ai2"),
            b.op("sub", ar, tr, name="br2"), b.op("sub", ai, ti, name="bi2")]
    loads = [ar, ai, br, bi]
    for k, (o, mem) in enumerate(zip(outs, mems)):
        st = b.store(mem, ia if k < 2 else ib, o, name=f"st{k}")
        b.order(loads[k], st, 0)  # in place: the load reads before the store writes
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def cmac(fp: bool, muls: int | None = None) -> ModuloProblem:
    """Complex multiply-accumulate: acc += a[i] * b[i] (two accumulator recurrences)."""
    b = LoopBuilder(f"cmac/{_tag(fp, mul=muls)}", fp)
    am, bm = b.mem("a"), b.mem("b")
    i = b.iv()
    ar, ai = b.load(am, i, name="ar"), b.load(am, i, name="ai")
    br, bi = b.load(bm, i, name="br"), b.load(bm, i, name="bi")
    p1, p2 = b.op("mul", ar, br, name="p1"), b.op("mul", ai, bi, name="p2")
    p3, p4 = b.op("mul", ar, bi, name="p3"), b.op("mul", ai, br, name="p4")
    re = b.op("sub", p1, p2, name="re")
    im = b.op("add", p3, p4, name="im")
    acc_r = b.op("add", re, name="acc_re")
    acc_i = b.op("add", im, name="acc_im")
    b.edges += [ModuloEdge(acc_r, acc_r, 1), ModuloEdge(acc_i, acc_i, 1)]
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def dot(fp: bool, partial: int = 1, ports: int = 2, same_mem: bool = False) -> ModuloProblem:
    """acc += a[i] * b[i]; ``partial`` interleaved partial sums (accumulator distance)."""
    b = LoopBuilder(f"dot/{_tag(fp, partial=partial, ports=ports, shared=1 if same_mem else None)}", fp)
    am = b.mem("a", ports)
    bm = am if same_mem else b.mem("b", ports)
    i = b.iv()
    x, y = b.load(am, i, name="a"), b.load(bm, i, name="b")
    p = b.op("mul", x, y, name="p")
    acc = b.op("add", p, name="acc")
    b.edges.append(ModuloEdge(acc, acc, partial))
    return b.build()


def matmul_inner(fp: bool, same_mem: bool = False, ports: int = 2) -> ModuloProblem:
    """sum += A[i][k] * B[k][j] with the address arithmetic (row-major, shift by log N)."""
    b = LoopBuilder(f"matmul/{_tag(fp, shared=1 if same_mem else None, ports=ports)}", fp)
    am = b.mem("A", ports)
    bm = am if same_mem else b.mem("B", ports)
    k = b.iv()
    arow = b.op("add", k, name="addrA", ints=True)  # i*N + k (i*N hoisted)
    kn = b.op("shl", k, name="kN", ints=True)
    baddr = b.op("add", kn, name="addrB", ints=True)
    x, y = b.load(am, arow, name="a"), b.load(bm, baddr, name="b")
    p = b.op("mul", x, y, name="p")
    acc = b.op("add", p, name="sum")
    b.edges.append(ModuloEdge(acc, acc, 1))
    return b.build()


def stencil1d(fp: bool, window: bool, muls: int | None = None) -> ModuloProblem:
    """y[i] = c0 x[i-1] + c1 x[i] + c2 x[i+1]: three loads, or one with a sliding window
    (distance edges)."""
    b = LoopBuilder(f"stencil1d/{_tag(fp, window=int(window), mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    if window:
        x2 = b.load(xm, i, name="x_next")
        xs = [(x2, 2), (x2, 1), x2]
    else:
        im1 = b.op("sub", i, name="im1", ints=True)
        ip1 = b.op("add", i, name="ip1", ints=True)
        xs = [b.load(xm, im1, name="xm1"), b.load(xm, i, name="x0"), b.load(xm, ip1, name="xp1")]
    ps = [b.op("mul", x, name=f"c{k}x") for k, x in enumerate(xs)]
    s = b.op("add", ps[0], ps[1], name="s1")
    s = b.op("add", s, ps[2], name="s2")
    b.store(ym, i, s, name="y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def stencil2d(fp: bool, linebuf: bool, muls: int | None = None) -> ModuloProblem:
    """5-point Jacobi: y = c (n + s + e + w + ctr).  Without line buffers 5 loads of one
    dual-port memory; with them, one load per iteration plus two dual-port line buffers
    (read the old row, write the new) and distance edges along the row."""
    b = LoopBuilder(f"stencil2d/{_tag(fp, linebuf=int(linebuf), mul=muls)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    j = b.iv()
    if linebuf:
        l0, l1 = b.mem("lb0"), b.mem("lb1")
        south = b.load(xm, j, name="south")
        mid = b.load(l1, j, name="mid")       # row i
        north = b.load(l0, j, name="north")   # row i-1
        w0 = b.store(l0, j, mid, name="lb0_w")
        w1 = b.store(l1, j, south, name="lb1_w")
        b.order(north, w0, 0)
        b.order(mid, w1, 0)
        ctr, west, east = (mid, 1), (mid, 2), mid  # the window trails by one column
        terms = [north, south, ctr, west, east]
    else:
        addrs = [b.op("sub", j, name="n_addr", ints=True), b.op("add", j, name="s_addr", ints=True),
                 j, b.op("sub", j, name="w_addr", ints=True), b.op("add", j, name="e_addr", ints=True)]
        terms = [b.load(xm, a, name=n) for a, n in zip(addrs, ["n", "s", "c", "w", "e"])]
    s = b.op("add", terms[0], terms[1], name="t1")
    s = b.op("add", s, terms[2], name="t2")
    s = b.op("add", s, terms[3], name="t3")
    s = b.op("add", s, terms[4], name="t4")
    y = b.op("mul", s, name="scale")
    b.store(ym, j, y, name="y")
    b.limit("fmul" if fp else "mul", muls)
    return b.build()


def histogram(fp: bool, ports: int = 2, shared: bool = False) -> ModuloProblem:
    """hist[x[i]] += w: read-modify-write through memory; the store must precede the next
    iteration's load (delay 1, distance 1) since the addresses may coincide."""
    b = LoopBuilder(f"histogram/{_tag(fp, ports=ports, shared=1 if shared else None)}", fp)
    hm = b.mem("hist", ports)
    dm = hm if shared else b.mem("data")
    i = b.iv()
    v = b.load(dm, i, name="x")
    idx = b.op("shr", v, name="bin", ints=True)
    h = b.load(hm, idx, name="h")
    if fp:
        w = b.load(dm, i, name="w")
        h1 = b.op("add", h, w, name="h1")
    else:
        h1 = b.op("add", h, name="h1")
    st = b.store(hm, idx, h1, name="st_h")
    b.order(h, st, 0)
    b.order(st, h, 1, 1)
    return b.build()


def prefix(fp: bool, kind: str = "sum") -> ModuloProblem:
    """s[i] = s[i-1] + x[i] (``sum``) or a running maximum (``max``: compare + select)."""
    b = LoopBuilder(f"prefix/{_tag(fp, kind=kind)}", fp)
    xm, ym = b.mem("x"), b.mem("y")
    i = b.iv()
    x = b.load(xm, i, name="x")
    if kind == "sum":
        s = b.op("add", x, name="s")
        b.edges.append(ModuloEdge(s, s, 1))
    else:
        c = b.op("cmp", x, name="gt")
        s = b.op("sel", c, x, name="m")
        b.edges += [ModuloEdge(s, c, 1), ModuloEdge(s, s, 1)]
    b.store(ym, i, s, name="y")
    return b.build()


def normalise(units: int) -> ModuloProblem:
    """y[i] = x[i] / d[i] on ``units`` non-pipelined sequential dividers (occupancy 18)."""
    b = LoopBuilder(f"divide/int-units{units}", False)
    xm, dm, ym = b.mem("x"), b.mem("d"), b.mem("y")
    i = b.iv()
    q = b.op("div", b.load(xm, i, name="x"), b.load(dm, i, name="d"), name="q")
    b.store(ym, i, q, name="y")
    b.limit("div", units)
    return b.build()


def conflict_ring(k: int, lat: int, dist: int) -> ModuloProblem:
    """``k`` multiplies of latency ``lat`` in a ring of distance ``dist`` on one multiplier:
    at II = RecMII = k*lat/dist every offset is forced to ``lat``, a multiple of the II when
    ``lat == II``, so all of them want the same modulo slot and the II must grow."""
    b = LoopBuilder(f"conflict/k{k}-lat{lat}-dist{dist}", False, mul_lat=lat)
    ms = [b.op("mul", name=f"m{j}") for j in range(k)]
    for a, c in zip(ms, ms[1:]):
        b.edges.append(ModuloEdge(a, c))
    b.edges.append(ModuloEdge(ms[-1], ms[0], dist))
    b.limit("mul", 1)
    return b.build()


def dsp_loops() -> list[ModuloProblem]:
    out: list[ModuloProblem] = []
    for fp in (False, True):
        for taps in (4, 8, 16):
            for muls in (None, 2):
                out.append(fir_direct(taps, fp, muls))
                out.append(fir_transposed(taps, fp, muls))
        for muls in (None, 2, 1):
            out.append(biquad_df1(fp, muls))
            out.append(biquad_df2(fp, muls))
            out.append(cmac(fp, muls))
        for stages in (2, 4):
            out.append(lattice_iir(stages, fp))
        out.append(lattice_iir(4, fp, 2))
        for banks in (1, 2, 4):
            for muls in (None, 2):
                out.append(fft_butterfly(fp, banks, muls))
        out.append(dot(fp))
        out.append(dot(fp, ports=1, same_mem=True))
        out.append(matmul_inner(fp))
        out.append(matmul_inner(fp, same_mem=True, ports=1))
        for window in (False, True):
            out.append(stencil1d(fp, window))
        for linebuf in (False, True):
            out.append(stencil2d(fp, linebuf))
        out.append(histogram(fp))
        out.append(histogram(fp, ports=1, shared=True))
        out.append(prefix(fp, "sum"))
    out.append(fir_direct(8, False, None, clock=5.0))
    out.append(fir_direct(16, False, 4, clock=3.33))
    out.append(dot(True, partial=4))
    out.append(stencil1d(True, True, 1))
    out.append(stencil2d(True, True, 1))
    out.append(prefix(False, "max"))
    out.append(normalise(1))
    out.append(normalise(2))
    out += [conflict_ring(2, 3, 2), conflict_ring(2, 4, 2), conflict_ring(3, 3, 3)]
    return out


# -- random graphs -------------------------------------------------------------------------


def random_loop(seed: int, n: int | None = None, tight: bool = False) -> ModuloProblem:
    """A random loop body of ``n`` ops (5-60 by default from the seed): a DAG of int/fp
    arithmetic, loads and stores on 1-3 memories (1 or 2 ports), recurrences as data back
    edges of distance 1-3 and store -> load memory recurrences, random unit limits.
    ``tight``: more recurrences (about one per four ops) and every unit class limited to the
    fewest units that keep ResMII <= RecMII, so that recurrences and resources compete."""
    rng = random.Random(seed)
    n = n if n is not None else rng.randint(5, 60 if not tight else 40)
    fp = rng.random() < 0.4
    b = LoopBuilder(f"{'tight' if tight else 'random'}/s{seed}-n{n}", fp,
                    clock=rng.choice([10.0, 10.0, 5.0]), mul_lat=rng.choice([1, 2, 3]))
    mems = [b.mem(f"m{k}", rng.choice([1, 2, 2])) for k in range(rng.randint(1, 3))]
    i = b.iv()
    values = [i]
    loads: list[tuple[int, str]] = []
    stores: list[tuple[int, str]] = []
    kinds = ["add", "add", "sub", "mul", "mul", "cmp", "sel", "shr", "load", "load", "store"]
    if rng.random() < 0.1:
        kinds.append("div")
    while len(b.ops) < n:
        kind = rng.choice(kinds)
        srcs = rng.sample(values, min(len(values), rng.choice([1, 2, 2])))
        if kind == "load":
            mem = rng.choice(mems)
            x = b.load(mem, *srcs)
            loads.append((x, mem))
            values.append(x)
        elif kind == "store":
            mem = rng.choice(mems)
            x = b.store(mem, *srcs)
            stores.append((x, mem))
            for ld, m in loads:  # program order: load -> store of the same memory
                if m == mem and rng.random() < 0.3:
                    b.order(ld, x, 0)
        else:
            ints = kind in ("shr",) or (kind == "div" and fp)
            values.append(b.op(kind, *srcs, ints=ints))
    # recurrences: a later value feeds an earlier op of the next iterations
    for _ in range(rng.randint(1, max(1, n // (4 if tight else 10)))):
        if len(values) < 3:
            break
        lo = rng.randrange(1, len(values) - 1)
        dst, src = values[lo], rng.choice(values[lo + 1:])
        b.edges.append(ModuloEdge(src, dst, rng.choice([1, 1, 2, 3])))
    for st, mem in stores:
        for ld, m in loads:
            if m == mem and rng.random() < 0.3:
                b.order(st, ld, 1, rng.choice([1, 1, 2]))
    classes = {op.resource for op in b.ops if op.resource and not op.resource.startswith("mem:")}
    if tight:
        # as few units as keep ResMII <= RecMII: the busiest classes saturate at the II the
        # recurrences impose, where every slot counts
        rec = rec_mii(b.build())[0]
        for cls in sorted(classes):
            busy = sum(op.occupancy for op in b.ops if op.resource == cls)
            b.limit(cls, max(1, -(-busy // rec)))
        return b.build()
    for cls in sorted(classes):
        if rng.random() < 0.6:
            b.limit(cls, rng.randint(1, 3))
    return b.build()


def random_loops(count: int = 60, seed: int = 1, tight: bool = False) -> list[ModuloProblem]:
    return [random_loop(seed * 1000 + k, tight=tight) for k in range(count)]


def all_loops() -> list[ModuloProblem]:
    return dsp_loops() + random_loops() + random_loops(20, seed=2, tight=True)


def family(problem: ModuloProblem) -> str:
    return problem.name.split("/", 1)[0]
