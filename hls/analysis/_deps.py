"""Loop-carried dependences of a single-block loop, with iteration distances.

*Register* recurrences are the loop's phis: the value a phi takes in iteration ``j + 1``
is its back-edge incoming value from iteration ``j`` (distance 1).

*Memory* dependences relate two accesses of the same memory of which at least one is a
store.  Word addresses are put in an affine form over the iteration number ``j`` and
symbols that do not change inside the loop (loop-invariant values and the initial values
of induction phis), known modulo ``2**k``; an ``or`` marked ``disjoint`` (LLVM's ``or
disjoint``: no common set bit) is the sum of its operands::

    addr(j) = a * j + sum(c_s * s) + c0   (mod 2**k)

Access ``Y`` of iteration ``j + d`` touches the word of access ``X`` of iteration ``j``
when ``a_Y = a_X = a``, the symbol parts agree and ``a * d == c0_X - c0_Y (mod 2**k)``;
the smallest positive solution ``d`` of that congruence is the dependence distance and
none exists when it has no solution.  Whenever the forms are not comparable (an address
loaded from memory, a non-induction phi, different strides) the distance is the
conservative 1.  Equality modulo ``2**k`` is necessary for equality of the addresses
themselves, so "no solution" is exact and every reported distance is safe.

Each symbol stands for one fixed integer during an execution of the loop (the unsigned
value of a loop-invariant value; the initial value of an induction phi), and a form
``F`` with ``bits = b`` says ``value == F (mod 2**b)`` for the integer ``F`` computed with
the stored (reduced) coefficients; ``b`` never exceeds the value's width.

``slice(x, lo)`` is ``floor(x / q) mod 2**w`` with ``q = 2**lo``.  With ``x = F + m * 2**b``
(``b > lo``) it is ``floor(F / q) + m * 2**(b - lo)``, so a form of ``floor(F / q)`` is
known modulo ``2**min(b - lo, w)``.  Split ``F = R + q * T + c0``: ``q * T`` are the
terms whose coefficient is divisible by ``q`` (the iteration term must be one of them)
and ``R`` the other symbol terms; then exactly::

    floor(F / q) = T + (c0 >> lo) + floor((R + (c0 mod q)) / q)

and the last part is one unknown loop-invariant integer: it becomes a symbol of its own
(a :class:`Residual`, interned per analysis on ``(lo, R's terms, c0 mod q)``, so two
accesses with identical residuals share it and it cancels in their difference, while
different residuals are different symbols and give the conservative distance 1).

Addresses that are not affine (bit masks and shifts of the counters: an FFT's
``((b & ~(span - 1)) << 1) | span | (b & (span - 1))`` with ``span = 32 >> log``) are
tested by *enumeration* (:class:`Enumeration`) when the loop and every enclosing loop the
addresses read a counter of have constant trip counts: the addresses are pure functions of
the header phis of those loops, whose values are simulated from their initial values and
latch updates, so every word each access touches in every iteration of every entry is
computed (within :data:`ENUM_ITERATIONS` iterations and :data:`ENUM_BUDGET`
evaluations).  The environments simulated are the
header values of every iteration (a loop that leaves early only runs fewer of them), so
the smallest distance found is at most the real one, and "no collision" is exact; the
analysis reports the larger of the affine and the enumerated distance, both safe.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from math import gcd, prod
from typing import TYPE_CHECKING

from ..ir import Block, Const, Op, Param, Undefined, Value, eval_op, op_def

from ._loops import header_phi_parts

if TYPE_CHECKING:
    from ._loops import Loop

JKEY = "j"  # the iteration number's key in an affine form
#: Distances this large (address wrap-around after ~2**30 iterations) constrain nothing:
#: ``t_dst + II * d >= t_src + delay`` holds for any schedule shorter than ``d`` cycles.
FAR = 1 << 20


@dataclass(frozen=True)
class Affine:
    terms: tuple  # ((key, coeff), ...) sorted by key id; key is JKEY or a Value
    const: int
    bits: int     # known modulo 2**bits

    def coeff(self, key) -> int:
        for k, c in self.terms:
            if k is key:
                return c
        return 0


class Residual:
    """Symbol key ``floor((R + rem) / 2**lo)`` of a ``slice`` whose operand has symbol
    terms ``R`` (``terms``: ``((key, coeff), ...)``) with coefficients not divisible by
    ``2**lo`` (see the module docstring).  Compared by identity, like values."""

    __slots__ = ("lo", "terms", "rem")

    def __init__(self, lo: int, terms: tuple, rem: int):
        self.lo, self.terms, self.rem = lo, terms, rem

    def __repr__(self) -> str:
        return f"Residual(lo={self.lo}, terms={self.terms!r}, rem={self.rem})"


def trailing_zeros(v, depth: int = 0, assumed: dict | None = None) -> int:
    """Low bits of the IR value ``v`` known to be zero in every execution (a lower bound:
    constants, and what mul, shl, add, sub, and, or, select and width changes keep of
    their operands').  A ``phi`` has the zeros every incoming value has, found as the
    greatest fixpoint on its cycles: a loop counter that starts at 0 and steps by 4
    (``for (jj = 0; jj < N; jj += 4)``) keeps two zero bits in every iteration, by
    induction on the iterations (``assumed``: the phis being solved, and their guess)."""
    w = getattr(v, "width", 0) or 0
    if isinstance(v, Const):
        x = v.value & ((1 << w) - 1) if w else v.value
        return w if x == 0 else (x & -x).bit_length() - 1
    if not isinstance(v, Op) or depth > 16:
        return 0
    ops = v.operands
    k = v.kind
    if k == "phi":
        assumed = {} if assumed is None else assumed
        if v in assumed:
            return assumed[v]
        guess = w
        while True:
            assumed[v] = guess
            n = min([guess, *(trailing_zeros(x, depth + 1, assumed) for _, x in v.incoming)])
            if n >= guess:
                break
            guess = n
        del assumed[v]
        return n
    if k == "mul":
        n = trailing_zeros(ops[0], depth + 1, assumed) + trailing_zeros(ops[1], depth + 1, assumed)
    elif k == "shl" and isinstance(ops[1], Const):
        n = trailing_zeros(ops[0], depth + 1, assumed) + ops[1].value
    elif k in ("add", "sub", "or"):
        n = min(trailing_zeros(ops[0], depth + 1, assumed),
                trailing_zeros(ops[1], depth + 1, assumed))
    elif k == "and":
        n = max(trailing_zeros(ops[0], depth + 1, assumed),
                trailing_zeros(ops[1], depth + 1, assumed))
    elif k == "select":
        n = min(trailing_zeros(ops[1], depth + 1, assumed),
                trailing_zeros(ops[2], depth + 1, assumed))
    elif k in ("trunc", "zext", "sext"):
        n = trailing_zeros(ops[0], depth + 1, assumed)
    else:
        return 0
    return min(n, w) if w else n


def _term_zeros(key, coeff: int, bits: int) -> int:
    """Known zero low bits of ``coeff * key`` (modulo ``2**bits``)."""
    c = coeff & ((1 << bits) - 1)
    if c == 0:
        return bits
    tz = (c & -c).bit_length() - 1
    if isinstance(key, Residual) or key == JKEY:
        return tz
    return tz + trailing_zeros(key)


def low_bits(a: Affine, k: int) -> int | None:
    """The value of the affine form ``a`` modulo ``2**k`` when every execution agrees on
    it (None otherwise): each symbol term must be a multiple of ``2**k`` (its coefficient's
    and its value's known trailing zeros), except a :class:`Residual` whose own terms are
    multiples of ``2**(lo + k)``: its low ``k`` bits are then those of ``rem >> lo``."""
    if k > a.bits:
        return None
    total = a.const
    for key, c in a.terms:
        if _term_zeros(key, c, a.bits) >= k:
            continue
        if isinstance(key, Residual) and all(
                _term_zeros(k2, c2, key.lo + k) >= key.lo + k for k2, c2 in key.terms):
            total += c * (key.rem >> key.lo)
            continue
        return None
    return total % (1 << k)


def _norm(terms: dict, const: int, bits: int) -> Affine | None:
    if bits <= 0:
        return None
    mod = (1 << bits) - 1
    items = [(k, c & mod) for k, c in terms.items() if c & mod]
    items.sort(key=lambda kc: (0, "") if kc[0] == JKEY else (1, id(kc[0])))
    return Affine(tuple(items), const & mod, bits)


def _as_dict(a: Affine) -> dict:
    return {k: c for k, c in a.terms}


class AffineAnalysis:
    """Affine forms of values of the single-block loop ``block`` (memoised)."""

    def __init__(self, block: Block):
        self.block = block
        self.memo: dict[Value, Affine | None] = {}
        #: interned Residual symbols: (lo, terms, rem) -> Residual (keeps the keys alive,
        #: so their ids, by which terms are sorted, stay unique)
        self.residuals: dict[tuple, Residual] = {}
        # induction phis: phi = phi0 + step * j
        self.step: dict[Op, int] = {}
        for phi in block.phis:
            back = [v for p, v in phi.incoming if p is block]
            if len(back) != 1 or not isinstance(back[0], Op):
                continue
            upd = back[0]
            if upd.kind == "add" and upd.operands[0] is phi and isinstance(upd.operands[1], Const):
                self.step[phi] = upd.operands[1].value
            elif upd.kind == "add" and upd.operands[1] is phi and isinstance(upd.operands[0], Const):
                self.step[phi] = upd.operands[0].value
            elif upd.kind == "sub" and upd.operands[0] is phi and isinstance(upd.operands[1], Const):
                self.step[phi] = -upd.operands[1].value

    def form(self, v: Value) -> Affine | None:
        if v in self.memo:
            return self.memo[v]
        self.memo[v] = None  # cycles (phi updates) resolve to "unknown"
        r = self._form(v)
        self.memo[v] = r
        return r

    def _form(self, v: Value) -> Affine | None:
        if isinstance(v, Const):
            return _norm({}, v.value, v.width)
        if isinstance(v, Param):
            return _norm({v: 1}, 0, v.width)  # loop-invariant symbol
        assert isinstance(v, Op)
        if v.block is not self.block:
            # computed before the loop (by the source, or moved there by loop-invariant
            # code motion): its own form over the values it reads, which are invariant
            # too, where that is known in as many bits as the value itself; else a symbol
            r = self._op_form(v) if v.kind != "phi" else None
            return r if r is not None and r.bits >= v.width else _norm({v: 1}, 0, v.width)
        return self._op_form(v)

    def _op_form(self, v: Op) -> Affine | None:
        k, w = v.kind, v.width
        if k == "phi":
            if v not in self.step:
                return None
            init = [x for p, x in v.incoming if p is not self.block]
            if len(init) == 1 and isinstance(init[0], Const):  # i = c0 + step * j exactly
                return _norm({JKEY: self.step[v]}, init[0].value, w)
            return _norm({v: 1, JKEY: self.step[v]}, 0, w)
        if k in ("add", "sub") or (k == "or" and v.attrs.get("disjoint")):
            a, b = (self.form(o) for o in v.operands)
            if a is None or b is None:
                return None
            s = -1 if k == "sub" else 1
            t = _as_dict(a)
            for key, c in b.terms:
                t[key] = t.get(key, 0) + s * c
            return _norm(t, a.const + s * b.const, min(a.bits, b.bits, w))
        if k in ("mul", "shl"):
            x, c = v.operands
            if isinstance(x, Const) and k == "mul":
                x, c = c, x
            if not isinstance(c, Const):
                return None
            a = self.form(x)
            if a is None:
                return None
            f = c.value if k == "mul" else (1 << c.value if c.value < w else 0)
            return _norm({key: cc * f for key, cc in a.terms}, a.const * f, min(a.bits, w))
        if k == "or":
            x, y = v.operands
            fy = self.form(y)
            if fy is None or fy.terms:
                x, y = y, x
                fy = self.form(y)
            a = self.form(x)
            if a is None or fy is None or fy.terms or fy.bits < w:
                return None
            c = fy.const  # y is a known constant (a Const, or constant arithmetic)
            # x | c == x + c when the low bits that c occupies are known zero in x
            low = c.bit_length()
            if all(cc % (1 << low) == 0 for _, cc in a.terms) and a.const % (1 << low) == 0:
                return _norm(_as_dict(a), a.const + c, min(a.bits, w))
            return None
        if k in ("zext", "sext", "trunc"):
            a = self.form(v.operands[0])
            if a is None:
                return None
            return _norm(_as_dict(a), a.const, min(a.bits, w, v.operands[0].width))
        if k == "slice":
            a = self.form(v.operands[0])
            lo = v.attrs["lo"]
            if a is None or a.bits <= lo:
                return None
            q = 1 << lo
            if a.coeff(JKEY) % q:
                return None
            t = {key: cc >> lo for key, cc in a.terms if cc % q == 0}
            rest = tuple((key, cc) for key, cc in a.terms if cc % q)  # sorted, as a.terms
            if rest:  # floor((R + q*T + c) / q) = T + (c >> lo) + floor((R + c % q) / q)
                rkey = (lo, rest, a.const % q)
                r = self.residuals.get(rkey)
                if r is None:
                    r = self.residuals[rkey] = Residual(*rkey)
                t[r] = 1
            return _norm(t, a.const >> lo, min(a.bits - lo, w))
        return None


def constant_difference(fa: Affine, fb: Affine) -> tuple[int, int] | None:
    """``(delta, bits)`` when the forms ``fa`` and ``fb`` have the same iteration and symbol
    terms modulo ``2**bits`` (``bits`` the fewer bits either is known in): then
    ``fa - fb == delta (mod 2**bits)`` in every execution.  None when the terms differ."""
    bits = min(fa.bits, fb.bits)
    mask = (1 << bits) - 1
    if ({k: c & mask for k, c in fa.terms if c & mask}
            != {k: c & mask for k, c in fb.terms if c & mask}):
        return None
    return (fa.const - fb.const) & mask, bits


def dependence_distance(an: AffineAnalysis, x: Op, y: Op, trip_count: int | None) -> int | None:
    """Smallest ``d >= 1`` such that ``y`` in iteration ``j + d`` may access the word that
    ``x`` accesses in iteration ``j`` (None: never)."""
    fx, fy = an.form(x.operands[0]), an.form(y.operands[0])
    diff = constant_difference(fx, fy) if fx is not None and fy is not None else None
    if diff is None:
        return 1
    delta, bits = diff   # need a * d == delta (mod 2**bits)
    mod = 1 << bits
    a = fx.coeff(JKEY) % mod
    g = gcd(a, mod)
    if delta % g:
        return None
    m = mod // g
    d = ((delta // g) * pow(a // g, -1, m)) % m if m > 1 else 0
    if d == 0:
        d = m  # a*d == 0 (mod 2**bits): the same word again after m iterations
    if trip_count is not None and d >= trip_count:
        return None
    if d >= FAR:
        return None
    return d


def _comparable(an: AffineAnalysis, x: Op, y: Op) -> bool:
    """The two addresses have affine forms with the same iteration and symbol terms: the
    distance :func:`dependence_distance` gives is the congruence's, not the fallback."""
    fx, fy = an.form(x.operands[0]), an.form(y.operands[0])
    return fx is not None and fy is not None and constant_difference(fx, fy) is not None


@dataclass(frozen=True)
class MemDep:
    src: Op        # earlier iteration
    dst: Op        # later iteration
    distance: int
    delay: int     # cycles: store -> any 1, load -> store 0


#: most op evaluations an :class:`Enumeration` spends on one loop (iterations of every
#: environment times the ops the addresses are computed by)
ENUM_BUDGET = 1 << 18
#: most iterations (of every entry, in every environment of the enclosing loops) an
#: :class:`Enumeration` simulates: each costs a Python dict and the phis' updates, and a
#: PolyBench triple nest has 2**17 (floyd-warshall: 8 enumerations took 40 s)
ENUM_ITERATIONS = 1 << 14


class _Unknown(Exception):
    """A value an enumerated address reads that the simulation has no value for."""


class _Spent(Exception):
    """The enumeration's budget of evaluations is spent."""


class Enumeration:
    """The word each access of the single-block loop ``loop`` touches in every iteration
    of every entry, by simulation of the header phis that the addresses read (see the
    module docstring).  ``ok`` is False when no access can be enumerated: a loop without
    a constant trip count, an enclosing loop whose counter an address reads without one,
    a phi update without a defined result, or more than ``budget`` iterations.  An access
    is enumerated on demand (:meth:`words`) when its address is a pure function of
    constants and counters (not of a parameter, a load, a phi of a join or of a loop that
    does not enclose this one) and its evaluation stays within what is left of
    ``budget`` evaluations; its guard too where that is such a function."""

    def __init__(self, loop: "Loop", budget: int = ENUM_BUDGET):
        self.block = block = loop.header
        self.ok = False
        self._left = budget
        self._addr: set[Op] = set()       # accesses whose address is enumerable
        self._guarded: set[Op] = set()    # ... and whose guard is too
        self._words: dict[Op, list | None] = {}
        if loop.trip_count is None or len(loop.blocks) != 1:
            return
        acc = [op for op in block.ops if op.kind in ("load", "store")]
        # header block -> its loop: this one and the enclosing ones
        self._headers = {lp.header: lp for lp in self._chain(loop)}
        self._phis: dict[Block, list[Op]] = {}
        self._inside: dict[Op, tuple] = {}   # phi -> (initial value, latch value)
        seen: set = set()
        for a in acc:
            if self._try_walk(a.operands[0], seen):
                self._addr.add(a)
                if "guard" in a.attrs and self._try_walk(a.operands[a.attrs["guard"]], seen):
                    self._guarded.add(a)
        if not self._addr:
            return
        levels = [lp for lp in reversed(self._chain(loop)) if lp.header in self._phis
                  and lp is not loop]
        if any(lp.trip_count is None for lp in levels):
            return
        if prod(lp.trip_count for lp in levels) * loop.trip_count > min(budget,
                                                                       ENUM_ITERATIONS):
            return
        try:
            #: per environment of the enclosing loops: the values (phis, then what was
            #: evaluated) of each iteration of the loop
            self._vals = [list(self._simulate(loop, env)) for env in self._envs(levels, 0, {})]
        except (Undefined, _Unknown, _Spent):
            return
        self.ok = True

    def words(self, a: Op) -> list[list[int | None]] | None:
        """Per environment, the word ``a`` touches in each iteration (None in an iteration
        where its enumerated guard is false); None when ``a`` is not enumerated."""
        if not self.ok or a not in self._addr:
            return None
        if a not in self._words:
            g = a.operands[a.attrs["guard"]] if a in self._guarded else None
            try:
                self._words[a] = [[None if g is not None and not self._value(g, val) & 1
                                   else self._value(a.operands[0], val) for val in vals]
                                  for vals in self._vals]
            except (Undefined, _Unknown, _Spent):
                self._words[a] = None
        return self._words[a]

    @staticmethod
    def _chain(loop: "Loop") -> list:
        out = []
        while loop is not None:
            out.append(loop)
            loop = loop.parent
        return out

    def _try_walk(self, v, seen: set) -> bool:
        """:meth:`_walk`, undone when it fails (nothing it met is kept)."""
        saved = ({b: list(ps) for b, ps in self._phis.items()}, dict(self._inside), set(seen))
        if self._walk(v, seen):
            return True
        self._phis, self._inside = saved[0], saved[1]
        seen.clear()
        seen.update(saved[2])
        return False

    def _walk(self, v, seen: set) -> bool:
        """Whether ``v`` is a pure function of constants and the header phis of this loop
        and the enclosing ones (recording those phis)."""
        if isinstance(v, Const) or v in seen:
            return True
        if not isinstance(v, Op):
            return False
        seen.add(v)
        if v.kind == "phi":
            lp = self._headers.get(v.block)
            parts = header_phi_parts(v, lp) if lp is not None else None
            if parts is None:
                return False
            self._phis.setdefault(v.block, []).append(v)
            self._inside[v] = parts
            return self._walk(parts[0], seen) and self._walk(parts[1], seen)
        if not op_def(v.kind).pure:
            return False
        return all(self._walk(o, seen) for o in v.operands)

    def _value(self, v, val: dict) -> int:
        if isinstance(v, Const):
            return v.value & ((1 << v.width) - 1) if v.width else v.value
        got = val.get(v)
        if got is None:
            if v.kind == "phi":   # read before its loop's level is simulated
                raise _Unknown(v)
            self._left -= 1
            if self._left < 0:
                raise _Spent()
            got = val[v] = eval_op(v.kind, v.width, v.attrs,
                                   [self._value(o, val) for o in v.operands],
                                   [o.width for o in v.operands])
        return got

    def _simulate(self, lp: "Loop", env: dict):
        """The values (a fresh dict per iteration, over ``env``) of ``lp``'s iterations:
        its header phis from their initial values, then their latch values."""
        phis = self._phis.get(lp.header, [])
        val = dict(env)
        cur = {p: self._value(self._inside[p][0], val) for p in phis}
        for k in range(lp.trip_count):
            val = dict(env)
            val.update(cur)
            yield val
            if k + 1 < lp.trip_count:
                cur = {p: self._value(self._inside[p][1], val) for p in phis}

    def _envs(self, levels: list, i: int, env: dict):
        if i == len(levels):
            yield env
            return
        for val in self._simulate(levels[i], env):
            yield from self._envs(levels, i + 1, {p: val[p] for p in val
                                                  if isinstance(p, Op) and p.kind == "phi"})

    def never_together(self, x: Op, y: Op) -> bool:
        """No iteration of any entry performs both ``x`` and ``y`` (both guarded, with
        enumerated guards; False when that is not known)."""
        if x not in self._guarded or y not in self._guarded:
            return False
        wx, wy = self.words(x), self.words(y)
        if wx is None or wy is None:
            return False
        return not any(a is not None and b is not None
                       for ex, ey in zip(wx, wy) for a, b in zip(ex, ey))

    def distance(self, x: Op, y: Op) -> int | None:
        """Smallest ``d >= 1`` such that ``y`` in iteration ``j + d`` touches the word that
        ``x`` touches in iteration ``j`` of the same entry, in any environment (None:
        never).  Both must be enumerated (:meth:`words` not None)."""
        best = None
        for wx, wy in zip(self.words(x), self.words(y)):
            at: dict[int, list[int]] = {}
            for j, w in enumerate(wy):
                if w is not None:
                    at.setdefault(w, []).append(j)
            for j, w in enumerate(wx):
                js = at.get(w) if w is not None else None
                if js is None:
                    continue
                k = bisect_right(js, j)
                if k < len(js) and (best is None or js[k] - j < best):
                    best = js[k] - j
        return best


def memory_dependences(block: Block, trip_count: int | None = None,
                       loop: "Loop | None" = None) -> list[MemDep]:
    """Loop-carried memory dependences (distance >= 1) between the accesses of ``block``.
    With ``loop`` (the loop whose single block is ``block``, and through its parents the
    enclosing loops), addresses with no comparable affine forms are also enumerated."""
    an = AffineAnalysis(block)
    acc = [op for op in block.ops if op.kind in ("load", "store")]
    enum: Enumeration | None = None
    out = []
    for x in acc:
        for y in acc:
            if x is y or x.mem is not y.mem or (x.kind == "load" and y.kind == "load"):
                continue
            d = dependence_distance(an, x, y, trip_count)
            if d is None:
                continue
            if (loop is not None and loop.header is block and trip_count == loop.trip_count
                    and not _comparable(an, x, y)):
                if enum is None:
                    enum = Enumeration(loop)
                if enum.words(x) is not None and enum.words(y) is not None:
                    e = enum.distance(x, y)
                    if e is None:
                        continue
                    d = max(d, e)
            out.append(MemDep(x, y, d, 1 if x.kind == "store" else 0))
    return out
