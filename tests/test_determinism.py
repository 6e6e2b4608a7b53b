"""Synthesis is deterministic: the same input gives byte-identical Verilog, report.rpt and
report.html and the same report.json (apart from the timing fields ``time_s``), within one process and across
processes with different ``PYTHONHASHSEED`` values (set iteration order,
object ids and dict order must not leak into names, state numbering or binding).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from ops_ll import CTL_DEPTHS, MEM_DEPTHS, ctl_ll, mem_ll  # noqa: E402

from hls.flow import SynthOptions, synthesize  # noqa: E402

KERNELS = Path(os.environ.get("PYHLS_KERNELS", "/work/shared/kernels"))

TIMING_KEYS = {"time_s"}


def _strip_timing(obj):
    if isinstance(obj, dict):
        return {k: _strip_timing(v) for k, v in obj.items() if k not in TIMING_KEYS}
    if isinstance(obj, list):
        return [_strip_timing(v) for v in obj]
    return obj


def _cases(tmp: Path) -> list[tuple[Path, str, dict[str, int]]]:
    mem = tmp / "mem.ll"
    mem.write_text(mem_ll())
    ctl = tmp / "ctl.ll"
    ctl.write_text(ctl_ll())
    div = tmp / "divloop.c"   # a loop limited by a sequential divider (a named resource)
    div.write_text("int divloop(int *a, int n, int d) { int s = 0;\n"
                   "  for (int i = 0; i < n; i++) s += a[i] / d + a[i] % (d | 1);\n"
                   "  return s; }\n")
    out = [(mem, "memk", dict(MEM_DEPTHS)), (ctl, "ctl", dict(CTL_DEPTHS)),
           (div, "divloop", {"a": 16})]
    nh = KERNELS / "noinline_helpers.c"
    if nh.exists():
        out.append((nh, "noinline_helpers", {"x": 96, "y": 96, "e": 1}))
    return out


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return _cases(tmp_path_factory.mktemp("determinism"))


def test_same_process(cases):
    for path, top, depth in cases:
        a = synthesize(path, SynthOptions(top=top, depth=depth))
        b = synthesize(path, SynthOptions(top=top, depth=depth))
        assert a.verilog == b.verilog, f"{top}: Verilog differs between two runs"
        assert _strip_timing(a.report) == _strip_timing(b.report), f"{top}: report differs"
        assert "time_s" in a.report


def _cli_synth(path: Path, top: str, depth: dict[str, int], out: Path, seed: str) -> None:
    argv = [sys.executable, "-m", "hls.cli", "synth", str(path), "--top", top, "-o", str(out)]
    for k, v in depth.items():
        argv += ["--depth", f"{k}={v}"]
    env = dict(os.environ, PYTHONHASHSEED=seed)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=str(ROOT),
                          timeout=600)
    assert proc.returncode == 0, f"{' '.join(argv)}\n{proc.stdout}\n{proc.stderr}"


def _read(out: Path) -> tuple[dict[str, bytes], dict]:
    rtl = {p.name: p.read_bytes() for p in sorted((out / "rtl").glob("*.v"))}
    # the files as written, byte for byte: wall-clock times are in time.json, not here
    rtl["report.json"] = (out / "report.json").read_bytes()
    rtl["report.rpt"] = (out / "report.rpt").read_bytes()
    rtl["report.html"] = (out / "report.html").read_bytes()
    assert "time_s" not in json.loads(rtl["report.json"]) and (out / "time.json").exists()
    report = json.loads((out / "report.json").read_text())
    return rtl, report


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_separate_processes(cases, tmp_path, index):
    if index >= len(cases):
        pytest.skip("kernel suite not available")
    path, top, depth = cases[index]
    outs = []
    for seed in ("0", "12345", "random"):
        o = tmp_path / f"out_{seed}"
        _cli_synth(path, top, depth, o, seed)
        outs.append(_read(o))
    (rtl0, rep0) = outs[0]
    assert rtl0, "no Verilog written"
    # nothing that looks like an object id or an address (id() values have 12+ digits)
    text = json.dumps(_strip_timing(rep0))
    assert not re.search(r"\d{11,}|0x[0-9a-fA-F]{9,}", text), text
    for rtl, rep in outs[1:]:
        assert rtl.keys() == rtl0.keys()
        for name in rtl0:
            assert rtl[name] == rtl0[name], f"{top}: {name} differs across processes"
        assert _strip_timing(rep) == _strip_timing(rep0), f"{top}: report.json differs"
    # and the in-process result matches the CLI's files
    res = synthesize(path, SynthOptions(top=top, depth=depth))
    assert rtl0[f"{res.interface.module_name}.v"] == res.verilog.encode()
