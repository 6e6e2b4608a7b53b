"""Loop-carried memory dependence distances (hls.analysis._deps).

The brute-force test builds random single-block loops whose two accesses (a load and a
store of one memory) have addresses computed from the induction phi and loop-invariant
symbols by random add/sub/mul/shl/or/trunc/zext/sext/slice trees, evaluates the addresses
of every iteration for many concrete symbol values, and checks that no two accesses
collide at an iteration distance the analysis rules out (soundness), and that the
analysis is not vacuous (it often proves distances other than the conservative 1).
"""

from __future__ import annotations

import random

from hls.analysis import (AffineAnalysis, Enumeration, dependence_distance, find_loops,
                          memory_dependences)
from hls.analysis._deps import JKEY, Residual
from hls.flow import SynthOptions, synthesize
from hls.ir import (Block, Const, MemoryObject, Op, Param, Undefined, eval_op, parse_module,
                    print_module)
from hls.verify import cosim

STEPS = (-3, -2, -1, 0, 1, 1, 1, 2, 3, 4, 5, 8)


class _Loop:
    """A random single-block loop: ``pre`` computes out-of-block symbols, ``body`` the
    induction phi, the address trees, a load and a store of memory ``m``."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.params: list[Param] = []
        self.pre, self.body = Block("pre"), Block("body")
        self.trip = rng.randint(2, 40)
        wi = rng.choice((3, 4, 4, 5, 6, 8, 12, 16))
        syms: list = []
        for _ in range(rng.randint(1, 2)):
            p = self._param(rng.randint(3, 12))
            if rng.random() < 0.4:  # a loop-invariant op outside the loop
                k = rng.choice(("mul", "shl", "add"))
                c = rng.randrange(1, p.width) if k == "shl" else rng.randrange(1 << p.width)
                p = self.pre.append(Op(width=p.width, kind=k, operands=[p, Const(p.width, c)]))
            syms.append(p)
        init = (Const(wi, rng.randrange(1 << wi)) if rng.random() < 0.5
                else self._param(wi))
        self.phi = Op(width=wi, kind="phi")
        self.body.append(self.phi)
        step = rng.choice(STEPS)
        if rng.random() < 0.3:
            self.upd = Op(width=wi, kind="sub", operands=[self.phi, Const(wi, -step)])
        else:
            self.upd = Op(width=wi, kind="add", operands=[self.phi, Const(wi, step)])
        self.phi.incoming = [(self.pre, init), (self.body, self.upd)]
        self.pool = [self.phi, *syms]
        for _ in range(rng.randint(1, 7)):
            self._node()
        aw = rng.randint(3, 8)
        self.mem = MemoryObject("m", "local", word_bytes=4, depth_words=1 << aw, elem_bytes=4)
        if rng.random() < 0.6:
            # the same base and the same lo, small constant offsets: comparable forms
            # (the pattern of a[i][j] with a loop-invariant row address)
            x = self._pick()
            lo = rng.randint(0, min(4, x.width - 1))
            a1 = self._offset_slice(x, lo)
            if rng.random() < 0.3:  # another row: base + symbol * odd constant
                s = self._cast(rng.choice(syms), x.width)
                s = self._op(x.width, "mul", [s, Const(x.width, rng.choice((1, 3, 5, 7)))])
                x = self._op(x.width, "add", [x, s])
            a2 = self._offset_slice(x, lo)
        else:
            a1, a2 = self._pick(), self._pick()
        a1, a2 = self._cast(a1, aw), self._cast(a2, aw)
        attrs = {"mem": self.mem, "size": 4, "lane": 0}
        self.load = self._op(32, "load", [a1], dict(attrs), pool=False)
        self.store = self._op(0, "store", [a2, self.load], dict(attrs), pool=False)
        self.body.append(self.upd)

    # ------------------------------------------------------------ construction
    def _param(self, w: int) -> Param:
        p = Param(w, f"s{len(self.params)}", len(self.params))
        self.params.append(p)
        return p

    def _op(self, w, kind, operands, attrs=None, pool=True) -> Op:
        op = self.body.append(Op(width=w, kind=kind, operands=operands, attrs=attrs or {}))
        if pool:
            self.pool.append(op)
        return op

    def _pick(self):
        # favour recent (deeper) nodes
        n = len(self.pool)
        return self.pool[max(self.rng.randrange(n), self.rng.randrange(n))]

    def _cast(self, v, w: int):
        if v.width > w:
            return self._op(w, "trunc", [v])
        if v.width < w:
            return self._op(w, self.rng.choice(("zext", "zext", "sext")), [v])
        return v

    def _offset_slice(self, x, lo: int):
        rng = self.rng
        if rng.random() < 0.7:
            x = self._op(x.width, "add", [x, Const(x.width, rng.randrange(-6, 7))])
        if lo == 0:
            return x
        return self._op(rng.randint(1, x.width - lo), "slice", [x], {"lo": lo})

    def _node(self) -> None:
        rng = self.rng
        kind = rng.choice(("add", "add", "sub", "mul", "shl", "shl", "or", "cast",
                           "widen", "slice", "slice", "addc", "rowcol", "disjoint"))
        a = self._pick()
        w = a.width
        if kind in ("add", "sub"):
            b = self._pick()
            w = rng.choice((a.width, b.width))
            self._op(w, kind, [self._cast(a, w), self._cast(b, w)])
        elif kind == "mul":
            self._op(w, "mul", [a, Const(w, rng.choice((3, 5, 12, 100, rng.randrange(1 << w))))])
        elif kind == "shl":
            self._op(w, "shl", [a, Const(w, rng.randrange(1, min(w, 5)))] if w > 1 else [a, Const(w, 0)])
        elif kind == "or":
            self._op(w, "or", [a, Const(w, rng.randrange(1, 8))])
        elif kind == "cast":
            self._cast(a, rng.randint(2, 16))
        elif kind == "widen":  # known modulo fewer bits than the width
            a = self.phi if rng.random() < 0.5 else a
            self._op(a.width + rng.randint(1, 6), rng.choice(("zext", "sext")), [a])
        elif kind == "slice" and w > 1:
            lo = rng.randint(1, min(4, w - 1))
            self._op(rng.randint(1, w - lo), "slice", [a], {"lo": lo})
        elif kind == "addc":
            self._op(w, "add", [a, Const(w, rng.randrange(1 << w))])
        elif kind == "disjoint":  # (a << k) | (b & (2**k - 1)): LLVM's or disjoint
            k = rng.randint(1, min(4, w - 1)) if w > 1 else 0
            hi = self._op(w, "shl", [a, Const(w, k)])
            b = self._cast(self._pick(), w)
            lo = self._op(w, "and", [b, Const(w, (1 << k) - 1)])
            x, y = (hi, lo) if rng.random() < 0.5 else (lo, hi)
            self._op(w, "or", [x, y], {"disjoint": True})
        elif kind == "rowcol":  # sym_expr + (phi << k), the address of a[row][phi]
            k = rng.randint(1, 3)
            w = rng.randint(6, 14)
            j = self._cast(self.phi, w)
            col = self._op(w, "shl", [j, Const(w, k)])
            row = self._cast(rng.choice(self.pool[1:]) if len(self.pool) > 1 else a, w)
            self._op(w, "add", [row, col])

    # ------------------------------------------------------------ evaluation
    def symbol_values(self, rng: random.Random, count: int):
        """``count`` values of the parameters: all zero, all ones, then random ones."""
        for n in range(count):
            yield {p: (0, (1 << p.width) - 1, rng.randrange(1 << p.width))[min(n, 2)]
                   for p in self.params}

    def addresses(self, env: dict) -> tuple[list[int], list[int]]:
        """The load's and the store's word address in iterations 0 .. trip - 1."""
        val = dict(env)
        for op in self.pre.ops:
            val[op] = _eval(op, val)
        phi_v = self.phi.incoming[0][1]
        phi_v = phi_v.value if isinstance(phi_v, Const) else val[phi_v]
        la, sa = [], []
        for _ in range(self.trip):
            val[self.phi] = phi_v
            for op in self.body.ops:
                if op.kind == "load":
                    la.append(val[op.operands[0]])
                elif op.kind == "store":
                    sa.append(val[op.operands[0]])
                elif op.kind != "phi":
                    val[op] = _eval(op, val)
            phi_v = val[self.upd]
        return la, sa


def _eval(op: Op, val: dict) -> int:
    vs = [o.value if isinstance(o, Const) else val[o] for o in op.operands]
    return eval_op(op.kind, op.width, op.attrs, vs, [o.width for o in op.operands])


def _first_collision(ax: list[int], ay: list[int]) -> int | None:
    """Smallest d >= 1 with ax[j] == ay[j + d] for some j (None: none in the trip)."""
    n = len(ax)
    for d in range(1, n):
        if any(ax[j] == ay[j + d] for j in range(n - d)):
            return d
    return None


def test_distances_are_sound_brute_force():
    rng = random.Random(20240611)
    exact = residual = 0
    for case in range(300):
        lp = _Loop(rng)
        an = AffineAnalysis(lp.body)
        pairs = [(lp.store, lp.load), (lp.load, lp.store)]
        dist = {(x.kind, y.kind): dependence_distance(an, x, y, lp.trip) for x, y in pairs}
        unbounded = {(x.kind, y.kind): dependence_distance(an, x, y, None) for x, y in pairs}
        deps = {(d.src.kind, d.dst.kind): d.distance for d in memory_dependences(lp.body, lp.trip)}
        assert deps == {k: d for k, d in dist.items() if d is not None}
        for k in dist:  # a bounded trip count only drops distances beyond it
            assert dist[k] == (unbounded[k] if unbounded[k] is not None
                               and unbounded[k] < lp.trip else None)
        exact += sum(d != 1 for d in dist.values())
        forms = [an.form(a.operands[0]) for a in (lp.load, lp.store)]
        residual += any(isinstance(k, Residual) for f in forms if f for k, _ in f.terms)
        for env in lp.symbol_values(rng, 12):
            la, sa = lp.addresses(env)
            for (x, y), (ax, ay) in zip(pairs, ((sa, la), (la, sa))):
                first = _first_collision(ax, ay)
                d = dist[(x.kind, y.kind)]
                # the analysis may be conservative (smaller), never larger than a real one
                assert first is None or (d is not None and d <= first), (
                    case, x.kind, y.kind, d, first, env, ax, ay, an.form(x.operands[0]),
                    an.form(y.operands[0]))
    # not vacuous: many pairs get a distance other than the conservative 1, and the
    # slice residual symbols take part
    assert exact > 60, exact
    assert residual > 50, residual


# the j loops of: int C[20][25], B[30][25];
#   for i: { for j: C[i][j] *= 3;  for k: for j: C[i][j] += B[k][j]; }
# the row address %r = 100 * i (bytes) is loop-invariant and not a multiple of 4 as far
# as the form of the slice's operand shows (coefficient 1): slice(%r + 4 * j, lo=2)
ROW_IR = """
module @k
source "k.c"
memory &C global word=4 depth=500 elem=4 symbol="C"

func @k -> i0
  param %r: i11 index=0
^entry:
  br -> ^body
^body:
  %0:i64 = phi [^entry: 0:i64], [^body: %8]
  %1:i11 = trunc %0
  %2:i11 = shl %1, 2:i11
  %3:i11 = add %r, %2
  %4:i9 = slice %3 {lo: 2}
  %5:i32 = load %4 {mem: &C, size: 4, lane: 0}
  %6:i32 = mul %5, 3:i32
  %7:i9 = slice %3 {lo: 2}
  store %7, %6 {mem: &C, size: 4, lane: 0}
  %8:i64 = add %0, 1:i64
  %9:i1 = icmp %8, 25:i64 {pred: "eq"}
  condbr %9 -> ^exit, ^body
^exit:
  ret
end
"""


def test_row_address_residual_has_no_dependence():
    mod = parse_module(ROW_IR)
    assert mod.top.params[0].width == 11
    (lp,) = find_loops(mod.top)
    assert memory_dependences(lp.header, 25) == []
    # without a trip count: only the wrap-around of the 9-bit word address
    assert {d.distance for d in memory_dependences(lp.header)} == {512}
    an = AffineAnalysis(lp.header)
    ld, st = (op for op in lp.header.ops if op.kind in ("load", "store"))
    fl, fs = an.form(ld.operands[0]), an.form(st.operands[0])
    assert fl == fs and fl.coeff(JKEY) == 1 and fl.bits == 9
    (r,) = [k for k, _ in fl.terms if isinstance(k, Residual)]
    assert r.lo == 2 and r.rem == 0
    # a different constant remainder is a different (unknown) residual: distance 1
    # (word r/4 + j + 1 is stored and read again one iteration later when r % 4 == 3)
    mod = parse_module(ROW_IR.replace("%7:i9 = slice %3 {lo: 2}",
                                      "%3b:i11 = add %3, 1:i11\n  %7:i9 = slice %3b {lo: 2}"))
    (lp,) = find_loops(mod.top)
    ld, st = (op for op in lp.header.ops if op.kind in ("load", "store"))
    assert dependence_distance(AffineAnalysis(lp.header), st, ld, 25) == 1
    # ... and with a remainder of 4 the same residual, one word further: distance 1
    mod = parse_module(ROW_IR.replace("%7:i9 = slice %3 {lo: 2}",
                                      "%3b:i11 = add %3, 4:i11\n  %7:i9 = slice %3b {lo: 2}"))
    (lp,) = find_loops(mod.top)
    ld, st = (op for op in lp.header.ops if op.kind in ("load", "store"))
    an = AffineAnalysis(lp.header)
    assert dependence_distance(an, st, ld, 25) == 1
    assert dependence_distance(an, ld, st, 25) is None


ROW_C = """
int C[20][25], B[30][25];
void k(void) { for (int i = 0; i < 20; i++) { for (int j = 0; j < 25; j++) C[i][j] *= 3;
  for (int k = 0; k < 30; k++) for (int j = 0; j < 25; j++) C[i][j] += B[k][j]; } }
int main(void) {
  for (int i = 0; i < 20; i++) for (int j = 0; j < 25; j++) C[i][j] = i * 7 + j;
  for (int i = 0; i < 30; i++) for (int j = 0; j < 25; j++) B[i][j] = i - 3 * j;
  k();
  int s = 0;
  for (int i = 0; i < 20; i++) for (int j = 0; j < 25; j++) s = s * 31 + C[i][j];
  return s;
}
"""


def test_row_loops_pipeline_at_ii_1(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(ROW_C)
    res = synthesize(src, SynthOptions(top="k"))
    piped = [lp for lp in res.report["loops"] if lp["pipelined"]]
    assert len(piped) == 2 and all(lp["ii"] == 1 for lp in piped), piped
    r = cosim(src, "k", tb=src, synth=res)
    assert r.passed, r.mismatches[:5]


def test_low_bits_are_sound_brute_force():
    """``low_bits`` (the static bank of a cyclic partition) claims an address's low bits
    only when every iteration, for every symbol value, has them."""
    from hls.analysis import low_bits

    rng = random.Random(20261124)
    claimed = 0
    for case in range(300):
        lp = _Loop(rng)
        an = AffineAnalysis(lp.body)
        for acc in (lp.load, lp.store):
            form = an.form(acc.operands[0])
            if form is None:
                continue
            for k in (1, 2, 3):
                got = low_bits(form, k)
                if got is None:
                    continue
                claimed += 1
                for env in lp.symbol_values(rng, 12):
                    la, sa = lp.addresses(env)
                    for a in (la if acc is lp.load else sa):
                        assert a % (1 << k) == got, (case, k, form)
    assert claimed > 100      # not vacuous


def _phi_loop(rng: random.Random, k: int) -> str:
    """A loop of 12 iterations carrying two values ``%x`` and ``%y`` (phis), each updated
    from both, constants and a parameter by random ops; every iteration stores both."""
    consts = [0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 64, 4294967292]
    lines: list[str] = []
    count = [0]

    def fresh() -> str:
        count[0] += 1
        return f"%t{count[0]}"

    def operand(pool: list[str]) -> str:
        return rng.choice(pool) if rng.random() < 0.6 else f"{rng.choice(consts)}:i32"

    def update(pool: list[str]) -> str:
        v = pool[0]
        for _ in range(rng.randrange(1, 4)):
            kd = rng.choice(["add", "sub", "mul", "shl", "or", "and", "select", "add"])
            t = fresh()
            if kd == "select":
                c = fresh()
                lines.append(f"  {c}:i1 = trunc {operand(pool + ['%i'])}")
                lines.append(f"  {t}:i32 = select {c}, {v}, {operand(pool)}")
            elif kd == "shl":
                lines.append(f"  {t}:i32 = shl {v}, {rng.randrange(4)}:i32")
            else:
                lines.append(f"  {t}:i32 = {kd} {v}, {operand(pool)}")
            v = t
            pool = pool + [t]
        return v

    def init() -> str:
        if rng.random() < 0.3:
            t = fresh()
            lines_entry.append(f"  {t}:i32 = shl %p, {rng.randrange(4)}:i32")
            return t
        return f"{rng.choice(consts)}:i32"

    lines_entry: list[str] = []
    x0, y0 = init(), init()
    xn = update(["%x", "%y", "%q"])
    yn = update(["%y", "%x", "%q"])
    body = "\n".join(lines)
    entry = "\n".join(lines_entry)
    return f"""module @phi{k}
memory &o arg word=4 depth=32 elem=4 arg_index=0

func @phi{k} -> i32
  ptr "o" &o index=0
  param %p: i32 index=1
^entry:
{entry}
  %q:i32 = shl %p, 2:i32
  br -> ^head
^head:
  %i:i32 = phi [^entry: 0:i32], [^head: %inext]
  %x:i32 = phi [^entry: {x0}], [^head: {xn}]
  %y:i32 = phi [^entry: {y0}], [^head: {yn}]
  %ia:i5 = trunc %i
  store %ia, %x {{mem: &o, size: 4, lane: 0}}
  %ib0:i5 = trunc %i
  %ib:i5 = add %ib0, 16:i5
  store %ib, %y {{mem: &o, size: 4, lane: 0}}
{body}
  %inext:i32 = add %i, 1:i32
  %done:i1 = icmp %inext, 12:i32 {{pred: "eq"}}
  condbr %done -> ^exit, ^head
^exit:
  ret 0:i32
end
"""


def test_trailing_zeros_of_loop_phis_are_sound():
    """The zero low bits ``trailing_zeros`` claims of a loop-carried value hold in every
    iteration (both values stored each iteration, for edge and random parameters), and
    the fixpoint claims some: a counter stepping by 4 keeps 2."""
    from hls.analysis import trailing_zeros
    from hls.ir import run_function

    rng = random.Random(20261127)
    claimed = 0
    for k in range(300):
        f = parse_module(_phi_loop(rng, k)).top
        _, x, y = [op for op in f.blocks[1].ops if op.kind == "phi"]       # %i, %x, %y
        tz = {"x": trailing_zeros(x), "y": trailing_zeros(y)}
        claimed += sum(1 for n in tz.values() if 0 < n < 32)
        for p in (0, 1, 3, 0xFFFFFFFF, 0x80000000, rng.getrandbits(32)):
            r = run_function(f, {1: p}, {0: bytes(128)})
            mem = r.memories["arg0"]
            for n, base in (("x", 0), ("y", 16)):
                for it in range(12):
                    v = int.from_bytes(mem[4 * (base + it):4 * (base + it) + 4], "little")
                    assert v % (1 << min(tz[n], 32)) == 0, (k, n, tz[n], it, hex(v))
    assert claimed > 60, claimed


# ----------------------------------------------------------------------------- enumeration

class _Nest:
    """A random two-level nest in IR text: an outer counter ``%o`` (``+= step`` or ``>>= 1``)
    from which a few loop-invariant symbols are computed (shifts, masks, ``C >> %o``),
    and a single-block inner loop whose load and store of ``&M`` have addresses made of
    the inner counter and those symbols by and/or/xor/shifts/add/sub/mul trees (the
    bit-mixing addresses of an FFT's butterflies, which have no affine form).  Either
    access may be guarded: by a test of such a tree (enumerable, like the bank tests of a
    partitioned array) or by a value loaded from ``&D`` (not enumerable).  For the trace
    of the accesses, each outer iteration first stores to ``&T`` and each inner iteration
    to ``&I``; the load reads the low half of a word of ``&M`` and the store writes the
    high half, so the trace tells them apart."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.n = 0
        wo, wi = rng.choice((6, 8)), rng.choice((6, 8, 12))
        self.aw = aw = rng.randint(3, 7)
        if rng.random() < 0.5:
            k = rng.randint(1, 4)
            o_init, o_upd, o_end = 1 << k, f"lshr %o, 1:i{wo}", 0
        else:
            step, trips = rng.randint(1, 3), rng.randint(1, 6)
            o_init, o_upd, o_end = 0, f"add %o, {step}:i{wo}", step * trips
        oh = [f"  %o:i{wo} = phi [^entry: {o_init}:i{wo}], [^olatch: %on]",
              "  store 0:i8, 0:i8 {mem: &T, size: 1, lane: 0}"]
        self.lines = oh
        self.pool = [("%o", wo)]
        for _ in range(rng.randint(1, 3)):
            self._sym(wo)
        inner_pool = list(self.pool)
        trip = self.trip = rng.randint(2, 24)
        j_step = rng.choice((1, 1, 2, -1))
        j_init = 0 if j_step > 0 else trip
        j_end = (j_init + j_step * trip) % (1 << wi)
        self.lines = body = [f"  %j:i{wi} = phi [^oh: {j_init}:i{wi}], [^body: %jn]",
                             "  store 0:i8, 0:i8 {mem: &I, size: 1, lane: 0}"]
        self.pool = [("%j", wi)] + inner_pool
        for _ in range(rng.randint(2, 8)):
            self._node(wi)
        a1 = self._cast(self._pick(), aw)
        a2 = self._cast(self._pick(), aw)
        g1, g2 = self._guard(), self._guard()
        body += [f"  %ld:i32 = load {a1}{g1[0]} {{mem: &M, size: 4, lane: 0{g1[1]}}}",
                 "  %v:i32 = add %ld, 1:i32",
                 f"  store {a2}, %v{g2[0]} {{mem: &M, size: 4, lane: 4{g2[1]}}}",
                 f"  %jn:i{wi} = add %j, {j_step % (1 << wi)}:i{wi}",
                 f"  %jc:i1 = icmp %jn, {j_end}:i{wi} {{pred: \"eq\"}}",
                 "  condbr %jc -> ^olatch, ^body"]
        self.text = "\n".join([
            "module @k", 'source "k.c"',
            f"memory &M global word=8 depth={1 << aw} elem=8 symbol=\"M\"",
            "memory &D global word=1 depth=4 elem=1 symbol=\"D\" init=x\"01000101\"",
            'memory &T global word=1 depth=1 elem=1 symbol="T"',
            'memory &I global word=1 depth=1 elem=1 symbol="I"', "",
            "func @k -> i0", "^entry:", "  br -> ^oh", "^oh:", *oh, "  br -> ^body",
            "^body:", *body, "^olatch:", f"  %on:i{wo} = {o_upd}",
            f"  %oc:i1 = icmp %on, {o_end}:i{wo} {{pred: \"eq\"}}",
            "  condbr %oc -> ^exit, ^oh", "^exit:", "  ret", "end", ""])

    def _emit(self, w: int, rhs: str) -> tuple[str, int]:
        self.n += 1
        name = f"%t{self.n}"
        self.lines.append(f"  {name}:i{w} = {rhs}")
        self.pool.append((name, w))
        return name, w

    def _pick(self) -> tuple[str, int]:
        n = len(self.pool)
        return self.pool[max(self.rng.randrange(n), self.rng.randrange(n))]

    def _cast(self, v: tuple[str, int], w: int) -> str:
        name, vw = v
        if vw > w:
            return self._emit(w, f"trunc {name}")[0]
        if vw < w:
            return self._emit(w, f"zext {name}")[0]
        return name

    def _guard(self) -> tuple[str, str]:
        """(operand text, attribute text) of a guard, or two empty strings."""
        r = self.rng.random()
        if r < 0.5:
            return "", ""
        if r < 0.8:   # a test of a tree of the counters: enumerable
            x, w = self._pick()
            c = self.rng.randrange(1 << min(w, 3))
            pred = self.rng.choice(("eq", "ne", "ult"))
            g = self._emit(1, f"icmp {self._cast((x, w), min(w, 3))}, {c}:i{min(w, 3)} "
                              f"{{pred: \"{pred}\"}}")[0]
        else:         # a loaded flag: not enumerable
            x = self._cast(self._pick(), 2)
            flag = self._emit(8, f"load {x} {{mem: &D, size: 1, lane: 0}}")[0]
            g = self._emit(1, f"trunc {flag}")[0]
        return f", {g}", ", guard: 1"

    def _sym(self, wo: int) -> str:
        rng = self.rng
        k = rng.choice(("shr_c", "shl", "sub1", "not", "add"))
        x, w = self._pick()
        if k == "shr_c":   # C >> o: a power-of-two span from the counter
            c = 1 << rng.randint(2, wo - 2)
            return self._emit(w, f"lshr {c}:i{w}, {self._cast((x, w), w)}")[0]
        if k == "shl":
            return self._emit(w, f"shl {x}, {rng.randint(1, 3)}:i{w}")[0]
        if k == "sub1":
            return self._emit(w, f"sub {x}, 1:i{w}")[0]
        if k == "not":
            return self._emit(w, f"xor {x}, {(1 << w) - 1}:i{w}")[0]
        return self._emit(w, f"add {x}, {rng.randrange(1 << w)}:i{w}")[0]

    def _node(self, wi: int) -> None:
        rng = self.rng
        k = rng.choice(("and", "and", "or", "xor", "add", "sub", "shl", "lshr", "mulc",
                        "andc", "xorc"))
        a = self._pick()
        if k in ("and", "or", "xor", "add", "sub"):
            b = self._pick()
            w = rng.choice((a[1], b[1]))
            self._emit(w, f"{k} {self._cast(a, w)}, {self._cast(b, w)}")
        elif k in ("shl", "lshr"):
            self._emit(a[1], f"{k} {a[0]}, {rng.randint(1, 3)}:i{a[1]}")
        elif k == "mulc":
            self._emit(a[1], f"mul {a[0]}, {rng.choice((3, 5, 6))}:i{a[1]}")
        else:
            c = rng.randrange(1 << a[1])
            self._emit(a[1], f"{'and' if k == 'andc' else 'xor'} {a[0]}, {c}:i{a[1]}")


def _trace(func) -> list[tuple[list, list]] | None:
    """Per entry of the inner loop: the word of ``&M`` its load and its store touch in
    each iteration (None where the access is not performed), as the interpreter runs
    them (None: the nest has no defined run)."""
    from hls.ir import InterpError, Interpreter
    from hls.ir import _interp
    log: list[tuple[str, int, int]] = []
    real = _interp._View.byte

    def byte(self, addr, lane, size):
        log.append((self.mem.name, addr, lane))
        return real(self, addr, lane, size)

    _interp._View.byte = byte
    try:
        Interpreter(max_steps=20_000).call(func)
    except (InterpError, Undefined):
        return None
    finally:
        _interp._View.byte = real
    entries: list[tuple[list, list]] = []
    for name, addr, lane in log:
        if name == "T":
            entries.append(([], []))
        elif name == "I":
            entries[-1][0].append(None)
            entries[-1][1].append(None)
        elif name == "M":
            entries[-1][0 if lane == 0 else 1][-1] = addr
    return entries


def _first_touch(ax: list, ay: list) -> int | None:
    """Smallest d >= 1 with ax[j] == ay[j + d] (neither None) for some j."""
    n = len(ax)
    for d in range(1, n):
        if any(ax[j] is not None and ax[j] == ay[j + d] for j in range(n - d)):
            return d
    return None


def test_enumerated_distances_are_sound_and_exact_against_the_interpreter():
    """Random two-level nests (:class:`_Nest`): the distances reported with the enclosing
    loop known are never larger than the first collision of any entry as the interpreter
    runs it, and where the enumeration applies with every guard enumerated they are
    exactly the smallest collision over the entries; the enumeration proves many pairs
    independent that the affine forms alone do not."""
    rng = random.Random(20261127)
    enumerated = proved = guarded = 0
    for case in range(300):
        nest = _Nest(rng)
        func = parse_module(nest.text).top
        trace = _trace(func)
        if trace is None:
            continue
        loops = find_loops(func)
        inner = next(lp for lp in loops if lp.parent is not None)
        body = inner.header
        ld, st = (op for op in body.ops if op.kind in ("load", "store") and op.mem.name == "M")
        with_loop = {(d.src.kind, d.dst.kind): d.distance
                     for d in memory_dependences(body, inner.trip_count, inner)
                     if d.src.mem.name == "M"}
        alone = {(d.src.kind, d.dst.kind): d.distance
                 for d in memory_dependences(body, inner.trip_count) if d.src.mem.name == "M"}
        first = {}
        for la, sa in trace:
            for key, (ax, ay) in ((("store", "load"), (sa, la)), (("load", "store"), (la, sa))):
                f = _first_touch(ax, ay)
                if f is not None:
                    first[key] = min(first.get(key, f), f)
        for key, f in first.items():
            assert key in with_loop and with_loop[key] <= f, (case, key, with_loop, f, nest.text)
        en = Enumeration(inner)
        if en.ok and en.words(ld) is not None and en.words(st) is not None:
            enumerated += 1
            assert inner.trip_count == nest.trip and all(len(la) == nest.trip for la, _ in trace)
            exact = all(op in en._guarded for op in (ld, st) if "guard" in op.attrs)
            guarded += exact and any("guard" in op.attrs for op in (ld, st))
            if exact:
                assert with_loop == first, (case, nest.text)
            proved += len(set(alone) - set(with_loop))
    assert enumerated > 150, enumerated
    assert proved > 60, proved
    assert guarded > 25, guarded


DISJOINT_C = """
void k(const int orig[512], int sol[512]) {
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 8; i++) {        /* rows 0 and 7 of 8 planes of 8x8 */
      sol[i + 8 * j] = orig[i + 8 * j];
      sol[i + 8 * j + 448] = orig[i + 8 * j + 448];
    }
}
"""


def test_or_disjoint_reaches_the_affine_forms(tmp_path):
    """clang writes ``(i + 8*j) + 448`` as ``or disjoint`` (the bits cannot overlap); the
    frontend keeps the mark, the IR text carries it, and the address is affine (one word
    per iteration), so a cyclic partition by 8 finds its bank statically."""
    from hls.frontend import load
    from hls.transforms._banks import Partition, static_bank
    src = tmp_path / "k.c"
    src.write_text(DISJOINT_C)
    mod = load(src, "k")
    ors = [op for op in mod.top.ops() if op.kind == "or"]
    assert any(op.attrs.get("disjoint") is True for op in ors), ors
    assert "disjoint: true" in print_module(mod)
    again = parse_module(print_module(mod))
    assert [op.attrs.get("disjoint") for op in again.top.ops() if op.kind == "or"] == \
        [op.attrs.get("disjoint") for op in ors]
    inner = next(lp for lp in find_loops(mod.top) if lp.parent is not None)
    acc = [op for op in inner.header.ops if op.kind in ("load", "store")]
    an = AffineAnalysis(inner.header)
    forms = [an.form(op.operands[0]) for op in acc]
    assert len(acc) == 4 and all(f is not None and f.coeff(JKEY) == 1 for f in forms), forms
    far = [op for op, f in zip(acc, forms) if f.const]
    assert len(far) == 2, forms
    part = Partition("cyclic", 8)
    # the iteration moves the bank: none static; but the low bits are those of the row
    assert static_bank(an, far[0].operands[0], part, 512) is None
    # without the mark, the address has no form
    for op in ors:
        op.attrs.pop("disjoint", None)
    an = AffineAnalysis(inner.header)
    assert all(an.form(op.operands[0]) is None for op in far)
