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
    (1331, 64, 3.0),       # 512 x 72: three tiles deep
    (121, 64, 1.0),        # 512 x 72 (two RAMB18s of 512 x 36 side by side)
    (1024, 36, 1.0),
    (2048, 18, 1.0),
    (4096, 9, 1.0),
    (1024, 32, 1.0),
    (1025, 32, 1.5),       # a RAMB36 and a RAMB18
    (16384, 1, 0.5),
    (32768, 1, 1.0),
    (100, 128, 2.0),       # 128 bits: two 512 x 72 side by side
])
def test_bram36_tiles(depth, width, tiles):
    assert bram36_tiles(depth, width) == tiles


def test_share_locals_cosim_on_and_off():
    depth = {"in": 128, "out": 128}
    res = synthesize(SHARE, SynthOptions(top="share", depth=depth))
    plm = res.report["plm"]
    groups = sorted(sorted(g["arrays"]) for g in plm["groups"])
    assert groups == [["share_a", "share_c"], ["share_b"]], plm
    assert plm["bram36"] < plm["bram36_unshared"]
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


def test_helmholtz_temporaries_shared():
    res = synthesize(ROOT / "examples" / "ekl" / "helmholtz.ekl",
                     SynthOptions(top="inverse_helmholtz"))
    plm = res.report["plm"]
    assert plm["bram36_unshared"] == 18.0 and plm["bram36"] == 6.0
    assert all(len(g["arrays"]) == 3 for g in plm["groups"])
