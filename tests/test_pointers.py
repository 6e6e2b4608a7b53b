"""Pointers as values (issue 9): phis and selects over different memories, pointers held in
memory, pointer comparisons across memories.

Each program of ``tests/programs`` is a whole C program whose ``main`` returns a checksum:
its translated CDFG is run by the IR interpreter against native execution (no Verilator),
and the design is co-simulated with ``--top main``.  Constructs without a hardware meaning
keep their clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.errors import UnsupportedError
from hls.frontend import load
from hls.ir import run_function
from hls.verify import cosim, run_main, without_dangling

PROGRAMS = Path(__file__).resolve().parent / "programs"
SOURCES = sorted(p.name for p in PROGRAMS.glob("*.c"))


# ----------------------------------------------------------------------------- CDFG level

@pytest.mark.parametrize("name", SOURCES)
def test_cdfg_matches_native(name):
    """The translated CDFG (steered accesses, tags, pointers in memory) run by the IR
    interpreter against native execution: main's value and every global, the pointers
    they hold re-encoded as tag << 32 | offset."""
    module = load(PROGRAMS / name, "main")
    res = run_function(module.top)
    glob = {m.symbol: m for m in module.globals if not m.readonly}
    sizes = {s: m.word_bytes * m.depth_words for s, m in glob.items()}
    dangling: dict = {}
    exp_ret, exp = run_main(module.llvm_ir, list(sizes), sizes, ptr_tags=module.ptr_tags,
                            ptr_slots=module.ptr_slots, dangling=dangling)
    assert res.ret == exp_ret & 0xFFFFFFFF
    for s, m in glob.items():
        # the native bytes stop at the C object's end; words round the memory up
        got = bytes(res.memories.get(m.name, m.init))[:len(exp[s])]
        # pointers into main's finished frame: not compared
        assert got == without_dangling(exp[s], got, dangling.get(s)), s


def test_dangling_pointer_slots_are_the_only_ones_skipped():
    """ptr_dangling_local.c leaves `cursor` pointing into main's local array: that one
    slot (and no other) is reported dangling, and the co-simulation passes."""
    module = load(PROGRAMS / "ptr_dangling_local.c", "main")
    sizes = {m.symbol: m.word_bytes * m.depth_words for m in module.globals if not m.readonly}
    dangling: dict = {}
    run_main(module.llvm_ir, list(sizes), sizes, ptr_tags=module.ptr_tags,
             ptr_slots=module.ptr_slots, dangling=dangling)
    assert dangling == {"cursor": [0]}


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
