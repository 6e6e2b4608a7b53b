"""Every shared kernel's report.html in headless Chromium, and the screenshots of the README.

    python benchmarks/report_html.py [NAME...] [--docs] [--out DIR]

Synthesises each kernel of ``examples/kernels`` (its manifest's depths; ``dataflow_img``
as a dataflow region), the EKL examples and the Alveo streaming example, writes the
outputs into ``--out`` (default: a temporary directory) and opens each report.html from
disk in headless Chromium (``$PYHLS_CHROMIUM`` or ``chromium``): a page fails on any
console message, a script error (the page marks ``window.onerror`` on its root element),
a script that did not run, a loaded page without its loop table (a row per loop) or a
schedule chart, or a blank screenshot.  ``tests/test_report_html.py`` does
the same for a few kernels in CI.

``--docs`` also writes the screenshots ``docs/report_<kind>.png`` of the README (1000
pixels wide): a plain design, a pipelined one, a dataflow region (co-simulated, so that
its measured cycles show), an Alveo top and an EKL kernel.

Exit status 1 when any page fails.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from helpers import chromium, load_page  # noqa: E402
from hls.flow import SynthOptions, synthesize, write_outputs  # noqa: E402
from hls.verify import cosim  # noqa: E402

KERNELS = ROOT / "examples" / "kernels"

#: the README's screenshots: kind -> (source, options, co-simulate, the sections shown
#: after the summary; empty: the page as it is)
DOCS = {
    "plain": ("noinline_helpers", {"pipeline": False}, False, ()),
    "pipelined": ("fir_decim2", {}, False, ("loops", "schedules")),
    "dataflow": ("dataflow_img", {}, True, ("cosim", "dataflow")),
    "alveo": (ROOT / "examples" / "alveo" / "vadd_stream.c",
              {"top": "vadd_stream", "target": "alveo",
               "depth": {"a": 4096, "b": 4096, "c": 4096}}, False, ()),
    "ekl": (ROOT / "examples" / "ekl" / "matchain.ekl", {"top": "matchain"}, False,
            ("loops", "schedules")),
}


def kernel(name: str, **kw) -> tuple[Path, SynthOptions]:
    meta = json.loads((KERNELS / f"{name}.json").read_text())
    opts = {"top": meta["top"], "depth": {k: v["depth"] for k, v in meta["args"].items()},
            "dataflow": (meta["top"],) if "dataflow" in meta.get("features", []) else ()}
    return KERNELS / f"{name}.c", SynthOptions(**(opts | kw))


def cases(names: list[str]) -> list[tuple[str, Path, SynthOptions]]:
    out = []
    for man in sorted(KERNELS.glob("*.json")):
        if not names or man.stem in names:
            out.append((man.stem, *kernel(man.stem)))
    for ekl in sorted((ROOT / "examples" / "ekl").glob("*.ekl")):
        if not names or ekl.stem in names:
            top = re.search(r"^kernel\s+(\w+)", ekl.read_text(), re.M).group(1)
            out.append((f"ekl/{ekl.stem}", ekl, SynthOptions(top=top)))
    src, opts, _, _ = DOCS["alveo"]
    if not names or "alveo" in names:
        out.append(("alveo/vadd_stream", src, SynthOptions(**opts)))
    return out


def check(page: Path, png: Path, width: int = 1000, height: int = 1400) -> list[str]:
    """What is wrong with ``page`` in the browser (empty: nothing)."""
    got = load_page(page, png, width, height)
    bad = [f"console: {line}" for line in got.console]
    root = re.search(r"<html[^>]*>", got.dom)
    attrs = root.group(0) if root else ""
    if "data-js-error" in attrs:
        bad.append(f"script error: {attrs}")
    if "data-ready" not in attrs:
        bad.append("the page's script did not run")
    # the loop table with a row per loop, and a schedule chart, in the page as loaded
    loops = re.search(r'<section id="loops">(.*?)</section>', got.dom, re.S)
    if loops is None or loops.group(1).count("<tr") < 2:
        bad.append("no loop table with a loop in it")
    scheds = re.search(r'<section id="schedules">(.*?)</section>', got.dom, re.S)
    if scheds is None or '<svg' not in scheds.group(1) or 'class="chart"' not in scheds.group(1):
        bad.append("no schedule chart")
    px = got.pixels.reshape(-1, got.pixels.shape[2])
    colours, counts = np.unique(px, axis=0, return_counts=True)
    if len(colours) <= 50 or counts.max() >= 0.9 * len(px):
        bad.append(f"blank screenshot: {len(colours)} colours")
    return bad


def docs(out: Path) -> None:
    for kind, (src, kw, sim, sections) in DOCS.items():
        if isinstance(src, str):
            path, opts = kernel(src, **kw)
        else:
            path, opts = src, SynthOptions(**kw)
        res = synthesize(path, opts)
        extra = {}
        if sim:
            got = cosim(path, opts.top, tb=path, synth=res)
            extra["cosim"] = got.to_json()
        d = write_outputs(res, out / f"docs_{kind}", extra)
        png = ROOT / "docs" / f"report_{kind}.png"
        page = d / "report.html"
        if sections:     # a copy showing the summary and these sections only
            shown = "".join(f":not(#{s})" for s in ("summary", *sections))
            page = d / f"shot_{kind}.html"
            page.write_text((d / "report.html").read_text().replace(
                "</head>", f"<style>section{shown} {{ display: none; }}</style></head>", 1))
        bad = check(page, png, 1000, 1250)
        print(f"docs/{png.name}: {png.stat().st_size // 1024} KiB" + (f"  {bad}" if bad else ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="kernels (default: all)")
    ap.add_argument("--out", default=None, help="output directory (default: a temporary one)")
    ap.add_argument("--docs", action="store_true", help="write the README's screenshots")
    args = ap.parse_args(argv)
    if chromium() is None:
        print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    out = Path(args.out or tempfile.mkdtemp(prefix="report_html-"))
    failed = 0
    for name, src, opts in cases(args.names):
        t = time.perf_counter()
        d = write_outputs(synthesize(src, opts), out / name.replace("/", "_"))
        bad = check(d / "report.html", d / "report.png")
        failed += bool(bad)
        size = (d / "report.html").stat().st_size // 1024
        print(f"{name:24s} {'FAIL' if bad else 'ok':4s} {size:5d} KiB  "
              f"{time.perf_counter() - t:5.1f} s" + "".join(f"\n    {b}" for b in bad))
    if args.docs:
        docs(out)
    print(f"{failed} page(s) failed; outputs in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
