"""The deadlock report of a dataflow region: the harness stops a call when the region's
monitor (:class:`hls.interface.MonitorPort`) says no task has run or started for a bound
number of cycles, and hands back the monitor's wait bits; this module turns them into
the wait-for cycle, with each blocked task, what it waits on, whether that channel is
FULL or EMPTY (or the argument BUSY), and source lines."""

from __future__ import annotations

import re

import networkx as nx

from ..interface import TopInterface

__all__ = ["deadlock_report"]


def deadlock_report(iface: TopInterface, message: str) -> str:
    mon = iface.monitor
    m = re.search(r"waits=([0-9a-f]+)", message)
    if mon is None or m is None:
        return message
    bits = int(m.group(1), 16)
    active = [w for i, w in enumerate(mon.wait_list) if bits >> i & 1]
    lines = dict(mon.lines)
    where = mon.file or ""

    def at(task: str) -> str:
        ln = lines.get(task)
        return f" ({where}:{ln})" if ln else ""

    G = nx.DiGraph()
    for task, other, what, state in active:
        G.add_edge(task, other, what=what, state=state)
    try:
        cycle = [u for u, _v in nx.find_cycle(G)]
    except nx.NetworkXNoCycle:
        cycle = []
    out = [f"deadlock in dataflow region {mon.region}: no task has run or started for "
           "the monitor's bound of cycles"]
    if cycle:
        out.append("the wait-for cycle:")
        for i, u in enumerate(cycle):
            v = cycle[(i + 1) % len(cycle)]
            e = G.edges[u, v]
            out.append(f"  {u}{at(u)} waits for {v}: {e['what']} is {e['state']}")
    rest = [(t, o, w, s) for t, o, w, s in active
            if not (cycle and t in cycle and o == cycle[(cycle.index(t) + 1) % len(cycle)])]
    if rest:
        out.append("also waiting:" if cycle else "waiting:")
        for t, o, w, s in rest:
            out.append(f"  {t}{at(t)} waits for {o}: {w} is {s}")
    return "\n".join(out)
