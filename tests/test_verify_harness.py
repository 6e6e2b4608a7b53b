"""Tests of the Verilator co-simulation harness (hls.verify) on a hand-written design.

``tests/data/vadd.v`` obeys hls/interface.py: c[i] = a[i] + b[i] for i < n, returns the
sum, 2*n + 2 cycles per call.  Variants (off-by-one, never ap_done) are made by rewriting
its ``BUG`` knob.  Builds go to the normal cache (``$PYHLS_CACHE`` or ~/.cache/pyhls), so
only the first run pays for Verilator.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hls.interface import MemoryPort, ScalarPort, TopInterface  # noqa: E402
from hls.verify import (  # noqa: E402
    Call,
    build_harness,
    default_cache_dir,
    run_cosim,
    run_cosim_main,
)

DATA = Path(__file__).resolve().parent / "data"
DEPTH = 12  # words per memory; the design's 4 address bits can reach 15 (out of range)
MASK32 = 0xFFFFFFFF


def make_iface(c_global: bool = False) -> TopInterface:
    if c_global:
        c = MemoryPort("c", 4, DEPTH, 1, None, global_name="g_c", elem_bytes=4,
                       init=bytes(range(4 * DEPTH)))
    else:
        c = MemoryPort("c", 4, DEPTH, 1, 2, elem_bytes=4, writeonly=True)
    return TopInterface(
        module_name="vadd",
        function="vadd",
        scalars=(ScalarPort("n", 3, 32),),
        memories=(
            MemoryPort("a", 4, DEPTH, 1, 0, elem_bytes=4, readonly=True),
            MemoryPort("b", 4, DEPTH, 1, 1, elem_bytes=4, readonly=True),
            c,
        ),
        return_width=32,
    )


def enc(words: list[int]) -> bytes:
    return b"".join((w & MASK32).to_bytes(4, "little") for w in words)


def dec(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def vadd_call(rng: random.Random, n: int) -> Call:
    """A call with its expected results (the Python model of vadd)."""
    a = [rng.getrandbits(32) for _ in range(DEPTH)]
    b = [rng.getrandbits(32) for _ in range(DEPTH)]
    c = [rng.getrandbits(32) for _ in range(DEPTH)]
    out = list(c)
    total = 0
    for i in range(min(n, DEPTH)):
        out[i] = (a[i] + b[i]) & MASK32
        total = (total + out[i]) & MASK32
    return Call(scalars={3: n}, mem_in={0: enc(a), 1: enc(b), 2: enc(c)},
                mem_out={0: enc(a), 1: enc(b), 2: enc(out)}, ret=total)


@pytest.fixture(scope="module")
def designs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """vadd.v and its variants; each is built once (and cached across runs)."""
    d = tmp_path_factory.mktemp("vadd")
    src = (DATA / "vadd.v").read_text()
    out = {}
    for name, bug in (("ok", 0), ("obo", 1), ("hang", 2)):
        p = d / f"vadd_{name}.v"
        p.write_text(src.replace("`define BUG 0", f"`define BUG {bug}"))
        out[name] = p
    return out


def test_correct_run_passes_with_cycle_count(designs, tmp_path):
    rng = random.Random(1)
    ns = [5, 0, DEPTH, 1]
    calls = [vadd_call(rng, n) for n in ns]
    res = run_cosim([designs["ok"]], make_iface(), calls, max_cycles=1000, workdir=tmp_path)
    assert res.passed, res.summary()
    assert [c.cycles for c in res.calls] == [2 * n + 2 for n in ns]
    assert res.total_cycles == sum(2 * n + 2 for n in ns)
    assert all(c.status == "ok" for c in res.calls)
    assert res.to_json() == {
        "passed": True,
        "calls": [{"cycles": 2 * n + 2, "passed": True} for n in ns],
        "total_cycles": sum(2 * n + 2 for n in ns),
        "mismatches": [],
    }


def test_off_by_one_reports_mismatch(designs, tmp_path):
    rng = random.Random(2)
    good = vadd_call(rng, 3)
    bad = vadd_call(rng, 5)
    res = run_cosim([designs["obo"]], make_iface(), [bad, good], max_cycles=1000,
                    workdir=tmp_path)
    assert not res.passed
    assert not res.calls[0].passed and not res.calls[1].passed
    a, b, c_in = dec(bad.mem_in[0]), dec(bad.mem_in[1]), dec(bad.mem_in[2])
    m = res.mismatches[0]
    assert (m.call, m.arg, m.index) == (0, "c", 5)
    assert m.expected == c_in[5]
    assert m.got == (a[5] + b[5]) & MASK32
    ret = [x for x in res.mismatches if x.call == 0 and x.arg == "return"]
    assert ret and ret[0].expected == bad.ret
    assert ret[0].got == (bad.ret + a[5] + b[5]) & MASK32
    js = res.to_json()
    assert js["passed"] is False
    assert js["mismatches"][0] == {"call": 0, "arg": "c", "index": 5,
                                   "expected": c_in[5], "got": (a[5] + b[5]) & MASK32}
    assert "call 0: c[5]" in res.summary()


def test_hang_times_out(designs, tmp_path):
    rng = random.Random(3)
    calls = [vadd_call(rng, 4), vadd_call(rng, 2)]
    # the cycle bound ends the run (no wall-clock limit is involved or asserted)
    res = run_cosim([designs["hang"]], make_iface(), calls, max_cycles=500, workdir=tmp_path)
    assert not res.passed
    assert res.calls[0].status == "timeout"
    assert res.calls[0].cycles == 500
    assert res.calls[0].message == "no ap_done within 500 cycles"
    assert res.calls[0].mismatches == [] and res.mismatches == []   # nothing to compare
    assert res.summary().splitlines()[1] == ("call 0: no ap_done within 500 cycles, the "
                                             "limit max_cycles sets; raise it")
    assert res.calls[1].status == "skipped"
    assert res.to_json()["calls"][0]["passed"] is False


def test_out_of_range_address_is_a_design_error(designs, tmp_path):
    rng = random.Random(4)
    call = vadd_call(rng, DEPTH + 2)  # the design walks past the 12-word memories
    res = run_cosim([designs["ok"]], make_iface(), [call], max_cycles=1000, workdir=tmp_path)
    assert not res.passed
    c0 = res.calls[0]
    assert c0.status == "error"
    assert "call 0" in c0.message and "memory 'a'" in c0.message
    assert "address 12 out of range" in c0.message and "cycle" in c0.message


def test_build_cache_is_hit(designs):
    iface = make_iface()
    first = build_harness([designs["ok"]], iface)
    mtime = first.stat().st_mtime_ns
    second = build_harness([designs["ok"]], iface)
    assert second == first
    assert second.stat().st_mtime_ns == mtime  # the binary was not rebuilt
    assert first.parent.parent == default_cache_dir()
    # No leftover private build directories of ours.
    assert not any(p.name.startswith(f".build-{first.parent.name[:12]}")
                   for p in first.parent.parent.iterdir())


def test_globals_persist_across_calls(designs, tmp_path):
    """A memory standing for a global starts from ``init`` and keeps its contents
    across calls (argument memories are reloaded per call)."""
    iface = make_iface(c_global=True)
    init = dec(iface.memories[2].init or b"")
    rng = random.Random(5)
    c1, c2 = vadd_call(rng, 6), vadd_call(rng, 2)
    g = list(init)
    for call in (c1, c2):
        a, b = dec(call.mem_in[0]), dec(call.mem_in[1])
        n = call.scalars[3]
        for i in range(n):
            g[i] = (a[i] + b[i]) & MASK32
        call.glob_out = {"g_c": enc(g)}
        del call.mem_out[2]
    res = run_cosim([designs["ok"]], iface, [c1, c2], max_cycles=1000, workdir=tmp_path)
    assert res.passed, res.summary()
    # A fresh run starts from init again; a wrong expectation is reported by global name.
    wrong = list(init)
    wrong[7] ^= 1
    call = Call(scalars={3: 0}, mem_in={}, ret=0, glob_out={"g_c": enc(wrong)})
    res2 = run_cosim([designs["ok"]], iface, [call], max_cycles=100, workdir=tmp_path)
    assert not res2.passed
    assert (res2.mismatches[0].arg, res2.mismatches[0].index) == ("g_c", 7)


def test_run_cosim_main_rejects_scalar_tops(designs, tmp_path):
    from hls.errors import CosimError

    with pytest.raises(CosimError, match="no value for scalar 'n'"):
        run_cosim_main([designs["ok"]], make_iface(), 0, {}, max_cycles=10, workdir=tmp_path)


def memsem_iface() -> TopInterface:
    return TopInterface(
        module_name="memsem",
        function="memsem",
        scalars=(ScalarPort("mode", 1, 8),),
        memories=(MemoryPort("m", 4, 4, 2, 0, elem_bytes=4),),
        return_width=32,
    )


def test_memory_semantics_byte_enable_read_first_hold(tmp_path):
    """tests/data/memsem.v: byte-enable write, read-first on the other port at the same
    edge, q holding while ce=0, and a same-word double write flagged as an error."""
    w = [0x11223344, 0x55667788, 0x99AABBCC, 0xDDEEFF00]
    merged = (w[0] & 0xFF00FF00) | (0xAABBCCDD & 0x00FF00FF)
    ok = Call(scalars={1: 0}, mem_in={0: enc(w)}, mem_out={0: enc([merged, w[0], merged, w[0]])},
              ret=merged)
    double = Call(scalars={1: 1}, mem_in={0: enc(w)})
    res = run_cosim([DATA / "memsem.v"], memsem_iface(), [ok, double, ok], max_cycles=100,
                    workdir=tmp_path)
    assert res.calls[0].passed and res.calls[2].passed, res.summary()
    assert [c.cycles for c in res.calls] == [7, 7, 7]
    assert res.calls[1].status == "error"
    assert "call 1" in res.calls[1].message
    assert "memory 'm': both ports write word 1" in res.calls[1].message
    assert not res.passed


def test_waves_writes_vcd(tmp_path):
    w = [1, 2, 3, 4]
    call = Call(scalars={1: 0}, mem_in={0: enc(w)})
    res = run_cosim([DATA / "memsem.v"], memsem_iface(), [call], max_cycles=100,
                    waves=True, workdir=tmp_path)
    assert res.calls[0].status == "ok" and res.calls[0].cycles == 7
    assert res.waves is not None and res.waves.exists()
    text = res.waves.read_text()
    assert "$enddefinitions" in text and "m_we0" in text


def test_harness_template_is_package_data():
    """The harness template lives inside the package (an installed wheel co-simulates;
    benchmarks/check_wheel.sh checks that end to end)."""
    import hls
    from hls.verify._harness import _template_path

    p = _template_path()
    assert p.is_file()
    assert Path(hls.__file__).resolve().parent in p.parents
