"""Loop unrolling by directive (hls.transforms._unroll): exact, guarded (run-time trip
count) and full unrolling, co-simulated with and without pipelining (some through the
pytest plugin's ``hls`` fixture, which fails the test on a mismatch); clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.cli import main as cli_main
from hls.flow import SynthOptions, synthesize
from hls.verify import cosim

KERNEL = Path(__file__).resolve().parent / "kernels" / "unroll_dir.c"
DEPTH = {"a": 64, "b": 64}

DIRECTIVES = """
[[loop]]
function = "dir_k"
label = "for_body"
unroll = 4

[[loop]]
function = "dir_k"
label = "for_body6"
unroll = 3

[[loop]]
function = "dir_k"
label = "for_body25"
unroll = "full"

[[array]]
function = "dir_k"
name = "a"
partition = "cyclic"
factor = 4
"""


def _dirs(tmp_path, text=DIRECTIVES):
    p = tmp_path / "d.toml"
    p.write_text(text)
    return str(p)


def test_unroll_and_partition_pipelined(tmp_path):
    s = synthesize(KERNEL, SynthOptions(top="dir_k", depth=DEPTH, directives=_dirs(tmp_path),
                                        loop_probes=True))
    loops = {lp["loop"]: lp for lp in s.report["loops"]}
    # 64 iterations by 4 copies: 16, and a[i..i+3] hit the 4 banks once each: II 1
    assert loops["for_body"]["trip_count"] == 16
    assert loops["for_body"]["pipelined"] and loops["for_body"]["ii"] == 1
    # the inner k loop is gone; its enclosing loop became one block and is pipelined
    assert "for_body25" not in loops
    outer = [lp for lp in loops.values() if lp["trip_count"] == 8]
    assert len(outer) == 1 and outer[0]["pipelined"]
    r = cosim(KERNEL, "dir_k", tb=KERNEL, synth=s, profile_loops=True)
    assert r.passed, r.summary()
    prof = {p.loop: p for p in r.loops}
    assert prof["for_body"].iterations == 4 * 16        # 4 calls x 16 unrolled iterations
    assert prof["for_body"].cycles == prof["for_body"].model_cycles
    # guarded copies: the iterations are the interpreted CDFG's header visits
    assert prof["for_body6"].iterations is not None
    assert prof["for_body6"].cycles == prof["for_body6"].model_cycles


def test_unroll_without_pipelining(hls, tmp_path):
    r = hls.cosim(KERNEL, top="dir_k", tb=KERNEL, depth=DEPTH, directives=_dirs(tmp_path),
                  pipeline=False)
    assert {lp["loop"]: lp["trip_count"] for lp in r.report["loops"]}["for_body"] == 16


@pytest.mark.parametrize("text,msg", [
    ('[[loop]]\nfunction = "dir_k"\nlabel = "for_body6"\nunroll = "full"\n',
     "unroll(full) needs a constant trip count"),
    ('[[loop]]\nfunction = "dir_k"\nlabel = "for_cond22_preheader"\nunroll = 2\n',
     "unrolling needs a loop whose body is one block"),
    ('[[loop]]\nfunction = "dir_k"\nlabel = "for_body"\nunroll = 0\n',
     "'unroll' must be an integer >= 1"),
    ('[[loop]]\nfunction = "dir_k"\nlabel = "nope"\nunroll = 2\n', "matches no loop"),
    ('[[loop]]\nfunction = "other"\nline = 3\npipeline = false\n', "no such hardware function"),
])
def test_unroll_errors(tmp_path, capsys, text, msg):
    out = tmp_path / "out"
    rc = cli_main(["synth", str(KERNEL), "--top", "dir_k", "--depth", "a=64", "--depth", "b=64",
                   "--directives", _dirs(tmp_path, text), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "error:" in err and msg in err and "Traceback" not in err, err
    assert not out.exists()


def test_pragma_unroll_counts_are_honoured(hls):
    """clang's own pipeline unrolls `#pragma clang loop unroll_count(N)`/`unroll(full)` loops
    of C input (the metadata stays in .ll input and our unroller applies it there)."""
    src = KERNEL.parent / "unroll.c"
    loops = {lp["loop"]: lp for lp in hls.cosim(src, top="unroll_k", tb=src,
                                                 depth=DEPTH).report["loops"]}
    assert loops["for_body"]["trip_count"] == 16          # 64 / unroll_count(4)
    assert all(lp["trip_count"] != 4 for lp in loops.values())   # the k loop is gone


def test_pragma_metadata_in_ll_input(tmp_path):
    """Unoptimised IR (top-tested loops, unroll metadata not yet acted on): loop rotation
    makes the bodies single blocks and our unroller honours the pragmas."""
    import subprocess

    from hls.verify import find_c_compiler

    src = KERNEL.parent / "unroll.c"
    ll = tmp_path / "unroll.ll"
    cmd = find_c_compiler() + ["-S", "-emit-llvm", "-O1", "-Xclang", "-disable-llvm-passes",
                               "-fno-sanitize=all", "-g", str(src), "-o", str(ll)]
    subprocess.run(cmd, check=True, capture_output=True)
    assert "llvm.loop.unroll.count" in ll.read_text()
    s = synthesize(ll, SynthOptions(top="unroll_k", depth={"0": 64, "1": 64}, loop_probes=True))
    trips = sorted(lp["trip_count"] or 0 for lp in s.report["loops"])
    assert trips == [0, 8, 16], s.report["loops"]     # n-loop (variable), outer j, 64/4
    assert all(lp["pipelined"] and lp["ii"] == lp["mii"] for lp in s.report["loops"])
    r = cosim(ll, "unroll_k", tb=ll, synth=s, profile_loops=True)
    assert r.passed, r.summary()
    for p in r.loops:
        if p.model_cycles is not None:
            assert p.cycles == p.model_cycles, p
