"""Pointers as values (issue 9): phis and selects over different memories, pointers held in
memory, pointer comparisons across memories.

Each program of ``tests/programs`` is a whole C program whose ``main`` returns a checksum:
its translated CDFG is run by a small interpreter against native execution (no Verilator),
and the design is co-simulated with ``--top main``.  Constructs without a hardware meaning
keep their clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.errors import UnsupportedError
from hls.frontend import load
from hls.ir import Const
from hls.verify import cosim
from hls.verify._golden import run_main

PROGRAMS = Path(__file__).resolve().parent / "programs"
SOURCES = sorted(p.name for p in PROGRAMS.glob("*.c"))


# ----------------------------------------------------------------------------- interpreter

def _mask(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _binop(kind: str, a: int, b: int, w: int) -> int:
    sa, sb = _signed(a, w), _signed(b, w)
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if kind == "and":
        return a & b
    if kind == "or":
        return a | b
    if kind == "xor":
        return a ^ b
    if kind == "shl":
        return a << b if b < w else 0
    if kind == "lshr":
        return a >> b if b < w else 0
    if kind == "ashr":
        return sa >> min(b, w - 1)
    if kind == "udiv":
        return a // b if b else 0
    if kind == "urem":
        return a % b if b else 0
    if kind == "sdiv":
        return int(sa / sb) if sb else 0
    if kind == "srem":
        return sa - sb * int(sa / sb) if sb else 0
    if kind in ("smax", "smin"):
        return (max if kind == "smax" else min)(sa, sb)
    if kind in ("umax", "umin"):
        return (max if kind == "umax" else min)(a, b)
    raise NotImplementedError(kind)


_PREDS = {
    "eq": lambda a, b, w: a == b, "ne": lambda a, b, w: a != b,
    "ult": lambda a, b, w: a < b, "ule": lambda a, b, w: a <= b,
    "ugt": lambda a, b, w: a > b, "uge": lambda a, b, w: a >= b,
    "slt": lambda a, b, w: _signed(a, w) < _signed(b, w),
    "sle": lambda a, b, w: _signed(a, w) <= _signed(b, w),
    "sgt": lambda a, b, w: _signed(a, w) > _signed(b, w),
    "sge": lambda a, b, w: _signed(a, w) >= _signed(b, w),
}


def run_cdfg(func, mems: dict, max_steps: int = 1_000_000) -> int | None:
    """Execute a translated function without calls; ``mems``: MemoryObject -> bytearray of
    its words (updated in place).  Returns the return value."""
    env: dict = {}

    def val(v):
        return v.value if isinstance(v, Const) else env[v]

    block, prev, steps = func.entry, None, 0
    while True:
        phis = [(op, val(next(x for b, x in op.incoming if b is prev))) for op in block.phis]
        for op, x in phis:
            env[op] = x
        for op in block.ops:
            steps += 1
            assert steps < max_steps, "no termination"
            k, w = op.kind, op.width
            if k == "phi":
                continue
            ops = [val(x) for x in op.operands]
            if k in ("load", "store"):
                m, lane, size = op.mem, op.attrs["lane"], op.attrs["size"]
                on = ops[op.attrs["guard"]] if "guard" in op.attrs else 1
                at = ops[0] * m.word_bytes + lane
                buf = mems[m]
                if k == "load":
                    env[op] = int.from_bytes(buf[at:at + size], "little") if on else 0
                elif on:
                    buf[at:at + size] = _mask(ops[1], 8 * size).to_bytes(size, "little")
                continue
            if k == "ret":
                return ops[0] if ops else None
            if k == "br":
                prev, block = block, op.targets[0]
                break
            if k == "condbr":
                prev, block = block, op.targets[0 if ops[0] else 1]
                break
            if k == "switch":
                tgt = op.targets[0]
                for c, t in zip(op.cases, op.targets[1:]):
                    if ops[0] == c:
                        tgt = t
                        break
                prev, block = block, tgt
                break
            if k == "icmp":
                r = int(_PREDS[op.attrs["pred"]](ops[0], ops[1], op.operands[0].width))
            elif k == "select":
                r = ops[1] if ops[0] else ops[2]
            elif k in ("zext", "trunc"):
                r = ops[0]
            elif k == "sext":
                r = _signed(ops[0], op.operands[0].width)
            elif k == "slice":
                r = ops[0] >> op.attrs["lo"]
            elif k == "concat":
                r, sh = 0, 0
                for x, v in zip(op.operands, ops):
                    r |= v << sh
                    sh += x.width
            elif k == "abs":
                r = abs(_signed(ops[0], w))
            else:
                r = _binop(k, ops[0], ops[1], w)
            env[op] = _mask(r, w)


def _interpret(src: Path):
    module = load(src, "main")
    top = module.top
    assert all(op.kind != "call" for op in top.ops()), "the interpreter runs main alone"
    mems = {}
    for f in module.functions:
        for m in list(f.memories) + [p.mem for p in f.ptr_params]:
            mems[m] = bytearray((m.init or b"").ljust(m.word_bytes * m.depth_words, b"\0"))
    for m in module.globals:
        mems[m] = bytearray((m.init or b"").ljust(m.word_bytes * m.depth_words, b"\0"))
    ret = run_cdfg(top, mems)
    return module, ret, mems


@pytest.mark.parametrize("name", [s for s in SOURCES if "noinline" not in s])
def test_cdfg_matches_native(name):
    """The translated CDFG (steered accesses, tags, pointers in memory) against native
    execution: main's value and every global, pointers re-encoded as tag << 32 | offset."""
    module, ret, mems = _interpret(PROGRAMS / name)
    glob = {m.symbol: m for m in module.globals}
    sizes = {s: m.elem_bytes for s, m in glob.items()}
    exp_ret, exp = run_main(module.llvm_ir, list(sizes), sizes, ptr_tags=module.ptr_tags,
                            ptr_slots=module.ptr_slots)
    assert ret == exp_ret & 0xFFFFFFFF
    for s, m in glob.items():
        assert bytes(mems[m][:sizes[s]]) == exp[s], s


def test_pointer_select_is_steered():
    """A select between two tables: each load through it is one guarded load per table."""
    module = load(PROGRAMS / "ptr_select_store.c", "main")
    stores = [op for op in module.top.ops() if op.kind == "store" and "guard" in op.attrs]
    assert {op.mem.name for op in stores} == {"a", "b"}


def test_single_memory_pointers_untagged():
    """A pointer walk over one memory stays a plain offset: no tags, no guards."""
    module = load(PROGRAMS / "ptr_phi_global.c", "main")
    assert not any("guard" in op.attrs for op in module.top.ops())
    assert not module.ptr_tags and not module.ptr_slots


# ----------------------------------------------------------------------------- co-simulation

@pytest.mark.parametrize("name", SOURCES)
def test_cosim_top_main(name):
    res = cosim(PROGRAMS / name, "main")
    assert res.passed, res.summary()
    assert not any(c.mismatches for c in res.calls)


# ----------------------------------------------------------------------------- still rejected

REJECTED = {
    "fnptr.c": ("""
static int f1(int x) { return x + 1; }
static int f2(int x) { return x * 2; }
int (*tab[2])(int) = {f1, f2};
int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += tab[i & 1](i); return s; }
""", 4, "an indirect call through a function pointer is not supported for hardware"),
    "malloc.c": ("""
void *malloc(unsigned long);
int *keep;
int main(void) { int *p = malloc(16); for (int i = 0; i < 4; i++) p[i] = i; keep = p; return p[3]; }
""", 3, "a call to the undefined external function 'malloc' is not supported for hardware"),
    "null.c": ("""
int *gp;
int main(void) { return gp ? *gp : 7; }
""", 2, "an access through a pointer loaded from memory that no code of the design sets"),
    "noinline_multi.c": ("""
int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
__attribute__((noinline)) static int sum(const int *p, int n)
{ int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int main(void) { int s = 0; for (int k = 0; k < 4; k++) s += sum(k & 1 ? a : b, k); return s; }
""", 4, "passing a pointer whose memory is decided at run time"),
}


REJECTED["other_local.c"] = ("""
int *gp;
int g2[4] = {5, 6, 7, 8};
__attribute__((noinline)) static int use(void) { int s = 0; for (int i = 0; i < 4; i++) s += gp[i]; return s; }
int main(void) {
  int loc[4];
  for (int i = 0; i < 4; i++) loc[i] = i * i + 1;
  gp = g2; int s = use();
  gp = loc; s = s * 100 + use();
  gp = g2 + 1;
  return s;
}
""", 3, "a pointer loaded from memory in @use that may point into a local array of another function")
REJECTED["host_pointer.c"] = ("""
int top(int **tab, int n) { int s = 0; for (int i = 0; i < n; i++) s += *tab[i]; return s; }
""", 1, "a pointer held in the buffer of a pointer argument of the top function")


@pytest.mark.parametrize("fname", sorted(REJECTED))
def test_rejected_with_clear_error(fname, tmp_path):
    text, line, msg = REJECTED[fname]
    src = tmp_path / fname
    src.write_text(text.lstrip("\n"))
    with pytest.raises(UnsupportedError) as exc:
        load(src, "top" if "top(" in text else "main")
    s = str(exc.value)
    assert s.startswith(f"{src}:{line}: error: "), s
    assert msg in s, s
