"""Types and shapes of an EKL kernel (:func:`check`).

Every index takes its extent from the tensors it indexes; each expression node gets its
free indices (``node.free``, in order of first appearance), the extents of those
(``node.ext``) and its element type (``node.elem``).  Whole-tensor operands (``X`` in
``let r = D * t``) are given positional indices ``_0, _1, ...``, so after checking every
reference is indexed and every statement names its indices.  Errors (``file:line:col``,
with the span): unknown names, names defined twice, conflicting extents, free indices on
the right that the left does not bind (and left indices the right does not give),
summation indices their body does not use or that are also free outside, mixed element
types, shapes of whole tensors that differ, outputs written twice or never.
"""

from __future__ import annotations

from ._syntax import ELEMS, Arg, Bin, EKLError, Kernel, Neg, Num, Ref, Span, Stmt, Sum

__all__ = ["check"]


class _Ctx:
    def __init__(self, k: Kernel):
        self.k = k
        #: tensor -> (elem, shape, defining node)
        self.tensors: dict[str, tuple[str, tuple[int, ...], object]] = {}

    def err(self, msg: str, span: Span) -> EKLError:
        return EKLError(msg, self.k.path, span, self.k.source)


def check(k: Kernel) -> Kernel:
    cx = _Ctx(k)
    for a in k.args:
        if a.name in cx.tensors:
            raise cx.err(f"argument '{a.name}' is declared twice", a.span)
        cx.tensors[a.name] = (a.elem, a.shape, a)
    written: dict[str, Stmt] = {}
    for st in k.stmts:
        _statement(cx, st, written)
    for a in k.args:
        if a.out and a.name not in written:
            raise cx.err(f"output '{a.name}' is never written (an 'out {a.name} = ...;' "
                         "statement is missing)", a.span)
    k.tensors = {n: (e, s) for n, (e, s, _d) in cx.tensors.items()}
    return k


def _statement(cx: _Ctx, st: Stmt, written: dict) -> None:
    k = cx.k
    known = cx.tensors.get(st.target)
    if st.kind == "out":
        if known is None or not isinstance(known[2], Arg):
            raise cx.err(f"'out {st.target}' writes '{st.target}', which is not an argument of "
                         f"kernel {k.name}", st.span)
        if not known[2].out:
            raise cx.err(f"'{st.target}' is an input of kernel {k.name}: only arguments "
                         f"declared 'out&' can be written", st.span)
        if st.target in written:
            raise cx.err(f"output '{st.target}' is written twice (first at line "
                         f"{written[st.target].span.line})", st.span)
        written[st.target] = st
    elif known is not None:
        what = "an argument" if isinstance(known[2], Arg) else "defined already"
        raise cx.err(f"'{st.target}' is {what}: a 'let' defines a new tensor", st.span)
    if st.indices is not None and len(set(st.indices)) != len(st.indices):
        dup = next(i for n, i in enumerate(st.indices) if i in st.indices[:n])
        raise cx.err(f"index '{dup}' appears twice on the left", st.span)
    whole = _has_whole(st.expr)
    if st.indices is None:
        _expr(cx, st.expr, {}, elementwise=True)
        if st.expr.free and not whole:
            raise cx.err(f"the right side has free indices {', '.join(st.expr.free)}: name "
                         f"them on the left ('{st.kind} {st.target}[{', '.join(st.expr.free)}] "
                         "= ...')", _first_span(st.expr))
        st.indices = st.expr.free
        ext = dict(zip(st.expr.free, st.expr.ext))
    else:
        if whole:
            raise cx.err("a whole tensor (without indices) can only appear where the left "
                         "side has no indices either", _whole_span(st.expr))
        _expr(cx, st.expr, {}, elementwise=False)
        free = set(st.expr.free)
        for i, sp in zip(st.indices, st.index_spans):
            if i not in free:
                raise cx.err(f"index '{i}' on the left does not appear on the right (nothing "
                             "gives its extent)", sp)
        for i in st.expr.free:
            if i not in st.indices:
                raise cx.err(f"index '{i}' is free on the right but not bound on the left "
                             f"(sum over it with '<+ {i}< ...', or add it to "
                             f"'{st.target}[...]')", _index_span(st.expr, i))
        ext = dict(zip(st.expr.free, st.expr.ext))
    shape = tuple(ext[i] for i in st.indices)
    if st.kind == "out":
        elem, dshape, arg = known
        if elem != st.expr.elem and st.expr.elem is not None:
            raise cx.err(f"type mismatch: '{st.target}' is {elem}, the right side is "
                         f"{st.expr.elem}", st.span)
        if dshape != shape:
            raise cx.err(f"'{st.target}' is declared {elem}{list(dshape)}, the right side "
                         f"gives shape {list(shape)}", st.span)
        st.elem = elem
    else:
        st.elem = st.expr.elem or "f64"
        if st.expr.elem is None:      # numbers only: f64 unless stated otherwise
            _set_elem(st.expr, "f64")
        cx.tensors[st.target] = (st.elem, shape, st)
    st.shape = shape
    st.extents = ext


def _has_whole(e) -> bool:
    if isinstance(e, Ref):
        return e.indices is None
    if isinstance(e, Bin):
        return _has_whole(e.lhs) or _has_whole(e.rhs)
    if isinstance(e, (Neg, Sum)):
        return _has_whole(e.expr if isinstance(e, Neg) else e.body)
    return False


def _whole_span(e) -> Span:
    if isinstance(e, Ref) and e.indices is None:
        return e.span
    for c in _children(e):
        if _has_whole(c):
            return _whole_span(c)
    return e.span


def _children(e):
    if isinstance(e, Bin):
        return [e.lhs, e.rhs]
    if isinstance(e, Neg):
        return [e.expr]
    if isinstance(e, Sum):
        return [e.body]
    return []


def _first_span(e) -> Span:
    if isinstance(e, Ref):
        return e.span
    for c in _children(e):
        if getattr(c, "free", ()):
            return _first_span(c)
    return e.span


def _index_span(e, i: str) -> Span:
    if isinstance(e, Ref) and e.indices and i in e.indices:
        return e.index_spans[e.indices.index(i)] if e.index_spans else e.span
    for c in _children(e):
        if i in getattr(c, "free", ()):
            return _index_span(c, i)
    return e.span


def _set_elem(e, elem: str) -> None:
    if getattr(e, "elem", None) is None:
        e.elem = elem
    for c in _children(e):
        _set_elem(c, elem)


def _merge(cx: _Ctx, a, b, span: Span) -> tuple[tuple, tuple]:
    free, ext = list(a.free), list(a.ext)
    for i, n in zip(b.free, b.ext):
        if i in free:
            m = ext[free.index(i)]
            if m != n:
                raise cx.err(f"index '{i}' has conflicting extents {m} and {n}",
                             _index_span(b, i))
        else:
            free.append(i)
            ext.append(n)
    return tuple(free), tuple(ext)


def _elem(cx: _Ctx, a, b, span: Span) -> str | None:
    if a.elem is None:
        return b.elem
    if b.elem is None or a.elem == b.elem:
        return a.elem
    raise cx.err(f"type mismatch: {a.elem} and {b.elem} operands (EKL converts nothing "
                 "implicitly)", span)


def _expr(cx: _Ctx, e, bound: dict, elementwise: bool) -> None:
    """Annotate ``e`` with ``free``, ``ext`` and ``elem``; ``bound``: summation indices
    of enclosing sums (index -> span)."""
    if isinstance(e, Num):
        e.free, e.ext, e.elem = (), (), None
        return
    if isinstance(e, Ref):
        t = cx.tensors.get(e.name)
        if t is None:
            raise cx.err(f"unknown name '{e.name}' (not an argument or a tensor defined "
                         "above)", e.span)
        elem, shape, d = t
        if isinstance(d, Arg) and d.out:
            raise cx.err(f"'{e.name}' is an output of the kernel: it cannot be read",
                         e.span)
        if e.indices is None:
            e.indices = tuple(f"_{n}" for n in range(len(shape)))
            e.index_spans = (e.span,) * len(shape)
            e.whole = True
        if len(e.indices) != len(shape):
            raise cx.err(f"'{e.name}' has {len(shape)} dimension(s) {list(shape)}, indexed "
                         f"with {len(e.indices)}", e.span)
        free, ext = [], []
        for i, n, sp in zip(e.indices, shape, e.index_spans or (e.span,) * len(shape)):
            if i in free:
                m = ext[free.index(i)]
                if m != n:
                    raise cx.err(f"index '{i}' has conflicting extents {m} and {n}", sp)
                continue        # a diagonal: X[i, i]
            free.append(i)
            ext.append(n)
        e.free, e.ext, e.elem = tuple(free), tuple(ext), elem
        return
    if isinstance(e, Neg):
        _expr(cx, e.expr, bound, elementwise)
        e.free, e.ext, e.elem = e.expr.free, e.expr.ext, e.expr.elem
        return
    if isinstance(e, Bin):
        _expr(cx, e.lhs, bound, elementwise)
        _expr(cx, e.rhs, bound, elementwise)
        if elementwise and e.lhs.free and e.rhs.free:
            ls = tuple(e.lhs.ext)
            rs = tuple(e.rhs.ext)
            if ls != rs:
                raise cx.err(f"shapes {list(ls)} and {list(rs)} of an elementwise '{e.op}' "
                             "differ", e.span)
        e.free, e.ext = _merge(cx, e.lhs, e.rhs, e.span)
        e.elem = _elem(cx, e.lhs, e.rhs, e.span)
        return
    if isinstance(e, Sum):
        if len(set(e.indices)) != len(e.indices):
            raise cx.err("a summation index is given twice", e.span)
        for i, sp in zip(e.indices, e.index_spans):
            if i in bound:
                raise cx.err(f"index '{i}' is summed twice (here and at line "
                             f"{bound[i].line}, column {bound[i].col})", sp)
        inner = dict(bound)
        inner.update(zip(e.indices, e.index_spans))
        _expr(cx, e.body, inner, elementwise=False)
        for i, sp in zip(e.indices, e.index_spans):
            if i not in e.body.free:
                raise cx.err(f"summation index '{i}' does not appear in the sum's body", sp)
        keep = [(i, n) for i, n in zip(e.body.free, e.body.ext) if i not in e.indices]
        e.free = tuple(i for i, _ in keep)
        e.ext = tuple(n for _, n in keep)
        e.elem = e.body.elem
        return
    raise cx.err("unsupported expression", getattr(e, "span", Span(1, 1, 2)))


def elem_kind(elem: str) -> tuple[str, int]:
    return ELEMS[elem]
