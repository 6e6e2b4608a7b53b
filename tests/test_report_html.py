"""``report.html`` (:mod:`hls.report`): the static page ``pyhls synth`` and ``pyhls cosim``
write beside report.json, and report.json's ``schedule`` section it draws.

* the schedule section against the flow's own schedules: every op but the phis, in its
  state (or cycle of a pipelined iteration), on a line of the C file;
* the page's content: every loop by name, a chart per function and per pipelined loop,
  every dataflow task and channel, the co-simulation's cycles, nothing fetched from
  anywhere (no ``src``, no ``<link>``, no address but the SVG namespace);
* determinism: ``pyhls synth`` twice gives the same bytes;
* in headless Chromium (skipped without it): no console message, no script error (the
  page marks ``window.onerror`` on its root element), the script ran (``data-ready``),
  and a screenshot that is not blank.

A representative subset of the shared kernels (plain, pipelined, partitioned, shared
units, floating point, a dataflow region) keeps CI short; ``benchmarks/report_html.py``
does the same for every shared kernel.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from hls.cli import main
from hls.flow import SynthOptions, synthesize, write_outputs
from hls.report import dse_html, parse_op, report_html
from hls.verify._compare import CallResult, CosimResult

from helpers import chromium, load_page

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "examples" / "kernels"
SUBSET = ["fir_decim2", "dataflow_img", "hist_cdf_u8", "struct_records", "dot_i8_f32"]


def kernel_options(name: str) -> SynthOptions:
    """A shared kernel's options from its manifest (a dataflow kernel as a region)."""
    meta = json.loads((KERNELS / f"{name}.json").read_text())
    return SynthOptions(top=meta["top"], depth={k: v["depth"] for k, v in meta["args"].items()},
                        dataflow=(meta["top"],) if "dataflow" in meta.get("features", []) else ())


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each kernel of the subset synthesised once: (result, its output directory)."""
    base = tmp_path_factory.mktemp("reports")
    out = {}
    for name in SUBSET:
        res = synthesize(KERNELS / f"{name}.c", kernel_options(name))
        out[name] = (res, write_outputs(res, base / name))
    return out


def test_schedule_section_is_the_flow_schedule(built):
    """report.json's ``schedule`` has every op of every schedule but the phis, each in a
    state of its block (a cycle of its pipeline's iteration), its logic within the clock
    where the scheduler says so, on a line of the kernel's file."""
    for name, (res, out) in built.items():
        report = json.loads((out / "report.json").read_text())
        clock = report["clock_period_ns"]
        nlines = len((KERNELS / f"{name}.c").read_text().splitlines())
        by_name = {f.name: f for f in res.module.functions}
        assert [s["function"] for s in report["schedule"]] == list(by_name)
        for sec in report["schedule"]:
            fs = res.schedules[by_name[sec["function"]]]
            assert sec["file"].endswith(f"{name}.c")
            for blk in sec["blocks"]:
                bs = next(b for blk_, b in fs.blocks.items() if blk_.name == blk["block"])
                ops = [parse_op(t) for t in blk["ops"]]
                assert [o.to_text() for o in ops] == blk["ops"]      # the text round-trips
                if "pipeline" in blk:
                    pl = bs.pipeline
                    assert blk["pipeline"] == {"ii": pl.ii, "depth": pl.depth,
                                               "stages": pl.stages}
                    assert len(ops) == sum(op.kind != "phi" for op in pl.time)
                    assert all(o.step + o.latency < pl.depth for o in ops)
                else:
                    assert blk["steps"] == bs.schedule.length
                    assert len(ops) == sum(op.kind != "phi" for op in bs.ops)
                    assert all(o.step + o.latency < max(1, bs.schedule.length) for o in ops)
                for o in ops:
                    assert o.line is None or 1 <= o.line <= nlines, (name, o)
                    if o.latency == 0:
                        assert 0 <= o.start_ns <= o.end_ns <= clock + 1e-9, (name, o)
                assert sum(o.line is not None for o in ops) >= len(ops) - 1, (name, blk)


def _no_fetch(page: str) -> None:
    """Nothing on the page is loaded from elsewhere."""
    assert "<link" not in page and " src=" not in page and "@import" not in page
    addresses = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert addresses <= {"http://www.w3.org/2000/svg"}, addresses
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', page))


def test_page_content(built):
    """Every loop by name, a chart per function and per pipelined loop, the resources of
    each function, the partitions (in the loops of their function too) and, for a region,
    each task and channel; nothing fetched."""
    for name, (_, out) in built.items():
        report = json.loads((out / "report.json").read_text())
        page = (out / "report.html").read_text()
        _no_fetch(page)
        for lp in report["loops"]:
            assert f">{lp['name']}<" in page, (name, lp["name"])
        charts = re.findall(r'<details id="([^"]+)"', page)
        piped = [lp for lp in report["loops"] if lp["pipelined"]]
        assert len(charts) == len(report["functions"]) + len(piped), name
        for lp in piped:       # the loop table links each pipelined loop to its chart
            assert re.search(rf'<a href="#(loop-[^"]+)">{re.escape(lp["name"])}</a>', page)
        for f in report["functions"]:
            assert f">{f['name']}</a></td>" in page
        for a in report["arrays"]:     # in the partitions and in its function's loops' rows
            assert f"<td class=\"l\">{a['name']}</td>" in page
            short = f"{a['name']} {a['partition']}"
            assert page.count(short) >= sum(lp["function"] == a["function"]
                                            for lp in report["loops"]), (name, short)
        if "dataflow" in report:
            graph = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="graph"'):]
            graph = graph[:graph.index("</svg>")]
            for t in report["dataflow"]["tasks"]:
                if t["kind"] == "call":
                    assert f">{t['name']}</text>" in graph
            for c in report["dataflow"]["channels"]:
                if isinstance(c["consumer"], str):
                    assert f">{c['name']}</text>" in graph
                    assert f">{c['kind']}, depth {c['depth']}</text>" in graph
            assert "not measured" in page
        assert "Co-simulation" not in page     # synthesis only


def test_page_with_cosim(built):
    """A co-simulated report (report.json's ``cosim``, as CosimResult.to_json writes it)
    shows the measured cycles per call and whether they lie within the latency."""
    res, _ = built["fir_decim2"]
    lat = res.report["latency"]
    calls = [CallResult(cycles=lat["max"], passed=True, status="ok"),
             CallResult(cycles=lat["min"], passed=True, status="ok")]
    cos = CosimResult(passed=True, calls=calls, total_cycles=lat["min"] + lat["max"],
                      mismatches=[])
    page = report_html(res.report | {"cosim": cos.to_json()})
    assert f'<div class="v ok">{lat["min"]}..{lat["max"]}</div>' in page
    assert "2 call(s), passed, within the latency" in page
    assert f"PASSED: 2 call(s), {lat['min'] + lat['max']} cycles in total." in page
    outside = CosimResult(passed=False, calls=[CallResult(cycles=lat["max"] + 1, passed=False,
                                                          status="error", message="bad")],
                          total_cycles=lat["max"] + 1, mismatches=[])
    page = report_html(res.report | {"cosim": outside.to_json()})
    assert "1 call(s), FAILED, OUTSIDE the latency" in page and "error: bad" in page


def test_synth_writes_the_same_page_twice(tmp_path):
    """``pyhls synth`` writes report.html beside report.json, byte for byte the same from
    the same input."""
    src = KERNELS / "fir_decim2.c"
    args = ["synth", str(src), "--top", "fir_decim2", "--depth", "x=210", "--depth", "h=12",
            "--depth", "y=100"]
    assert main(args + ["-o", str(tmp_path / "a")]) == 0
    assert main(args + ["-o", str(tmp_path / "b")]) == 0
    a, b = (tmp_path / "a" / "report.html").read_bytes(), (tmp_path / "b" / "report.html").read_bytes()
    assert a == b and b"fir_decim2/L21" in a


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed (apt-get install "
                    "chromium): the pages are checked in a real browser")
@pytest.mark.parametrize("name", SUBSET)
def test_page_in_chromium(built, name, tmp_path):
    """The page in headless Chromium: no console message, no script error, the script
    ran over the charts' ops, and the screenshot is not blank."""
    _, out = built[name]
    got = load_page(out / "report.html", tmp_path / "page.png", 900, 700)
    assert got.console == []
    root = re.search(r"<html[^>]*>", got.dom).group(0)     # the attributes the script set
    assert "data-js-error" not in root, root
    ready = re.search(r'data-ready="(\d+)"', root)
    assert ready and int(ready.group(1)) > 0, root
    px = got.pixels.reshape(-1, got.pixels.shape[2])
    colours, counts = np.unique(px, axis=0, return_counts=True)
    assert len(colours) > 50
    assert counts.max() < 0.9 * len(px)       # no colour (the background) fills the page


def test_dse_page_draws_the_bounded_points():
    """dse.html draws a dot per point with a worst-case latency and an area, the front
    joined and the best marked, and lists the points it cannot draw with the reason."""
    def point(lat, lut, status="ok", message=None):
        p = {"key": [0], "knobs": {"loops": [], "arrays": []}, "status": status,
             "latency": None if status != "ok" else {"min": 1, "max": lat},
             "area": None if status != "ok" else {"lut": lut, "ff": 1, "dsp": 0, "bram18": 0}}
        return p | ({"message": message} if message else {})
    doc = {"top": "k", "inputs": ["k.c"], "objective": "latency", "search": "exhaustive",
           "max_points": 8,
           "points": [point(10, 500), point(20, 300), point(30, 400), point(None, 100),
                      point(None, None, "error", "k.c:3: error: no")],
           "pareto": [{"point": 0, "directives": "pareto_0.toml", "latency_max": 10, "lut": 500},
                      {"point": 1, "directives": "pareto_1.toml", "latency_max": 20, "lut": 300}],
           "best": 0}
    page = dse_html(doc)
    _no_fetch(page)
    assert page.count('<circle class="pt') == 3
    assert page.count('<circle class="pt front"') == 1 and page.count('<circle class="pt best"') == 1
    assert "<li>point 3: no maximum latency (a loop without a bound)</li>" in page
    assert "<li>point 4: error: k.c:3: error: no</li>" in page
    assert '<path class="front" d="M' in page
    assert dse_html(doc) == page
