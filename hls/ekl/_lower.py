"""Lowering a checked EKL kernel to loop nests in LLVM IR (llvmlite's IR builder).

**Contractions are factorised.**  A sum over indices of a product of tensors
(``<+ a, b, c< S[i, a] * S[j, b] * S[k, c] * u[a, b, c]``) becomes a sequence of pairwise
contractions, in the order with the fewest multiply-adds (:func:`contraction_order`: an
exact search over the ways to pair the factors, each pairing costing the product of the
extents of the indices it touches; an index is summed as soon as no remaining factor and
not the result use it).  For inverse Helmholtz that is 3 x 11^4 per contraction instead
of 11^6.  Sums nested in an expression become temporaries first; a sum whose body is not
a product is reduced directly.

**Loops keep the reduction out of the pipelined loop.**  Each nest is: the summed indices
as outer loops, then one loop over the whole result, flattened (its indices kept by
counters that wrap), whose iterations write distinct elements:
``R[m] = R[m] + A[..] * B[..]``, after a first step (every summed index 0) that
writes ``R[m] = A[..] * B[..]``: every word of a result is written before it is read,
which lets the PLM wrapper skip loading an output.  The floating-point adder carries no
value from one iteration of the pipelined loop to the next, so it runs at II = 1 however
many cycles the adder takes, and the long flattened loop pays its fill once per
summation step.  Elementwise statements are one flattened loop.

Arrays are row-major.  The function has the C ABI ``void NAME(const T *in, ..., T *out)``
with the arguments in declaration order; temporaries are local arrays (``alloca``), which
pyhls keeps on chip.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import llvmlite.ir as ir

from ._check import elem_kind
from ._syntax import Bin, Kernel, Neg, Num, Ref, Stmt, Sum

__all__ = ["contraction_order", "lower_kernel", "multiplies"]

I64 = ir.IntType(64)


def _ty(elem: str) -> ir.Type:
    kind, bits = elem_kind(elem)
    if kind == "f":
        return ir.DoubleType() if bits == 64 else ir.FloatType()
    return ir.IntType(bits)


@dataclass
class _Tensor:
    name: str
    elem: str
    indices: tuple[str, ...]      # the layout: row-major over these
    ext: dict                     # index -> extent
    ptr: object = None            # the LLVM pointer
    array: bool = False           # an alloca of an array (else a pointer argument)

    @property
    def size(self) -> int:
        return math.prod(self.ext[i] for i in self.indices) if self.indices else 1


# ----------------------------------------------------------------------------- ordering

def contraction_order(factors: list[tuple[str, ...]], keep: tuple[str, ...],
                      ext: dict) -> tuple[float, object]:
    """The cheapest pairing of ``factors`` (their index tuples) into one tensor over
    ``keep``: (multiply-adds, tree), a tree being a factor's position or a pair of
    trees.  Exact over all pairings (dynamic programming over subsets)."""
    n = len(factors)
    idx = [frozenset(f) for f in factors]
    full = (1 << n) - 1
    best: dict[int, tuple[float, object, frozenset]] = {}
    for i in range(n):
        best[1 << i] = (0.0, i, idx[i])

    def needed(mask: int) -> frozenset:
        """Indices of the subset's result: those of its factors that ``keep`` or a factor
        outside the subset still uses."""
        inside = frozenset().union(*(idx[i] for i in range(n) if mask >> i & 1))
        outside = frozenset(keep).union(*(idx[i] for i in range(n) if not mask >> i & 1))
        return inside & outside

    for size in range(2, n + 1):
        for combo in itertools.combinations(range(n), size):
            mask = sum(1 << i for i in combo)
            cand = None
            sub = (mask - 1) & mask
            while sub:
                other = mask ^ sub
                if sub < other:         # each split once
                    a, b = best[sub], best[other]
                    touched = a[2] | b[2]
                    cost = a[0] + b[0] + math.prod(ext[i] for i in touched)
                    key = (cost, str((a[1], b[1])))
                    if cand is None or key < cand[0]:
                        cand = (key, (a[1], b[1]))
                sub = (sub - 1) & mask
            best[mask] = (cand[0][0], cand[1], needed(mask))
    return best[full][0], best[full][1]


def multiplies(k: Kernel) -> int:
    """Multiplies of one call as lowered (the contractions' multiply-adds and every
    elementwise product), for reports and tests."""
    return _Lowerer(k, ir.Module()).run()


# ----------------------------------------------------------------------------- lowering

class _Lowerer:
    def __init__(self, k: Kernel, module: ir.Module):
        self.k = k
        self.m = module
        self.mults = 0
        self.tensors: dict[str, _Tensor] = {}
        self.ntemp = 0

    # ---- setup
    def run(self) -> int:
        k = self.k
        fnty = ir.FunctionType(ir.VoidType(), [ir.PointerType() for _ in k.args])
        self.fn = ir.Function(self.m, fnty, name=k.name)
        self.entry = self.fn.append_basic_block("entry")
        self.b = ir.IRBuilder(self.entry)
        for a, p in zip(k.args, self.fn.args):
            p.name = a.name
            p.attributes.add("noalias")
            idx = tuple(f"_{n}" for n in range(len(a.shape)))
            self.tensors[a.name] = _Tensor(a.name, a.elem, idx, dict(zip(idx, a.shape)), p)
        for st in k.stmts:
            self.statement(st)
        self.b.ret_void()
        return self.mults

    def temp(self, name: str, elem: str, indices: tuple, ext: dict) -> _Tensor:
        t = _Tensor(name, elem, tuple(indices), {i: ext[i] for i in indices})
        with self.b.goto_block(self.entry):
            self.b.position_at_start(self.entry)
            t.ptr = self.b.alloca(ir.ArrayType(_ty(elem), max(1, t.size)), name=name)
            t.array = True
        return t

    def fresh(self, base: str) -> str:
        self.ntemp += 1
        return f"{base}.c{self.ntemp}"

    # ---- statements
    def statement(self, st: Stmt) -> None:
        if st.kind == "out":
            a = self.tensors[st.target]
            target = _Tensor(a.name, a.elem, st.indices, dict(zip(st.indices, st.shape)), a.ptr,
                             a.array)
        else:
            target = self.temp(st.target, st.elem, st.indices, dict(zip(st.indices, st.shape)))
        self.tensors[st.target] = _Tensor(target.name, target.elem, st.indices,
                                          target.ext, target.ptr, target.array)
        e = st.expr
        if isinstance(e, Sum):
            self.sum_into(e, target)
        else:
            e = self.hoist_sums(e, st.target)
            self.mults += _products(e) * target.size
            self.nest(target, (), lambda env: self.value(e, env, target.elem))

    def hoist_sums(self, e, base: str):
        """``e`` with every sum replaced by a reference to a temporary holding it."""
        if isinstance(e, Sum):
            t = self.temp(self.fresh(base), e.elem, e.free, dict(zip(e.free, e.ext)))
            self.sum_into(e, t)
            r = Ref(t.name, e.free, e.span)
            r.free, r.ext, r.elem = e.free, e.ext, e.elem
            self.tensors[t.name] = t
            return r
        if isinstance(e, Bin):
            e2 = Bin(e.op, self.hoist_sums(e.lhs, base), self.hoist_sums(e.rhs, base), e.span)
        elif isinstance(e, Neg):
            e2 = Neg(self.hoist_sums(e.expr, base), e.span)
        else:
            return e
        e2.free, e2.ext, e2.elem = e.free, e.ext, e.elem
        return e2

    def sum_into(self, s: Sum, target: _Tensor) -> None:
        """``target[...] = <+ s.indices< s.body``, factorised when the body is a product."""
        ext = dict(zip(s.body.free, s.body.ext))
        body = self.hoist_sums(s.body, target.name)
        factors, scale = _product(body)
        if factors is not None and len(factors) >= 2:
            cost, tree = contraction_order([f.indices for f in factors], target.indices, ext)
            self.contract(tree, factors, scale, target, ext)
            return
        self.mults += _products(body) * target.size * math.prod(ext[i] for i in s.indices)
        self.nest(target, s.indices, lambda env: self.value(body, env, target.elem),
                  ext=ext)

    def contract(self, tree, factors: list[Ref], scale, target: _Tensor, ext: dict) -> None:
        """Emit the pairwise contractions of ``tree`` (the last into ``target``)."""
        def build(node, out: _Tensor | None) -> Ref:
            if isinstance(node, int):
                return factors[node]
            parts = [build(c, None) for c in node]
            used = set(parts[0].indices) | set(parts[1].indices)
            later = set(target.indices)
            for i, f in enumerate(factors):
                if not _in_tree(node, i):
                    later |= set(f.indices)
            if out is None:
                # keep the result's indices in the order of the target, then first use
                keepers = [i for i in target.indices if i in used and i in later]
                keepers += [i for p in parts for i in p.indices
                            if i in later and i not in keepers]
                out = self.temp(self.fresh(target.name), target.elem, tuple(keepers),
                                {i: ext[i] for i in keepers})
                self.tensors[out.name] = out
            summed = tuple(i for p in parts for i in dict.fromkeys(p.indices)
                           if i not in out.indices)
            summed = tuple(dict.fromkeys(summed))
            a, b = parts

            def body(env, a=a, b=b, out=out):
                x = self.b.fmul(self.load(a, env), self.load(b, env)) if _is_float(
                    out.elem) else self.b.mul(self.load(a, env), self.load(b, env))
                return x

            self.nest(out, summed, body, ext=ext, mults=True)
            r = Ref(out.name, out.indices, target and None)
            r.elem = out.elem
            return r

        top = build(tree, target)
        if scale is not None:       # numbers in the product: one more pass over the result
            self.mults += target.size
            self.nest(target, (), lambda env: self.arith(
                "*", self.load(top, env), self.const(scale, target.elem), target.elem))

    # ---- nests
    def nest(self, target: _Tensor, summed: tuple, body, ext: dict | None = None,
             mults: bool = False) -> None:
        """The first summation step (every summed index 0) as one flattened loop over
        the result, ``target[m] = body(env)``; then, for the other steps (the summed
        indices as an outer loop, several flattened into one), the flattened loop
        ``target[m] = target[m] + body(env)``.  Without summed indices, the first loop
        alone.  Every word of ``target`` is written before it is read."""
        ext = dict(ext or {})
        ext.update(target.ext)
        n_out = target.size
        n_sum = math.prod(ext[i] for i in summed) if summed else 1
        if mults:
            self.mults += n_out * n_sum
        self.flat(target, {i: I64(0) for i in summed}, body, accumulate=False)
        if n_sum == 1:
            return
        if len(summed) == 1:
            iv, after = self.loop_open(summed[0], ext[summed[0]], start=1)
            env = {summed[0]: iv}
        else:
            iv, after = self.loop_open("sum", n_sum, start=1)
            env, stride = {}, 1
            for i in reversed(summed):      # row-major over the summed indices
                q = iv if stride == 1 else self.b.udiv(iv, I64(stride))
                env[i] = self.b.urem(q, I64(ext[i]))
                stride *= ext[i]
        self.flat(target, env, body, accumulate=True)
        self.loop_close(iv, after)

    def flat(self, target: _Tensor, env: dict, body, accumulate: bool) -> None:
        """for the flattened result m: target[m] = [target[m] +] body(env)."""
        env = dict(env)
        ext = target.ext
        n_out = target.size
        pre = self.b.block
        head = self.fn.append_basic_block(f"{target.name}.flat")
        body_b = self.fn.append_basic_block(f"{target.name}.body")
        done = self.fn.append_basic_block(f"{target.name}.done")
        self.b.branch(head)
        self.b.position_at_end(head)
        m = self.b.phi(I64, name="m")
        m.add_incoming(I64(0), pre)
        counters = []
        for i in target.indices:
            c = self.b.phi(I64, name=i)
            c.add_incoming(I64(0), pre)
            counters.append(c)
            env[i] = c
        self.b.cbranch(self.b.icmp_unsigned("<", m, I64(n_out)), body_b, done)
        self.b.position_at_end(body_b)
        val = body(env)
        slot = self.slot(target, m)
        if accumulate:
            old = self.b.load(slot, typ=_ty(target.elem))
            val = self.arith("+", old, val, target.elem)
        self.b.store(val, slot)
        # counters: the last index fastest; each wraps into the one before
        carry = None
        nxt = [None] * len(counters)
        for pos in reversed(range(len(counters))):
            c = counters[pos]
            e = ext[target.indices[pos]]
            wrap = self.b.icmp_unsigned("==", c, I64(e - 1))
            inc = self.b.select(wrap, I64(0), self.b.add(c, I64(1)))
            nxt[pos] = inc if carry is None else self.b.select(carry, inc, c)
            step = wrap if carry is None else self.b.and_(carry, wrap)
            carry = step
        m1 = self.b.add(m, I64(1))
        end = self.b.block
        self.b.branch(head)
        m.add_incoming(m1, end)
        for c, v in zip(counters, nxt):
            c.add_incoming(v, end)
        self.b.position_at_end(done)

    def loop_open(self, name: str, n: int, start: int = 0):
        pre = self.b.block
        head = self.fn.append_basic_block(f"{name}.loop")
        body = self.fn.append_basic_block(f"{name}.body")
        after = self.fn.append_basic_block(f"{name}.end")
        self.b.branch(head)
        self.b.position_at_end(head)
        iv = self.b.phi(I64, name=name)
        iv.add_incoming(I64(start), pre)
        self.b.cbranch(self.b.icmp_unsigned("<", iv, I64(n)), body, after)
        self.b.position_at_end(body)
        return iv, (head, after)

    def loop_close(self, iv, blocks) -> None:
        head, after = blocks
        nxt = self.b.add(iv, I64(1))
        iv.add_incoming(nxt, self.b.block)
        self.b.branch(head)
        self.b.position_at_end(after)

    def slot(self, t: _Tensor, addr):
        """The address of element ``addr`` (row-major position) of ``t``."""
        if t.array:
            return self.b.gep(t.ptr, [I64(0), addr], inbounds=True)
        return self.b.gep(t.ptr, [addr], source_etype=_ty(t.elem), inbounds=True)

    # ---- values
    def const(self, v, elem: str):
        ty = _ty(elem)
        return ir.Constant(ty, float(v) if _is_float(elem) else int(v))

    def arith(self, op: str, x, y, elem: str):
        b = self.b
        if _is_float(elem):
            return {"+": b.fadd, "-": b.fsub, "*": b.fmul, "/": b.fdiv}[op](x, y)
        return {"+": b.add, "-": b.sub, "*": b.mul, "/": b.sdiv}[op](x, y)

    def load(self, r: Ref, env: dict):
        t = self.tensors[r.name]
        ty = _ty(t.elem)
        if not t.indices:
            return self.b.load(self.slot(t, I64(0)), typ=ty)
        # r's indices name t's dimensions in order (a diagonal repeats one)
        addr = None
        stride = 1
        for pos in reversed(range(len(t.indices))):
            dim = t.indices[pos]
            i = r.indices[pos]
            term = env[i] if stride == 1 else self.b.mul(env[i], I64(stride))
            addr = term if addr is None else self.b.add(addr, term)
            stride *= t.ext[dim]
        return self.b.load(self.slot(t, addr), typ=ty)

    def value(self, e, env: dict, elem: str):
        if isinstance(e, Num):
            return self.const(e.value, elem)
        if isinstance(e, Ref):
            return self.load(e, env)
        if isinstance(e, Neg):
            x = self.value(e.expr, env, elem)
            return self.b.fneg(x) if _is_float(elem) else self.b.neg(x)
        if isinstance(e, Bin):
            x = self.value(e.lhs, env, elem)
            y = self.value(e.rhs, env, elem)
            return self.arith(e.op, x, y, elem)
        raise TypeError(f"unexpected node {e!r}")


def _is_float(elem: str) -> bool:
    return elem_kind(elem)[0] == "f"


def _products(e) -> int:
    """The ``*`` operations of an expression (after its sums are hoisted)."""
    if isinstance(e, Bin):
        return (e.op == "*") + _products(e.lhs) + _products(e.rhs)
    if isinstance(e, Neg):
        return _products(e.expr)
    return 0


def _in_tree(node, i: int) -> bool:
    return node == i if isinstance(node, int) else any(_in_tree(c, i) for c in node)


def _product(e):
    """(factors, scale) when ``e`` is a product of references and numbers, else
    (None, None)."""
    if isinstance(e, Ref):
        return [e], None
    if isinstance(e, Num):
        return [], e.value
    if isinstance(e, Bin) and e.op == "*":
        fa, sa = _product(e.lhs)
        fb, sb = _product(e.rhs)
        if fa is None or fb is None:
            return None, None
        scale = None if sa is None and sb is None else (sa or 1.0) * (sb or 1.0)
        return fa + fb, scale
    return None, None


def lower_kernel(k: Kernel, module: ir.Module | None = None) -> ir.Module:
    """The LLVM module (llvmlite IR) holding kernel ``k`` as a function."""
    module = module or ir.Module(name=k.name)
    _Lowerer(k, module).run()
    return module
