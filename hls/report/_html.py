"""``report.html``: one static page of a synthesis (and co-simulation) read from
report.json, and ``dse.html`` from dse.json.

The page opens from disk: its style, its few lines of script and every picture (SVG drawn
by :mod:`hls.report._svg`) are inline, nothing is fetched.  Like report.rpt
(:mod:`hls.estimate._summary`) it computes nothing the report does not say, it only
arranges it: the summary (latency, measured cycles, clock and Fmax, resources), the loops,
a schedule chart per function and per pipelined loop (report.json ``schedule``), the
resources per function and unit, the memories (interface, local, partitions, the
``plm`` sharing map), the dataflow regions' task graphs and the co-simulation.  What the
report lacks (a design synthesised without ``schedule``, tasks without measured cycles) is
said on the page, not made up.  The same report gives the same bytes: no dates, no
wall-clock times (those stay in time.json), dicts walked in the report's order.

The page is a Jinja2 template (``templates/report.html.j2``, autoescaped); the pictures
arrive as :class:`markupsafe.Markup`.
"""

from __future__ import annotations

import jinja2

from ._schedule import parse_op
from ._svg import CLASSES, pareto_plot, parts_bar, schedule_chart, task_graph

__all__ = ["dse_html", "report_html"]

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("hls.report", "templates"),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=True)

_RES = ("lut", "ff", "dsp", "bram18")


def _span(d: dict | None, lo="min", hi="max") -> str:
    if not d:
        return "?"
    a = "?" if d.get(lo) is None else d[lo]
    b = "?" if d.get(hi) is None else d[hi]
    return str(a) if a == b else f"{a}..{b}"


def _bound(lp: dict) -> tuple[str, str]:
    """The bound that sets a pipelined loop's II, in short, and report.json's
    ``limited_by`` in full (the tooltip)."""
    ii, res, rec = lp.get("ii"), lp.get("res_mii"), lp.get("rec_mii")
    full = lp.get("limited_by") or ""
    if ii is None:
        return "", full
    parts = []
    if res is not None and res == ii and res > 1:
        parts.append(f"resource (MII {res})")
    if rec is not None and rec == ii and rec > 1:
        parts.append(f"recurrence (MII {rec})")
    if not parts:
        mii = lp.get("mii")
        if ii == 1:
            parts.append("none: II 1")
        elif mii is not None and ii > mii:
            why = lp.get("ii_relaxed_because")
            parts.append(f"scheduling: II {ii} > MII {mii}" + (f" ({why})" if why else ""))
        elif lp.get("requested_ii") is not None:
            parts.append(f"requested II {lp['requested_ii']}")
        else:
            parts.append(f"MII {mii}")
    return "; ".join(parts), full


def _partitions(report: dict) -> dict[str, list[str]]:
    """Function -> its partitioned arrays in short (``a cyclic 2``), as report.json's
    ``arrays`` gives them (per function: they are not tied to a loop)."""
    out: dict[str, list[str]] = {}
    for a in report.get("arrays", []):
        factor = f" {a['factor']}" if a.get("factor") and a.get("partition") != "complete" else ""
        out.setdefault(a["function"], []).append(f"{a['name']} {a['partition']}{factor}")
    return out


def _loop_rows(report: dict) -> list[dict]:
    rows = []
    parts = _partitions(report)
    for lp in report.get("loops", []):
        lat = lp.get("latency") or {}
        tc = lat.get("trip_count") or {"min": lp.get("trip_count"), "max": lp.get("trip_count")}
        bound, full = _bound(lp)
        rows.append({
            "name": lp.get("name", lp["loop"]), "function": lp["function"],
            "anchor": _anchor("loop", lp["function"], lp["loop"]),
            "line": lp.get("source_line"), "trip": _span(tc),
            "ii": lp.get("ii") if lp["pipelined"] else None,
            "mii": (f"{lp['mii']} (res {lp['res_mii']}, rec {lp['rec_mii']})"
                    if lp["pipelined"] else None),
            "bound": bound, "limited_by": full, "depth": lp.get("depth"),
            "stages": lp.get("stages"),
            "pipelined": lp["pipelined"], "why": lp.get("not_pipelined_reason") or "",
            "requested_ii": lp.get("requested_ii"),
            "unroll": lp.get("unrolled", 1),
            "partitions": ", ".join(parts.get(lp["function"], [])) or "-",
            "latency": _span(lat) if lat else "?",
            "entries": _span(lat.get("entries_per_call")) if lat else "?",
        })
    return rows


def _anchor(*parts) -> str:
    """An HTML id from names (letters, digits, ``-``; the rest as ``_``)."""
    return "-".join("".join(c if c.isalnum() else "_" for c in str(p)) for p in parts)


_ENV.filters["anchor"] = lambda name, kind: _anchor(kind, name)


def _charts(report: dict) -> list[dict]:
    """A chart per function (its FSM states: a column per state, a section of rows per
    block; a pipelined loop is one state) and per pipelined loop (a column per cycle of
    one iteration, stage boundaries every II)."""
    clock = report["clock_period_ns"]
    lines = {(lp["function"], lp["loop"]): lp.get("source_line")
             for lp in report.get("loops", [])}
    charts = []
    for fn in report.get("schedule", []):
        file = fn.get("file", "")
        columns, sections, bounds, loops, nops = [], [], [], [], 0
        for b in fn["blocks"]:
            first = len(columns)
            bounds.append(first)
            if "pipeline" in b:
                pl = b["pipeline"]
                columns.append(f"S{first}")
                line = lines.get((fn["function"], b["block"]))
                sections.append((f"{b['block']}: S{first}",
                                 [f"{first} 0 0.00 0.00 {'-' if line is None else line} "
                                  f"pipeline {b['loop']} II={pl['ii']}"]))
                loops.append(b)
                nops += 1
                continue
            n = max(1, b["steps"])
            columns += [f"S{first + s}" for s in range(n)]
            ops = [f"{parse_op(t).step + first} " + t.split(" ", 1)[1] for t in b["ops"]]
            nops += len(ops)
            sections.append((f"{b['block']}: S{first}" + (f"..S{first + n - 1}" if n > 1 else ""),
                             ops))
        charts.append({"title": f"function {fn['function']}",
                       "anchor": _anchor("fn", fn["function"]),
                       "summary": f"{len(columns)} states, {nops} ops",
                       "open": nops <= 120,
                       "svg": schedule_chart(sections, columns, clock, bounds=bounds[1:],
                                             file=file, anchor=fn["function"])})
        for b in loops:
            pl = b["pipeline"]
            cols = [f"{c} ({c % pl['ii']})" if pl["ii"] > 1 else str(c)
                    for c in range(pl["depth"])]
            charts.append({"title": f"pipelined loop {b['loop']} of {fn['function']}",
                           "anchor": _anchor("loop", fn["function"], b["block"]),
                           "summary": f"II {pl['ii']}, depth {pl['depth']}, "
                                      f"{pl['stages']} stages, {len(b['ops'])} ops",
                           "open": len(b["ops"]) <= 120,
                           "svg": schedule_chart([(None, b["ops"])], cols, clock, ii=pl["ii"],
                                                 file=file, anchor=b["loop"])})
    return charts


def _cosim(report: dict) -> dict | None:
    c = report.get("cosim")
    if c is None:
        return None
    cycles = [k["cycles"] for k in c.get("calls", [])]
    lat = report.get("latency", {})
    within = None
    if cycles and lat.get("min") is not None:
        within = all(lat["min"] <= n and (lat.get("max") is None or n <= lat["max"])
                     for n in cycles)
    return {"passed": c.get("passed"), "calls": c.get("calls", []),
            "total": c.get("total_cycles"), "min": min(cycles) if cycles else None,
            "max": max(cycles) if cycles else None, "within": within,
            "mismatches": c.get("mismatches", []), "loops": c.get("loops", [])}


def _regions(report: dict) -> list[dict]:
    df = report.get("dataflow")
    if not df:
        return []
    out = []
    for reg in df.get("regions", [df]):
        out.append({"region": reg.get("region", "?"), "svg": task_graph(reg),
                    "channels": reg.get("channels", []), "tasks": reg.get("tasks", []),
                    "facts": {k: reg.get(k) for k in ("frames", "critical_path_latency",
                                                      "max_interval",
                                                      "throughput_bound_cycles")
                              if reg.get(k) is not None}})
    return out


def report_html(report: dict) -> str:
    """The page of one report.json (with its ``cosim`` section when co-simulated)."""
    clock = report["clock_period_ns"]
    est = report.get("clock_estimated_ns")
    timing = report.get("timing")
    res = report.get("resources", {})
    parts = res.get("parts") if isinstance(res.get("parts"), dict) else None
    funcs = report.get("functions", [])
    return _ENV.get_template("report.html.j2").render(
        r=report, clock=clock, fmax_target=1000.0 / clock,
        est=est, fmax_est=(1000.0 / est) if est else None, timing=timing,
        lat=report.get("latency", {}), span=_span, res_keys=_RES, res=res,
        parts=parts, parts_bars={k: parts_bar(parts, k) for k in _RES} if parts else {},
        funcs=funcs, loops=_loop_rows(report), charts=_charts(report),
        has_schedule="schedule" in report, classes=CLASSES,
        cosim=_cosim(report), regions=_regions(report),
        interface=report.get("interface", {}), arrays=report.get("arrays", []),
        plm=report.get("plm"), yosys=report.get("resources_yosys"))


def dse_html(doc: dict) -> str:
    """The page of one dse.json: every point evaluated by (worst-case latency, LUTs), the
    Pareto front joined, the best point marked, and the front's table.  Seconds per point
    are left out (they differ from run to run)."""
    front = {f["point"]: n for n, f in enumerate(doc.get("pareto", []))}
    pts, failed = [], []
    for i, p in enumerate(doc.get("points", [])):
        lat = (p.get("latency") or {}).get("max")
        lut = (p.get("area") or {}).get("lut")
        if p.get("status") != "ok" or lat is None or lut is None:
            why = (p["status"] + (f": {p['message']}" if p.get("message") else "")
                   if p.get("status") != "ok" else
                   "no maximum latency (a loop without a bound)" if lat is None else "no area")
            failed.append(f"point {i}: {why}")
            continue
        tip = f"point {i}: latency {lat}, {lut} LUT" + (
            f", pareto_{front[i]}" if i in front else "")
        pts.append((lat, lut, tip, i in front, i == doc.get("best")))
    rows = []
    for n, f in enumerate(doc.get("pareto", [])):
        p = doc["points"][f["point"]]
        rows.append({"n": n, "file": f["directives"], "latency": f["latency_max"],
                     "area": p.get("area") or {}, "best": f["point"] == doc.get("best"),
                     "knobs": p.get("knobs", {}), "cosim": f.get("cosim"),
                     "timing": f.get("timing")})
    return _ENV.get_template("dse.html.j2").render(
        d=doc, plot=pareto_plot(pts, "latency (cycles, worst case)", "LUTs"), rows=rows,
        failed=failed, npoints=len(doc.get("points", [])),
        placed=any(r["timing"] for r in rows),
        over=sum("over_budget" in p for p in doc.get("points", [])))
