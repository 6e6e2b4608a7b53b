"""The synthesis summary in the shape of a Vitis HLS ``csynth.rpt``: timing, latency of
the top, latency per loop, utilisation.

Everything in it is read from report.json (``hls.flow.build_report`` and the latency model
:mod:`hls.estimate._latency`); nothing is computed here, so the table and the JSON cannot
disagree.  ``pyhls synth`` prints it and writes it to ``<out>/report.rpt``.

Conventions, as Vitis HLS prints them:

* latency of the top: cycles of one call, ``min`` / ``max`` (``?`` when unbounded: a loop
  without a constant trip count and no ``tripcount`` directive); absolute latency at the
  target clock; the interval (cycles from one call's start to the next's);
* per loop: latency of one entry of the loop, the iteration latency (pipeline depth, or
  the states of one iteration of a sequential loop), the achieved and requested II, the
  trip count, and whether it is pipelined;
* utilisation: the model's estimate for the target (``resources``) and, when they were
  measured, Yosys's counts (``--estimate-area``) and nextpnr's (``--place-route``).
"""

from __future__ import annotations

__all__ = ["summary_table"]


def _table(header: list[list[str]], rows: list[list[str]], indent: str = "    ",
           label: bool = True) -> list[str]:
    """An ASCII table: one or more header rows, then rows; columns right-aligned except
    the first when it is a label column."""
    cols = max(len(r) for r in header + rows)
    cells = [r + [""] * (cols - len(r)) for r in header + rows]
    width = [max(len(c[i]) for c in cells) for i in range(cols)]
    rule = indent + "+" + "+".join("-" * (w + 2) for w in width) + "+"

    def line(r, head):
        out = []
        for i, c in enumerate(r):
            if head:
                out.append(f" {c:^{width[i]}} ")
            elif i == 0 and label:
                out.append(f" {c:<{width[i]}} ")
            else:
                out.append(f" {c:>{width[i]}} ")
        return indent + "|" + "|".join(out) + "|"

    lines = [rule] + [line(r, True) for r in cells[:len(header)]] + [rule]
    lines += [line(r, False) for r in cells[len(header):]]
    return lines + ([rule] if rows else [])


def _n(x) -> str:
    return "?" if x is None else str(x)


def _abs(cycles, clock_ns: float) -> str:
    if cycles is None:
        return "?"
    t = cycles * clock_ns
    for unit, scale in (("ms", 1e6), ("us", 1e3)):
        if t >= scale:
            return f"{t / scale:.3f} {unit}"
    return f"{t:.3f} ns"


def summary_table(report: dict) -> str:
    """The summary of one synthesis (report.json) as text."""
    clock = report["clock_period_ns"]
    out = [f"== Synthesis summary: {report['top']} (target {report['target']})", "",
           "+ Timing:"]
    est = report.get("clock_estimated_ns")
    trow = ["ap_clk", f"{clock:.2f} ns", "-" if est is None else f"{est:.3f} ns"]
    head = ["Clock", "Target", "Estimated"]
    t = report.get("timing")
    if t is not None:
        head += ["Place and route", "Met"]
        trow += [f"{1000.0 / t['fmax_mhz']:.3f} ns ({t['fmax_mhz']:.1f} MHz)" if t["fmax_mhz"]
                 else "-", "yes" if t["met"] else "NO"]
    out += _table([head], [trow])
    lat = report["latency"]
    out += ["", "+ Latency (one call of the top):"]
    iv = lat["interval"]
    out += _table([["Latency (cycles)", "", "Latency (absolute)", "", "Interval (cycles)", ""],
                   ["min", "max", "min", "max", "min", "max"]], label=False,
                  rows=
                  [[_n(lat["min"]), _n(lat["max"]), _abs(lat["min"], clock), _abs(lat["max"], clock),
                    _n(iv["min"]), _n(iv["max"])]])
    loops = report.get("loops", [])
    if loops:
        out += ["", "+ Loops (latency per entry of the loop):"]
        rows = []
        for lp in loops:
            ll = lp.get("latency") or {}
            tc = ll.get("trip_count") or {"min": lp.get("trip_count"), "max": lp.get("trip_count")}
            trip = _n(tc["min"]) if tc["min"] == tc["max"] else f"{_n(tc['min'])}..{_n(tc['max'])}"
            line = f" (line {lp['source_line']})" if lp.get("source_line") is not None else ""
            name = lp.get("name", lp["loop"])      # a label, or FUNCTION/L<line>
            title = name if "/" in name else f"{lp['function']}/{name}{line}"
            rows.append([title, _n(ll.get("min")), _n(ll.get("max")),
                         _n(lp.get("depth")),
                         _n(lp.get("ii")) if lp["pipelined"] else "-",
                         (_n(lp["requested_ii"]) if lp.get("requested_ii") is not None else "-")
                         if lp["pipelined"] else "-",
                         trip, "yes" if lp["pipelined"] else "no"])
        out += _table([["Loop", "Latency (cycles)", "", "Iteration", "II", "", "Trip", "Pipelined"],
                       ["", "min", "max", "latency", "achieved", "target", "count", ""]], rows)
    if lat.get("assumptions"):
        out += ["", "  assumptions:"] + [f"    - {a}" for a in lat["assumptions"]]
    res = report["resources"]
    out += ["", "+ Utilisation:"]
    rows = [["estimate (model)", _n(res.get("bram18")), _n(res.get("dsp")), _n(res.get("ff")),
             _n(res.get("lut"))]]
    y = report.get("resources_yosys")
    if y is not None and y.get("scope") != "memories":
        rows.append([f"measured ({y['tool']})", _n(y.get("bram18")), _n(y.get("dsp")),
                     _n(y.get("ff")), _n(y.get("lut"))])
    if t is not None:
        u = t.get("utilisation", {})
        rows.append([f"placed ({t['device']})", f"{u.get('DP16KD', 0)} DP16KD",
                     f"{u.get('MULT18X18D', 0)} MULT18", _n(u.get("TRELLIS_FF")),
                     f"{u.get('TRELLIS_COMB')} LUT4"])
    out += _table([["", "BRAM_18K", "DSP", "FF", "LUT"]], rows)
    return "\n".join(out) + "\n"
