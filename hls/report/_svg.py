"""The pictures of the HTML report, drawn here as SVG text (the page needs no script to
show them): schedule charts (:func:`schedule_chart`), a dataflow region's task graph
(:func:`task_graph`), a stacked bar of resources by origin (:func:`parts_bar`) and the
design-space exploration's points with their Pareto front (:func:`pareto_plot`).

Every number written is formatted with a fixed precision and every collection walked in
the report's order, so the same report gives the same bytes.  Text goes through
:func:`markupsafe.escape`; the functions return :class:`markupsafe.Markup`, which the page
template inserts as it is.
"""

from __future__ import annotations

import math

import networkx as nx
from markupsafe import Markup, escape

from ..ir import OPS
from ._schedule import OpRecord, parse_op

__all__ = ["op_class", "pareto_plot", "parts_bar", "schedule_chart", "task_graph"]

#: op classes and their colours (also the legend's order)
CLASSES = {
    "memory": "#3b7dd8", "mul/div": "#d8553b", "float": "#2e9e5b", "call": "#8e5bd8",
    "control": "#8a8f98", "logic": "#e0a030",
}


def op_class(label: str) -> str:
    """The class of an op (its chart colour), from the definition of the kind its label
    starts with (:data:`hls.ir.OPS`)."""
    kind = label.split(" ", 1)[0]
    d = OPS.get(kind)
    if d is None:
        return "logic"
    if d.memory:
        return "memory"
    if kind == "call":
        return "call"
    if d.terminator:
        return "control"
    if d.float:
        return "float"
    if d.divider or d.timing in ("mul", "sdivc", "udivc", "sremc", "uremc"):
        return "mul/div"
    return "logic"


def _n(x: float) -> str:
    """A coordinate: two decimals at most, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _text(x, y, s, anchor="start", cls="", extra="") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}"{c}{extra}>'
            f"{escape(s)}</text>")


ROW = 14          # px per op row
COL = 56          # px per state (one clock period)
LABEL_W = 210     # px of the row labels
HEAD = 34         # px of the header
MAX_LABEL = 33    # characters of a row label that fit LABEL_W


def schedule_chart(sections: list[tuple[str | None, list[str]]], columns: list[str],
                   clock_ns: float, *, bounds: list[int] | None = None, ii: int | None = None,
                   file: str = "", anchor: str = "") -> Markup:
    """The chart of one schedule: a column per state (``columns``: their titles; in a
    pipeline the cycles of one iteration), a row per op (report.json ``schedule`` op
    strings) in ``sections`` (a title row, unless None, then its ops: a function's
    blocks), each op's bar from where its logic starts to where it ends in the clock
    period (a multi-cycle op across the states it takes), its C line in the row's label
    and its tooltip.  ``bounds``: columns where a block starts (dashed lines); ``ii``: a
    pipeline's II, stage boundaries every ``ii`` columns."""
    rows: list[OpRecord | str] = []
    for title, ops in sections:
        if title is not None:
            rows.append(title)
        rows += [parse_op(o) for o in ops]
    ncol = max(1, len(columns))
    width = LABEL_W + ncol * COL + 8
    height = HEAD + max(1, len(rows)) * ROW + 6
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img"'
           + (f' aria-label="{escape(anchor)}"' if anchor else "") + ">"]
    for c, title in enumerate(columns):
        x = LABEL_W + c * COL
        shade = "band0" if (c // (ii or 1)) % 2 == 0 else "band1"
        out.append(f'<rect class="{shade}" x="{x}" y="{HEAD - 14}" width="{COL}" '
                   f'height="{height - HEAD + 14}"/>')
        out.append(_text(x + COL / 2, HEAD - 3, title, "middle", "colhead"))
    for first in bounds or ():
        x = LABEL_W + first * COL
        out.append(f'<line class="group" x1="{x}" y1="{HEAD - 14}" x2="{x}" y2="{height}"/>')
    if ii:
        for c in range(0, ncol + 1, ii):
            x = LABEL_W + c * COL
            out.append(f'<line class="stage" x1="{x}" y1="{HEAD - 14}" x2="{x}" y2="{height}"/>')
        out.append(_text(LABEL_W + 2, 11, "cycle (slot)" if ii > 1 else "cycle", "start",
                         "grouphead"))
    else:
        out.append(_text(LABEL_W + 2, 11, "state", "start", "grouphead"))
    for r, rec in enumerate(rows):
        y = HEAD + r * ROW
        if isinstance(rec, str):
            out.append(f'<rect class="sechead" x="0" y="{y + 1}" width="{width}" '
                       f'height="{ROW - 2}"/>')
            out.append(_text(4, y + ROW - 3, rec, "start", "grouphead"))
            continue
        line = f"L{rec.line} " if rec.line is not None else ""
        where = (f"{file}:{rec.line}" if file else f"line {rec.line}") if rec.line is not None \
            else "no source line"
        cls = op_class(rec.label)
        x0 = LABEL_W + rec.step * COL + rec.start_ns / clock_ns * COL
        x1 = LABEL_W + (rec.step + rec.latency) * COL + rec.end_ns / clock_ns * COL
        late = rec.end_ns > clock_ns + 1e-9
        span = (f"state {rec.step}" if rec.latency == 0
                else f"states {rec.step}..{rec.step + rec.latency}")
        slot = f", stage {rec.step // ii}, slot {rec.step % ii}" if ii else ""
        tip = (f"{rec.label} ({where}): {span}{slot}, {rec.start_ns:.2f}..{rec.end_ns:.2f} ns"
               f" of {clock_ns:g} ns" + (" (beyond the clock)" if late else ""))
        lk = f' data-line="{rec.line}"' if rec.line is not None else ""
        out.append(f'<g class="op"{lk}><title>{escape(tip)}</title>')
        text = f"{line}{rec.label}"
        if len(text) > MAX_LABEL:        # the tooltip has it whole
            text = text[:MAX_LABEL - 1] + "\u2026"
        out.append(_text(4, y + ROW - 3, text, "start", "oplabel"))
        out.append(f'<rect class="opbar{" late" if late else ""}" x="{_n(x0)}" y="{y + 2}" '
                   f'width="{_n(max(2.0, x1 - x0))}" height="{ROW - 4}" '
                   f'fill="{CLASSES[cls]}"/></g>')
    out.append("</svg>")
    return Markup("".join(out))


def parts_bar(parts: dict, key: str, width: int = 360) -> Markup:
    """A stacked bar of one resource (``key``: lut, ff, ...) by origin (report.json
    ``resources.parts``: origin -> {resource: count})."""
    # an origin keeps its colour in every bar: its index among all the origins
    items = [(i, origin, v.get(key, 0)) for i, (origin, v) in enumerate(parts.items())
             if isinstance(v, dict) and v.get(key, 0)]
    total = sum(v for _, _, v in items)
    if not total:
        return Markup("")
    palette = ["#3b7dd8", "#e0a030", "#2e9e5b", "#d8553b", "#8e5bd8", "#8a8f98", "#20a0a0"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bar" width="{width}" height="18" '
           f'viewBox="0 0 {width} 18">']
    x = 0.0
    for i, origin, v in items:
        w = v / total * width
        out.append(f'<rect x="{_n(x)}" y="1" width="{_n(w)}" height="16" '
                   f'fill="{palette[i % len(palette)]}"><title>{escape(origin)}: {v} '
                   f'{escape(key)}</title></rect>')
        x += w
    out.append("</svg>")
    return Markup("".join(out))


# ---- dataflow task graph ----------------------------------------------------------------

NODE_W, NODE_H, GAP_X, GAP_Y = 160, 46, 120, 30


def _layers(g: nx.DiGraph) -> list[list[str]]:
    """Columns of nodes, sources first (insertion order within a column)."""
    order = {n: i for i, n in enumerate(g.nodes)}
    try:
        gens = [sorted(gen, key=order.__getitem__) for gen in nx.topological_generations(g)]
    except nx.NetworkXUnfeasible:       # a cycle: longest path over a spanning DAG
        dag = nx.DiGraph()
        dag.add_nodes_from(g.nodes)
        dag.add_edges_from((u, v) for u, v in g.edges if order[u] < order[v])
        return _layers(dag)
    return gens


def task_graph(region: dict) -> Markup:
    """A dataflow region (report.json ``dataflow`` or one of its ``regions``) as a graph:
    ports (rounded), tasks (boxes, with their latency and interval from the schedules),
    channels as arrows labelled with their kind and depth."""
    g = nx.DiGraph()
    ports = {p["name"]: p for p in region.get("ports", [])}
    tasks = {t["name"]: t for t in region.get("tasks", [])}
    for p in region.get("ports", []):
        if p.get("direction") != "out":
            g.add_node(("port", p["name"]))
    for t in region.get("tasks", []):
        g.add_node(("task", t["name"]))
    for p in region.get("ports", []):
        if p.get("direction") == "out":
            g.add_node(("port", p["name"]))
    edges: list[tuple[tuple, tuple, str, str]] = []
    for p in region.get("ports", []):
        for u in p.get("users", []):
            if u not in tasks:
                continue
            pair = ((("port", p["name"]), ("task", u)) if p.get("direction") != "out"
                    else (("task", u), ("port", p["name"])))
            edges.append((*pair, p.get("direction", ""), "port"))
    for ch in region.get("channels", []):
        cons = ch.get("consumer")
        for c in (cons if isinstance(cons, list) else [cons]):
            if ch.get("producer") in tasks and c in tasks:
                label = f"{ch['name']}\n{ch.get('kind', '?')}"
                if ch.get("depth") is not None:
                    label += f", depth {ch['depth']}"
                edges.append((("task", ch["producer"]), ("task", c), label, ch.get("kind", "")))
    for u, v, _, _ in edges:
        g.add_edge(u, v)
    layers = _layers(g)
    pos = {}
    for li, layer in enumerate(layers):
        for ni, node in enumerate(layer):
            pos[node] = (20 + li * (NODE_W + GAP_X), 20 + ni * (NODE_H + GAP_Y))
    width = 40 + max(1, len(layers)) * (NODE_W + GAP_X) - GAP_X
    height = 40 + max([len(la) for la in layers] + [1]) * (NODE_H + GAP_Y) - GAP_Y + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#555"/></marker></defs>']
    fan: dict[tuple, int] = {}
    for u, v, label, kind in edges:
        (x0, y0), (x1, y1) = pos[u], pos[v]
        k = fan.get((u, v), 0)
        fan[(u, v)] = k + 1
        ax, ay = x0 + NODE_W, y0 + NODE_H / 2 + 6 * k
        bx, by = x1, y1 + NODE_H / 2 + 6 * k
        if x1 <= x0:        # backwards (a cycle): around below
            path = (f"M{_n(ax)},{_n(ay)} C{_n(ax + 60)},{_n(ay + 90)} {_n(bx - 60)},"
                    f"{_n(by + 90)} {_n(bx)},{_n(by)}")
        else:
            mx = (ax + bx) / 2
            path = f"M{_n(ax)},{_n(ay)} C{_n(mx)},{_n(ay)} {_n(mx)},{_n(by)} {_n(bx)},{_n(by)}"
        cls = "edge fifo" if kind == "fifo" else "edge"
        out.append(f'<path class="{cls}" d="{path}" marker-end="url(#arrow)">'
                   f"<title>{escape(label.replace(chr(10), ': '))}</title></path>")
        if kind != "port":
            name, what = label.split("\n")
            mx, my = (ax + bx) / 2, (ay + by) / 2 - 18 - 24 * k
            out.append(_text(mx, my, name, "middle", "edgelabel"))
            out.append(_text(mx, my + 11, what, "middle", "edgelabel"))
    for node, (x, y) in pos.items():
        kind, name = node
        if kind == "port":
            p = ports[name]
            out.append(f'<rect class="port" x="{x}" y="{y + 8}" width="{NODE_W}" '
                       f'height="{NODE_H - 16}" rx="15"/>')
            out.append(_text(x + NODE_W / 2, y + NODE_H / 2 + 4,
                             f"{p.get('direction', '')} port {name}", "middle", "nodename"))
            continue
        t = tasks[name]
        out.append(f'<g><title>{escape(_task_tip(t))}</title>'
                   f'<rect class="task" x="{x}" y="{y}" width="{NODE_W}" height="{NODE_H}" '
                   f'rx="4"/>')
        out.append(_text(x + NODE_W / 2, y + 16, name, "middle", "nodename"))
        lat = "?" if t.get("latency") is None else t["latency"]
        iv = "?" if t.get("interval") is None else t["interval"]
        out.append(_text(x + NODE_W / 2, y + 32, f"latency {lat}, interval {iv}", "middle",
                         "nodeinfo"))
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def _task_tip(t: dict) -> str:
    where = f" (line {t['line']})" if t.get("line") is not None else ""
    fn = f", function {t['function']}" if t.get("function") else ""
    return f"task {t['name']}{where}: {t.get('kind', '')}{fn}"


# ---- Pareto front -------------------------------------------------------------------------


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 2)]


def pareto_plot(points: list[tuple[float, float, str, bool, bool]],
                xlabel: str, ylabel: str) -> Markup:
    """Points (x, y, tooltip, on the front, best) on linear axes; the front joined by a
    staircase."""
    W, H, L, B = 640, 380, 70, 46
    if not points:
        return Markup("")
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    xt, yt = _ticks(min(xs), max(xs)), _ticks(min(ys), max(ys))
    x0, x1, y0, y1 = xt[0], xt[-1], yt[0], yt[-1]

    def sx(v):
        return L + (v - x0) / ((x1 - x0) or 1) * (W - L - 20)

    def sy(v):
        return H - B - (v - y0) / ((y1 - y0) or 1) * (H - B - 16)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}">']
    for v in xt:
        out.append(f'<line class="grid" x1="{_n(sx(v))}" y1="16" x2="{_n(sx(v))}" '
                   f'y2="{H - B}"/>')
        out.append(_text(sx(v), H - B + 16, f"{v:g}", "middle", "tick"))
    for v in yt:
        out.append(f'<line class="grid" x1="{L}" y1="{_n(sy(v))}" x2="{W - 20}" '
                   f'y2="{_n(sy(v))}"/>')
        out.append(_text(L - 6, sy(v) + 4, f"{v:g}", "end", "tick"))
    out.append(_text((L + W - 20) / 2, H - 8, xlabel, "middle", "axis"))
    out.append(_text(14, (H - B) / 2, ylabel, "middle", "axis",
                     f' transform="rotate(-90 14 {_n((H - B) / 2)})"'))
    front = sorted((p for p in points if p[3]), key=lambda p: (p[0], p[1]))
    if len(front) > 1:
        d = [f"M{_n(sx(front[0][0]))},{_n(sy(front[0][1]))}"]
        for a, b in zip(front, front[1:]):
            d.append(f"H{_n(sx(b[0]))}V{_n(sy(b[1]))}" if b[1] <= a[1]
                     else f"L{_n(sx(b[0]))},{_n(sy(b[1]))}")
        out.append(f'<path class="front" d="{"".join(d)}"/>')
    for x, y, tip, on_front, best in points:
        cls = "pt best" if best else ("pt front" if on_front else "pt")
        r = 6 if best else (5 if on_front else 3.5)
        out.append(f'<circle class="{cls}" cx="{_n(sx(x))}" cy="{_n(sy(y))}" r="{r}">'
                   f"<title>{escape(tip)}</title></circle>")
    out.append("</svg>")
    return Markup("".join(out))
