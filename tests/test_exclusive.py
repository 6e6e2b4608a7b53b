"""Guarded accesses that never run together become one access (hls.transforms._exclusive).

* ``_never_both`` against brute force: random affine addresses (the generator of
  ``test_deps``), guards ``addr mod 2**k == c`` on two of them, evaluated over every
  iteration for many symbol values: a pair it calls exclusive never holds together.
* Before/after differentials at the IR level (the interpreter against native runs) of
  the pass on partitioned kernels: an FFT's butterflies in a complete partition (the
  enumeration proves the even and odd words never share a bank), a row walked from a
  run-time start in a cyclic partition, unrolled (the affine forms prove the copies
  hit different banks), and a data-dependent gather (nothing provably exclusive:
  nothing merged).
"""

from __future__ import annotations

import random

from hls.analysis import AffineAnalysis, find_loops
from hls.ir import Const, Op, verify
from hls.transforms import Partition, merge_exclusive_accesses, partition_array, run_passes
from hls.transforms import merge_blocks, unroll_block
from hls.transforms._exclusive import _never_both

from test_deps import _Loop
from test_rewrites_ir import Differential, _array_calls, _load


def test_never_both_is_sound_brute_force():
    rng = random.Random(20261128)
    claimed = 0
    for case in range(400):
        lp = _Loop(rng)
        a1, a2 = lp.load.operands[0], lp.store.operands[0]
        k = rng.randint(1, min(4, a1.width, a2.width))
        c1, c2 = rng.randrange(1 << k), rng.randrange(1 << k)
        s1 = Op(width=k, kind="slice", operands=[a1], attrs={"lo": 0})
        s2 = Op(width=k, kind="slice", operands=[a2], attrs={"lo": 0})
        if rng.random() < 0.2:
            s2 = s1   # the same value against two constants
        g1 = Op(width=1, kind="icmp", operands=[s1, Const(k, c1)], attrs={"pred": "eq"})
        g2 = Op(width=1, kind="icmp", operands=[s2, Const(k, c2)], attrs={"pred": "eq"})
        for op in (s1, s2, g1, g2):
            if op.block is None:
                lp.body.ops.insert(len(lp.body.ops) - 1, op)
                op.block = lp.body
        if not _never_both(g1, g2, AffineAnalysis(lp.body)):
            continue
        claimed += 1
        for env in lp.symbol_values(rng, 10):
            la, sa = lp.addresses(env)
            x2 = la if s2 is s1 else sa
            for j in range(lp.trip):
                assert not (la[j] % (1 << k) == c1 and x2[j] % (1 << k) == c2), (
                    case, j, la[j], x2[j], k, c1, c2)
    assert claimed > 60, claimed


FFT_C = r"""
#include <stdint.h>
void fft(int32_t real[32], int32_t img[32]) {
    for (int log = 0; log < 5; log++) {
        int span = 16 >> log;
        for (int b = 0; b < 16; b++) {
            int odd = ((b & ~(span - 1)) << 1) | span | (b & (span - 1));
            int even = odd ^ span;
            int32_t er = real[even], ei = img[even], o_r = real[odd], oi = img[odd];
            real[even] = (er + o_r) >> 1;
            img[even] = (ei + oi) >> 1;
            real[odd] = (er - o_r) * (b + log);
            img[odd] = (ei - oi) ^ (b << log);
        }
    }
}
"""


def _accesses(f, whole) -> list[Op]:
    return [op for op in f.ops() if op.kind in ("load", "store") and op.mem.whole is whole]


def test_fft_butterflies_in_a_complete_partition_merge(tmp_path):
    """Each bank of a complete partition gets one guarded copy of each of the four
    accesses of an array; the enumeration proves the two loads (and the two stores) of
    one bank never run together, so each bank keeps one load and one store.  Unrolled
    by 2, the four loads and four stores of a bank merge too."""
    for factor in (1, 2):
        m = _load(tmp_path, "f.c", FFT_C, "fft", {"real": 32, "img": 32})
        d = Differential(m, _array_calls(random.Random(factor), {0: 128, 1: 128}, [{}] * 6))
        f = m.top
        if factor > 1:
            inner = next(lp for lp in find_loops(f) if lp.parent is not None)
            unroll_block(f, inner.header, factor, inner.trip_count)
            merge_blocks(f)
        real = f.ptr_params[0].mem
        for mem in (real, f.ptr_params[1].mem):
            partition_array(m, mem, Partition("complete", 32))
        verify(f)
        assert len(_accesses(f, real)) == 4 * factor * 32
        n = merge_exclusive_accesses(f)
        verify(f)
        acc = _accesses(f, real)
        assert len(acc) == 2 * 32 and n == 2 * (4 * factor * 32 - 2 * 32), (len(acc), n)
        d.check(f"exclusive accesses, unrolled x{factor}")
        run_passes(f)
        d.check("all passes")


ROW_C = r"""
#include <stdint.h>
void rows(const int32_t val[64], const int32_t start[8], int32_t out[8]) {
    for (int i = 0; i < 8; i++) {
        int32_t s = 0;
        int b = start[i] & 31;
        for (int j = 0; j < 16; j++)
            s += val[b + j] * (j + 1);
        out[i] = s;
    }
}
"""


def test_a_row_from_a_run_time_start_in_a_cyclic_partition_merges(tmp_path):
    """``val[b + j]`` unrolled by 4 in a cyclic 4 partition: no copy knows its bank, each
    goes to all four banks, and the affine forms (``b + 4t + c``) prove the four copies
    of one bank exclusive: one load per bank remains."""
    m = _load(tmp_path, "r.c", ROW_C, "rows", {"val": 64, "start": 8, "out": 8})
    rng = random.Random(3)
    d = Differential(m, _array_calls(rng, {0: 256, 1: 32}, [{}] * 8))
    f = m.top
    inner = next(lp for lp in find_loops(f) if lp.parent is not None)
    unroll_block(f, inner.header, 4, inner.trip_count)
    merge_blocks(f)
    val = f.ptr_params[0].mem
    partition_array(m, val, Partition("cyclic", 4))
    verify(f)
    assert len(_accesses(f, val)) == 16
    assert merge_exclusive_accesses(f) == 12
    verify(f)
    assert len(_accesses(f, val)) == 4
    d.check("exclusive accesses")
    run_passes(f)
    d.check("all passes")


GATHER_C = r"""
#include <stdint.h>
void gather(const int32_t a[16], const int32_t x[8], const int32_t y[8], int32_t out[8]) {
    for (int i = 0; i < 8; i++)
        out[i] = a[x[i] & 15] - a[y[i] & 15];
}
"""


def test_a_data_dependent_gather_is_left_alone(tmp_path):
    """Two gathers whose banks come from loaded indices may hit one bank together:
    nothing is merged, and the partitioned kernel still agrees."""
    m = _load(tmp_path, "g.c", GATHER_C, "gather", {"a": 16, "x": 8, "y": 8, "out": 8})
    d = Differential(m, _array_calls(random.Random(5), {0: 64, 1: 32, 2: 32}, [{}] * 8))
    f = m.top
    a = f.ptr_params[0].mem
    partition_array(m, a, Partition("cyclic", 4))
    before = len(_accesses(f, a))
    assert merge_exclusive_accesses(f) == 0
    assert len(_accesses(f, a)) == before == 8
    d.check("exclusive accesses")


SEARCH_C = r"""
#include <stdint.h>
int32_t first_negative(const int32_t a[64], int32_t n) {
    int32_t i = 0, v = 0;
    do {
        v = a[i];
        i++;
    } while (v >= 0 && i < n);
    return v * 1000 + i;
}
"""


def test_a_guard_computed_from_a_member_keeps_the_group_apart(tmp_path):
    """A do-while search unrolled by 2: the second copy's load runs only if the first
    copy's value did not end the loop, so its guard reads the first load; the two hit
    different banks of a cyclic 4 partition (exclusive), but one load cannot be placed
    before the value it depends on: they stay two, the IR stays valid and agrees."""
    m = _load(tmp_path, "s.c", SEARCH_C, "first_negative", {"a": 64})
    rng = random.Random(9)
    scal = [{1: n} for n in (0, 1, 2, 3, 5, 17, 64)]
    d = Differential(m, _array_calls(rng, {0: 256}, scal))
    f = m.top
    from hls.transforms import if_convert
    if_convert(f)
    lp = find_loops(f)[0]
    unroll_block(f, lp.header, 2, lp.trip_count)
    merge_blocks(f)
    a = f.ptr_params[0].mem
    partition_array(m, a, Partition("cyclic", 4))
    verify(f)
    merge_exclusive_accesses(f)
    verify(f)
    d.check("exclusive accesses")
