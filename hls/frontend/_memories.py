"""Memory lowering, shared by every frontend: globals threaded through the call tree,
word sizes and depths chosen per memory, byte offsets rewritten into word addresses.

Input: the functions, the byte-addressed accesses (:class:`._access.Access`) and the
pointer bindings of calls.  A memory's word is the widest power of two (at most 16 bytes)
that every access and every call binding provably respects: the low bits of each byte
offset are tracked as residues modulo a power of two (phis by fixpoint).  Accesses wider
than the word are split into word accesses; narrower ones get a lane."""

from __future__ import annotations

import re

from ..errors import FrontendError
from ..ir import Const, Function, Loc, MemoryObject, Op, PtrParam, Value
from ._access import OFF_W, Access, Ptr

__all__ = ["Residues", "align_of", "lower_memories", "thread_globals"]


def thread_globals(top: Function, functions: list[Function], accesses: list[Access],
               call_binds: list) -> list:
    """Writable globals used below the top become implicit pointer parameters of every
    function on the way, bound by each caller to its own view of the global; the top
    sees the global itself (an external memory).  Read-only globals stay ROMs, one
    copy per function that reads them."""
    direct: dict[Function, list[MemoryObject]] = {f: [] for f in functions}
    for acc in accesses:
        m = acc.ptr.mem
        if m.kind == "global" and not m.readonly and m not in direct[acc.func]:
            direct[acc.func].append(m)
    for op, binds in call_binds:
        f = op.block.function
        for _, ptr in binds:
            m = ptr.mem
            if m.kind == "global" and not m.readonly and m not in direct[f]:
                direct[f].append(m)
    used: dict[Function, list[MemoryObject]] = {}

    def closure(f: Function) -> list[MemoryObject]:
        if f not in used:
            used[f] = []
            out = list(direct[f])
            for c in f.callees():
                for m in closure(c):
                    if m not in out:
                        out.append(m)
            used[f] = out
        return used[f]

    closure(top)
    view: dict[tuple[Function, MemoryObject], MemoryObject] = {}
    for f in functions:
        for g in closure(f):
            if f is top:
                view[(f, g)] = g
                continue
            mem = MemoryObject(name=f"g_{g.name}", kind="arg", elem_bytes=g.elem_bytes,
                               loc=f.loc)
            f.params.append(PtrParam(index=-1, name=f"g_{g.name}", mem=mem))
            view[(f, g)] = mem
    for acc in accesses:
        m = acc.ptr.mem
        if (acc.func, m) in view:
            acc.ptr = Ptr(view[(acc.func, m)], acc.ptr.off)
    new_binds = []
    for op, binds in call_binds:
        f = op.block.function
        callee = op.attrs["callee"]
        out = [(p, Ptr(view.get((f, ptr.mem), ptr.mem), ptr.off)) for p, ptr in binds]
        for g in closure(callee):
            p = next(pp for pp in callee.ptr_params if pp.mem is view[(callee, g)])
            out.append((p, Ptr(view[(f, g)], Const(OFF_W, 0))))
        new_binds.append((op, out))
    return new_binds

def lower_memories(functions: list[Function], globals_: list[MemoryObject],
               accesses: list[Access], call_binds: list, top_mems: set,
               depths: dict, path: str) -> None:
    """Choose word sizes, depths, and rewrite byte offsets into word addresses."""
    # union memories bound together through calls
    parent: dict[MemoryObject, MemoryObject] = {}

    def find(m):
        while parent.get(m, m) is not m:
            m = parent.get(m, m)
        return m

    for op, binds in call_binds:
        for p, ptr in binds:
            a, b = find(p.mem), find(ptr.mem)
            if a is not b:
                parent[a] = b
    groups: dict[MemoryObject, list[MemoryObject]] = {}
    allmems = set()
    for acc in accesses:
        allmems.add(acc.ptr.mem)
    for f in functions:
        allmems.update(p.mem for p in f.ptr_params)
        allmems.update(f.memories)
    allmems.update(globals_)
    for m in allmems:
        groups.setdefault(find(m), []).append(m)
    res = Residues()
    unknown: list[MemoryObject] = []
    by_group: dict[MemoryObject, list[Access]] = {}
    for acc in accesses:
        by_group.setdefault(find(acc.ptr.mem), []).append(acc)
    bind_offs: dict[MemoryObject, list[Value]] = {}
    for op, binds in call_binds:
        for p, ptr in binds:
            bind_offs.setdefault(find(p.mem), []).append(ptr.off)
    for root, members in groups.items():
        accs = by_group.get(root, [])
        w = _choose_word_bytes(accs, bind_offs.get(root, []), res)
        for m in members:
            m.word_bytes = w
        for m in members:
            _size_memory(m, w, top_mems, depths)
        sized = [m.depth_words for m in members if m.depth_words]
        for m in members:
            if m.kind == "arg" and m not in top_mems:
                m.depth_words = max(sized, default=0)
            if m.depth_words == 0 and not _infer_depth(m, accs):
                unknown.append(m)
        fl = {a.float_bits for a in accs}
        if len(fl) == 1 and fl != {0}:
            fbits = next(iter(fl))
            for m in members:
                m.float_bits = fbits
        reads = any(a.op.kind == "load" for a in accs)
        writes = any(a.op.kind == "store" for a in accs)
        for m in members:
            if m.kind == "arg":
                m.readonly = not writes
                m.writeonly = writes and not reads
    if unknown:
        _unknown_depths(unknown, path)
    for acc in accesses:
        _lower_access(acc, res)
    for op, binds in call_binds:
        out = []
        for p, ptr in binds:
            w = p.mem.word_bytes
            sh = w.bit_length() - 1
            wa = _slice_before(op, ptr.off, sh, OFF_W - sh)
            out.append((p, ptr.mem))
            op.operands.append(wa)  # word offsets follow the scalar arguments
        op.attrs["ptr_args"] = out

def _infer_depth(m: MemoryObject, accs: list[Access]) -> bool:
    """An argument without --depth: only constant offsets give a provable extent.
    False: unknown."""
    offs = [a.ptr.off for a in accs]
    if accs and all(isinstance(o, Const) for o in offs):
        end = max(a.ptr.off.value + a.size for a in accs)
        m.depth_words = max(1, -(-end // m.word_bytes))
        return True
    if not accs:
        m.depth_words = 1
        return True
    return False


def check_depths(top: Function, depth: dict, path: str) -> None:
    """Every --depth names a pointer argument of the top (by name or position)."""
    ptrs = {p.name for p in top.ptr_params} | {str(p.index) for p in top.ptr_params}
    scalars = {p.name for p in top.params if not isinstance(p, PtrParam)}
    for name, n in depth.items():
        if name in ptrs:
            continue
        what = ("a scalar argument" if name in scalars else "not an argument")
        have = ", ".join(p.name for p in top.ptr_params) or "none"
        raise FrontendError(f"--depth {name}={n}: '{name}' is {what} of "
                            f"{top.name} (its pointer arguments: {have})", path, None)


def _unknown_depths(mems: list[MemoryObject], path: str) -> None:
    """One error for every argument whose extent is unknown (at the first one)."""
    mems = sorted(dict.fromkeys(mems), key=lambda m: (m.arg_index is None, m.arg_index or 0))
    loc = mems[0].loc or Loc(path, None)
    if len(mems) == 1:
        m = mems[0]
        raise FrontendError(
            f"the extent of pointer argument '{m.name}' is unknown: give it with "
            f"--depth {m.name}=N (N elements of {m.elem_bytes or m.word_bytes} bytes)",
            loc.file, loc.line)
    sizes = [m.elem_bytes or m.word_bytes for m in mems]
    each = (f"{sizes[0]} bytes" if len(set(sizes)) == 1 else
            ", ".join(f"{n} bytes for {m.name}" for n, m in zip(sizes, mems)))
    raise FrontendError(
        "the extents of pointer arguments " + ", ".join(f"'{m.name}'" for m in mems)
        + " are unknown: give them with " + " ".join(f"--depth {m.name}=N" for m in mems)
        + f" (N elements of {each})", loc.file, loc.line)

def _size_memory(m: MemoryObject, w: int, top_mems: set, depths: dict) -> None:
    if m.kind in ("global", "local"):
        size = max(len(m.init or b""), 1)
        m.depth_words = max(1, -(-size // w))
        m.init = (m.init or b"").ljust(m.depth_words * w, b"\0")
        return
    d = None
    if m in top_mems:
        d = depths.get(m.name, depths.get(str(m.arg_index)))
    if d is None:
        m.depth_words = 0  # filled in from the callers' bindings or reported later
        return
    eb = m.elem_bytes or w
    m.depth_words = max(1, -(-(int(d) * eb) // w))


class Residues:
    """Known low bits of byte offsets: ``v ≡ r (mod 2**k)``; phis by fixpoint."""

    def __init__(self):
        self.memo: dict[Value, tuple[int, int]] = {}

    def get(self, v: Value) -> tuple[int, int]:
        if isinstance(v, Const):
            return v.value, OFF_W
        if v in self.memo:
            return self.memo[v]
        if isinstance(v, Op) and v.kind == "phi":
            # optimistic fixpoint over the phi's incoming values
            self.memo[v] = (0, OFF_W + 1)  # top
            for _ in range(8):
                cur = self.memo[v]
                acc = None
                for _, x in v.incoming:
                    rx = self.get(x)
                    acc = rx if acc is None else _meet(acc, rx)
                acc = acc or (0, 0)
                if acc == cur:
                    break
                self.memo[v] = acc
                self._invalidate(v)
            else:
                self.memo[v] = (0, 0)
            r = self.memo[v]
            if r[1] > OFF_W:
                self.memo[v] = r = (0, OFF_W)
            return r
        r = self._compute(v)
        self.memo[v] = r
        return r

    def _invalidate(self, phi: Value) -> None:
        for k in [k for k in self.memo if k is not phi and not (isinstance(k, Op) and k.kind == "phi")]:
            del self.memo[k]

    def _compute(self, v: Value) -> tuple[int, int]:
        if not isinstance(v, Op):
            return 0, 0
        k = v.kind
        if k in ("add", "sub"):
            (ra, ka), (rb, kb) = self.get(v.operands[0]), self.get(v.operands[1])
            n = min(ka, kb)
            r = (ra + rb) if k == "add" else (ra - rb)
            return r % (1 << n) if n else 0, n
        if k == "mul" and isinstance(v.operands[1], Const):
            ra, ka = self.get(v.operands[0])
            c = v.operands[1].value
            tz = (c & -c).bit_length() - 1 if c else OFF_W
            n = min(OFF_W, ka + tz)
            return (ra * c) % (1 << n), n
        if k == "shl" and isinstance(v.operands[1], Const):
            ra, ka = self.get(v.operands[0])
            s = v.operands[1].value
            n = min(OFF_W, ka + s)
            return (ra << s) % (1 << n), n
        if k == "select":
            return _meet(self.get(v.operands[1]), self.get(v.operands[2]))
        if k in ("sext", "zext", "trunc"):
            ra, ka = self.get(v.operands[0])
            n = min(ka, v.operands[0].width, v.width)
            return ra % (1 << n) if n else 0, n
        return 0, 0


def _meet(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    n = min(a[1], b[1])
    while n > 0 and (a[0] - b[0]) % (1 << n):
        n -= 1
    return a[0] % (1 << n) if n else 0, n


def align_of(text: str) -> int:
    """The ``align`` an LLVM instruction or global states (0 when none)."""
    m = re.search(r", align (\d+)", text)
    return int(m.group(1)) if m else 0


def _known(acc: Access, res: Residues) -> tuple[int, int]:
    """Known low bits of an access's byte offset; a tagged pointer's access (an offset
    loaded from memory, say) may also rely on the alignment LLVM states for it."""
    r, k = res.get(acc.ptr.off)
    a = (acc.align & -acc.align).bit_length() - 1 if acc.align else 0
    if a > k:
        return 0, a
    return r, k


def _choose_word_bytes(accs: list[Access], bind_offs: list[Value], res: Residues) -> int:
    if not accs:
        return 1
    top = max(a.size for a in accs)
    w = 1 << (top - 1).bit_length()
    w = min(w, 16)
    while w > 1:
        lg = w.bit_length() - 1
        ok = True
        for a in accs:
            r, k = _known(a, res)
            if k < lg:
                ok = False
                break
            lane = r % w
            if a.size <= w:
                if lane + a.size > w:
                    ok = False
                    break
            elif a.size % w or lane:
                ok = False
                break
        for off in bind_offs:
            r, k = res.get(off)
            if k < lg or r % w:
                ok = False
        if ok:
            return w
        w //= 2
    return 1


def _slice_before(anchor: Op, v: Value, lo: int, width: int) -> Value:
    if isinstance(v, Const):
        return Const(width, v.value >> lo)
    op = Op(width=width, kind="slice", operands=[v], attrs={"lo": lo}, loc=anchor.loc)
    b = anchor.block
    op.block = b
    b.ops.insert(b.ops.index(anchor), op)
    return op


def _lower_access(acc: Access, res: Residues) -> None:
    op, mem = acc.op, acc.ptr.mem
    w = mem.word_bytes
    lg = w.bit_length() - 1
    r, _ = _known(acc, res)
    lane = r % w
    aw = OFF_W - lg
    base = _slice_before(op, acc.ptr.off, lg, aw)
    op.attrs["mem"] = mem
    if acc.size <= w:
        op.operands[0] = base
        op.attrs["lane"] = lane
        return
    # split into word accesses: word i at base + i
    n = acc.size // w
    guard = [op.operands[op.attrs["guard"]]] if "guard" in op.attrs else []
    b = op.block
    parts: list[Value] = []
    idx = b.ops.index(op)
    new_ops: list[Op] = []
    for i in range(n):
        addr: Value
        if isinstance(base, Const):
            addr = Const(aw, base.value + i)
        elif i == 0:
            addr = base
        else:
            addr = Op(width=aw, kind="add", operands=[base, Const(aw, i)], loc=op.loc)
            new_ops.append(addr)
        if op.kind == "load":
            ld = Op(width=8 * w, kind="load", operands=[addr] + guard, loc=op.loc,
                    attrs={"mem": mem, "lane": 0, "size": w, **({"guard": 1} if guard else {})})
            new_ops.append(ld)
            parts.append(ld)
        else:
            piece = Op(width=8 * w, kind="slice", operands=[op.operands[1]], loc=op.loc,
                       attrs={"lo": 8 * w * i})
            st = Op(width=0, kind="store", operands=[addr, piece] + guard, loc=op.loc,
                    attrs={"mem": mem, "lane": 0, "size": w, **({"guard": 2} if guard else {})})
            new_ops += [piece, st]
    for o in new_ops:
        o.block = b
    if op.kind == "load":
        b.ops[idx:idx] = new_ops
        op.kind = "concat"
        op.operands = parts
        op.attrs = {}
    else:
        b.ops[idx:idx + 1] = new_ops
