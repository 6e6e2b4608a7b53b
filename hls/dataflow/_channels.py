"""Channel kinds and depths, task latencies, and ``report.json["dataflow"]``.

**Kind.**  A channel is a FIFO when the analysis proves that its producer writes every
element exactly once and its consumer reads every element exactly once, in the same order
(:func:`hls.analysis.stream_order_problem`, the proof behind AXI4-Stream arguments, on
each side's final CDFG), both over the same number of elements, with one consumer, at
offset 0, and neither end takes part in the ordering or sharing of a pointer argument
(a task waiting for an argument while it holds a FIFO end could close a wait cycle).
Otherwise it is a PIPO: a bank per frame in flight, used round robin: two, or one more per
task on the longest other path from its producer to its consumer (the consumer waits for
that path too, so the producer runs that many frames ahead of it).  A ``[[channel]]`` directive
overrides the choice (a FIFO the proof rejects is an error, with the reason) and the
depth.

**Depth** of a FIFO, in elements (each end adds its adapter's two skid entries):

* when nothing else joins its producer to its consumer (a full FIFO then only stalls the
  producer: throughput, not correctness): what the producer writes ahead of the consumer
  when both run their static schedules (:func:`stream_times`: the cycle of each element's
  access from the states before the loop nest, each outer iteration's states and the
  innermost loop's II) from their start times (a task starts after the producers it
  waits for, with its FIFO producers), the consumer waiting for elements not yet there
  (:func:`fifo_need`); at least 2, at most the frame;
* the whole frame (the elements the producer writes per call) when another path of the
  graph, in whatever direction, joins the producer and the consumer (the channel lies on a
  cycle of reconvergent paths): the consumer may wait for that other path, which may wait
  for the producer to finish (a ping-pong buffer on it, or a task that reads another
  FIFO first), so this FIFO must be able to hold all of the producer's output or the
  region may deadlock.  With every FIFO of every such cycle that deep, no producer ever
  waits for room within a frame, and the region cannot deadlock.

**Latency** of a task per call: the cycles of its callee estimated from its schedule
(block states, loops by constant trip counts or ``DEFAULT_TRIPS``, pipelined loops as
``(n - 1) * II + depth``, branches taken either way with equal probability), plus the two
cycles of the handshake; its interval is the same (an FSMD starts a new call after
``done``).  The throughput bound of ``N`` frames is the sum of the latencies on the
critical path plus ``(N - 1)`` times the largest interval.
"""

from __future__ import annotations

import networkx as nx

from ..analysis import find_loops, stream_elements, stream_order_problem
from ..scheduling import skipped
from ..scheduling._profit import DEFAULT_TRIPS, unroll_factor
from ._graph import Channel, DataflowError, TaskGraph

__all__ = ["choose_channels", "function_cycles", "graph_report", "task_graph_nx"]


def task_graph_nx(g: TaskGraph) -> nx.DiGraph:
    """Tasks and the data edges between them (channels, scalar channels, the program
    order of the users of a written pointer argument)."""
    G = nx.DiGraph()
    G.add_nodes_from(g.tasks)
    for c in g.channels:
        for t in c.consumers:
            G.add_edge(c.producer, t)
    for sc in g.scalars:
        for t in sc.consumers:
            G.add_edge(sc.producer, t)
    for p in g.ports:
        us = list(dict.fromkeys(t for t, _ in p.users))
        if p.written:
            for a, b in zip(us, us[1:]):
                G.add_edge(a, b)
    return G


def fifo_problem(g: TaskGraph, c: Channel) -> str | None:
    """Why channel ``c`` cannot be a FIFO (None: it can)."""
    if len(c.consumers) != 1:
        return f"it has {len(c.consumers)} consumers (a FIFO has one)"
    cons = c.consumers[0]
    sides = []
    for t, cm, off in c.users:
        if not (hasattr(off, "value") and off.value == 0):
            return f"{t.name} receives it at an offset"
        sides.append((t, cm))
    shared = {t for p in g.ports if len({u for u, _ in p.users}) > 1 for t, _ in p.users}
    for t in (c.producer, cons):
        if t in shared:
            return (f"{t.name} shares a pointer argument with another task (it may wait for "
                    "that argument while holding a FIFO end)")
        if g.shares(t):
            return (f"{t.name} shares its accelerator with another task (it may wait for "
                    "it while holding a FIFO end)")
    counts = []
    for t, cm in sides:
        why = stream_order_problem(t.function, cm)
        if why is not None:
            return f"in {t.name}: {why}"
        n = stream_elements(t.function, cm)
        if n is None:
            return f"{t.name} accesses it a number of times that is not a constant"
        counts.append(n)
    if counts[0] != counts[1]:
        return (f"{c.producer.name} writes {counts[0]} elements but {cons.name} reads "
                f"{counts[1]}")
    kinds = {t: ("w" if any(op.kind == "store" and op.mem is cm for op in t.function.ops())
                 else "r") for t, cm in sides}
    if kinds[c.producer] != "w" or kinds[cons] != "r":
        return "its producer does not only write it, or its consumer does not only read it"
    return None


def _longest_path(G: nx.DiGraph, a, b) -> int:
    """Edges of the longest path from ``a`` to ``b`` in the DAG ``G`` (0: none)."""
    best = {a: 0}
    for v in nx.topological_sort(G):
        if v not in best:
            continue
        for w in G.successors(v):
            best[w] = max(best.get(w, 0), best[v] + 1)
    return best.get(b, 0)


def _channel_edges(g: TaskGraph) -> set:
    out = {(c.producer, t) for c in g.channels for t in c.consumers}
    out |= {(sc.producer, t) for sc in g.scalars for t in sc.consumers}
    return out


#: estimated LUTs above which the calls of one function share one accelerator by default
SHARE_LUT = 4000


def function_luts(func, target) -> int:
    """The operator LUTs of ``func`` (and its callees) by the target's library, as
    report.json's estimate counts them before binding shares units."""
    from ..scheduling import op_timing
    total, seen, work = 0, set(), [func]
    while work:
        f = work.pop()
        if f in seen:
            continue
        seen.add(f)
        for op in f.ops():
            if op.kind == "call":
                work.append(op.attrs["callee"])
            elif op.kind != "phi":
                total += op_timing(target, op).area_lut
    return total


def choose_instances(g: TaskGraph, target, directives=None) -> None:
    """Which calls of one function share one accelerator: by default those whose
    function's estimated LUTs reach :data:`SHARE_LUT` (replicating a small accelerator
    costs less than the arbitration and lost overlap; a large one is shared);
    ``[[dataflow]] share = [...]`` / ``replicate = [...]`` name functions to decide."""
    share, repl = set(), set()
    if directives is not None:
        for d in getattr(directives, "dataflow_entries", []):
            if d.get("function") == g.func.name:
                share |= set(d.get("share", ()))
                repl |= set(d.get("replicate", ()))
    names = {t.function.name for t in g.tasks if t.kind == "call"}
    for n in sorted((share | repl) - names):
        raise DataflowError(f"[[dataflow]] of @{g.func.name} names '{n}' in share/replicate, "
                            f"which no task of the region calls (its tasks call: "
                            f"{', '.join(sorted(names))})", directives.source, None)
    by_fn: dict = {}
    for t in g.tasks:
        if t.kind == "call":
            by_fn.setdefault(t.function, []).append(t)
    g.instances, g.instance_of = [], {}
    for fn, ts in by_fn.items():
        if len(ts) > 1 and fn.name not in repl and (
                fn.name in share or function_luts(fn, target) >= SHARE_LUT):
            g.instances.append(fn)
            for t in ts:
                g.instance_of[t] = len(g.instances) - 1
        else:
            for t in ts:
                g.instances.append(fn)
                g.instance_of[t] = len(g.instances) - 1


#: cycles from a producer core's write to the consumer core seeing the element (the two
#: stream adapters and the channel FIFO)
FIFO_LATENCY = 3
#: elements of a stream simulated when sizing a FIFO from the schedules (longer streams
#: keep their first this-many elements' need)
SIZING_ELEMENTS = 1 << 16


def _states_to(func, fs, target_block) -> int | None:
    """States on the shortest path from the entry to the start of ``target_block``."""
    import heapq
    lengths = {b: (0 if skipped(b) else fs.blocks[b].length) for b in func.blocks}
    order = {b: i for i, b in enumerate(func.blocks)}
    dist = {func.entry: 0}
    heap = [(0, 0, func.entry)]
    while heap:
        d, _, b = heapq.heappop(heap)
        if b is target_block:
            return d
        if d > dist.get(b, 1 << 60):
            continue
        for s2 in b.successors:
            nd = d + lengths[b]
            if nd < dist.get(s2, 1 << 60):
                dist[s2] = nd
                heapq.heappush(heap, (nd, order[s2], s2))
    return None


def stream_times(func, fs, mem) -> list[int] | None:
    """The cycle (from the call's start, unstalled) of each access of ``mem``'s proven
    stream in ``func``, in element order, from the schedule ``fs``: states before the
    loop nest, each outer iteration's states and inner loop, and the innermost loop's
    iterations (``II`` apart when pipelined, its block's states apart otherwise).  None
    when the shape is not one this model covers."""
    acc = [op for op in func.ops() if op.kind in ("load", "store") and op.mem is mem]
    if len(acc) != 1:
        return None
    a = acc[0]
    chain = sorted([lp for lp in find_loops(func) if a.block in lp.blocks],
                   key=lambda x: -len(x.blocks))
    if not chain:
        t = _states_to(func, fs, a.block)
        return None if t is None else [t + fs.step[a]]
    if any(lp.trip_count is None for lp in chain):
        return None
    lengths = {b: (0 if skipped(b) else fs.blocks[b].length) for b in func.blocks}
    inner = chain[-1]
    pl = fs.pipelines.get(inner.header)
    if pl is not None:
        it, first, per_entry = pl.ii, pl.time[a], (inner.trip_count - 1) * pl.ii + pl.depth
    else:
        it, first = lengths[inner.header], fs.step[a]
        per_entry = inner.trip_count * it
    # outer levels, innermost first: states before the inner loop, and per iteration
    pre, per_iter = [], []
    for lvl in reversed(range(len(chain) - 1)):
        outer, nxt = chain[lvl], chain[lvl + 1]
        own = [b for b in outer.blocks if b not in nxt.blocks]
        before, b, seen = 0, outer.header, set()
        while b is not nxt.header:
            if b in seen or b not in own:
                return None
            seen.add(b)
            before += lengths[b]
            succ = [x for x in b.successors if x in outer.blocks]
            if len(succ) != 1:
                return None
            b = succ[0]
        cost = sum(lengths[b] for b in own) + per_entry
        pre.insert(0, before)
        per_iter.insert(0, cost)
        per_entry = outer.trip_count * cost
    t0 = _states_to(func, fs, chain[0].header)
    if t0 is None:
        return None
    trips = [lp.trip_count for lp in chain]
    total = 1
    for n in trips:
        total *= n
    out = []
    for j in range(min(total, SIZING_ELEMENTS)):
        idx, r = [], j
        for n in reversed(trips):
            idx.append(r % n)
            r //= n
        idx.reverse()
        t = t0 + sum(idx[l] * per_iter[l] + pre[l] for l in range(len(chain) - 1))
        out.append(t + idx[-1] * it + first)
    return out


def fifo_need(writes: list[int], reads: list[int], start: int) -> int:
    """Entries a FIFO needs so that its producer never waits (writes at ``writes``) when
    its consumer starts ``start`` cycles after it and reads at ``reads`` from its own
    start, waiting for elements not yet there (each wait delays its later reads)."""
    delay, got = 0, []
    for w, r in zip(writes, reads):
        t = max(start + r + delay, w + FIFO_LATENCY)
        delay = t - (start + r)
        got.append(t)
    need, j = 0, 0
    for i, w in enumerate(writes):        # in the FIFO when element i is written:
        while j < len(got) and got[j] <= w:   # written before it and not yet read
            j += 1
        need = max(need, i + 1 - j)
    return need


def _start_times(g: TaskGraph, lat: dict) -> dict:
    """When each task starts its first frame, unstalled: after every producer it waits
    for (ping-pong buffers, scalar results, argument order), with its FIFO producers."""
    G = task_graph_nx(g)
    fifo = {(c.producer, c.consumers[0]) for c in g.channels if c.kind == "fifo"}
    start: dict = {}
    for t in nx.topological_sort(G):
        start[t] = max([start[u] if (u, t) in fifo else start[u] + lat[u]
                        for u in G.predecessors(t)], default=0)
    return start


def choose_channels(g: TaskGraph, directives=None, schedules=None) -> None:
    """Set each channel's kind, depth and the reason (module docstring); ``schedules``
    (function -> FunctionSchedule) size the FIFOs off reconvergent paths."""
    asked = {}
    if directives is not None:
        for d in getattr(directives, "channels", []):
            if d.function == g.func.name:
                asked[d.name] = d
    names = {c.name for c in g.channels}
    for name, d in asked.items():
        if name not in names:
            what = "#pragma HLS stream" if d.origin else "[[channel]]"
            raise DataflowError(f"{what} names '{name}', which is not a channel of "
                                f"dataflow region @{g.func.name} (its channels: "
                                f"{', '.join(sorted(names)) or 'none'})",
                                *(d.origin or (directives.source, None)))
    _check_stream_memories(g)
    G = task_graph_nx(g)
    sized: list[Channel] = []
    for c in g.channels:
        why = fifo_problem(g, c)
        d = asked.get(c.name)
        if d is not None and d.kind:
            kind = d.kind
        elif d is not None and d.depth is not None:
            kind = "fifo"                       # a depth is a FIFO's
        else:
            kind = "fifo" if why is None else "pipo"
        if c.mem.stream:
            kind = "fifo"                       # an hls::stream is one
        if kind == "fifo" and why is not None:
            if c.mem.stream:
                loc = c.mem.loc
                where = (d.origin if d is not None and d.origin else
                         (loc.file, loc.line) if loc is not None else (None, None))
                raise DataflowError(f"hls::stream '{c.name}' of @{g.func.name} cannot be a "
                                    f"FIFO channel between its tasks: {why}", *where)
            raise DataflowError(f"channel '{c.name}' of @{g.func.name} cannot be a FIFO: {why}",
                                *(d.origin if d is not None and d.origin else
                                  (directives.source if directives else None, None)))
        c.kind = kind
        c.forced = d is not None and (d.kind is not None or d.depth is not None)
        c.stream = c.mem.stream
        if kind == "pipo":
            # a bank per frame in flight between producer and consumer: 2, plus one per
            # task on the longest other path between them (the consumer also waits for
            # that path, so the producer runs that many frames ahead)
            longest = max(_longest_path(G, c.producer, t) for t in c.consumers)
            c.depth = max(2, longest + 1)
            c.why = (why or "asked for") + (f"; {c.depth} banks: a longer path joins its "
                                             "producer to its consumer" if c.depth > 2 else "")
            continue
        cm = c.callee_mem(c.producer)
        frame = stream_elements(c.producer.function, cm) or cm.depth_words
        # on a cycle of the undirected graph (reconvergent paths, whatever their
        # directions): another way joins producer and consumer
        H = nx.MultiGraph()
        H.add_nodes_from(g.tasks)
        for x in g.channels:
            if x is not c:
                H.add_edges_from((x.producer, t) for t in x.consumers)
        for sc in g.scalars:
            H.add_edges_from((sc.producer, t) for t in sc.consumers)
        H.add_edges_from(e for e in G.edges if e not in _channel_edges(g))
        reconv = nx.has_path(H, c.producer, c.consumers[0])
        if d is not None and d.depth is not None:
            c.depth = d.depth
            c.why = ("hls::stream; " if c.mem.stream else "") + (
                f"depth asked for (line {d.origin[1]})" if d.origin else "depth asked for")
        elif reconv:
            c.depth = frame
            c.why = ("in-order stream; another path joins its producer to its consumer: it "
                     "holds a whole frame")
        else:
            c.depth, c.why = 2, "in-order stream"
            sized.append(c)
    if schedules is None or not sized:
        return
    lat = {t: (int(round(function_cycles(t.function, schedules[t.function]))) + 2
               if t.kind == "call" else 1) for t in g.tasks}
    start = _start_times(g, lat)
    for c in sized:
        p, q = c.producer, c.consumers[0]
        tw = stream_times(p.function, schedules[p.function], c.callee_mem(p))
        tr = stream_times(q.function, schedules[q.function], c.callee_mem(q))
        if tw is None or tr is None:
            c.why += "; depth 2: the schedules do not give its access times"
            continue
        frame = len(tw)
        need = fifo_need(tw, tr, start[q] - start[p])
        c.depth = max(2, min(need, frame))
        c.why += (f"; depth {c.depth}: what the producer writes ahead of its consumer by "
                  "their schedules")


def _check_stream_memories(g: TaskGraph) -> None:
    """An hls::stream of a region is a channel between two tasks, a task's own, or a port
    read or written in one frame: a stream port of a region whose frames loop runs it
    several times would restart at element 0 every frame (each call of a task reads and
    writes a stream from its own position 0)."""
    if g.frames == 1:
        return
    for p in g.ports:
        if p.mem.stream:
            loc = p.mem.loc or g.func.loc
            raise DataflowError(f"hls::stream argument '{p.mem.name}' of dataflow region "
                                f"@{g.func.name} is used in its frames loop: each frame's "
                                "tasks would read or write it from element 0 again (loop "
                                "inside the tasks instead)", loc.file if loc else None,
                                loc.line if loc else None)


def function_cycles(func, fs, loop=None) -> float:
    """Estimated cycles of one call of ``func`` under schedule ``fs`` (module docstring),
    without the handshake; with ``loop`` (one of ``func``'s loops), of one entry of that
    loop."""
    loops = find_loops(func)
    lengths = {b: (0 if skipped(b) else fs.blocks[b].length) for b in func.blocks}
    inner_of: dict = {}
    for lp in loops:
        inner_of[lp] = [q for q in loops if q.parent is lp]

    def level(blocks, entry, subloops, inside=None) -> float:
        # collapse each subloop into its header; weights by forward propagation
        owner = {}
        for q in subloops:
            for b in q.blocks:
                owner[b] = q
        order = {b: i for i, b in enumerate(func.blocks)}
        w = {b: 0.0 for b in blocks}
        w[entry] = 1.0
        cost = 0.0
        done_loops = set()
        for b in sorted(blocks, key=order.get):
            q = owner.get(b)
            if q is not None:
                if b is not q.header or q in done_loops:
                    continue
                done_loops.add(q)
                cost += w[b] * loop_cycles(q)
                succs = [s for x in q.blocks for s in x.successors if s not in q.blocks]
            else:
                cost += w[b] * lengths[b]
                succs = b.successors
            succs = list(dict.fromkeys(succs))
            if not succs:
                continue
            share = w[b] / len(succs)
            for s in succs:
                s2 = owner[s].header if s in owner else s
                if s2 in w and order[s2] > order[b] and s2 is not entry:
                    w[s2] += share
        return cost

    def loop_cycles(lp) -> float:
        trips = lp.trip_count if lp.trip_count is not None else -(-DEFAULT_TRIPS // unroll_factor(lp))
        pl = fs.pipelines.get(lp.header)
        if pl is not None:
            return (max(trips, 1) - 1) * pl.ii + pl.depth
        return trips * level(lp.blocks, lp.header, inner_of[lp])

    if loop is not None:
        lp = next(x for x in loops if x.header is loop.header)
        return loop_cycles(lp)
    top = [lp for lp in loops if lp.parent is None]
    return level(func.blocks, func.entry, top)


#: frames per call assumed for a frames loop whose count is an argument
ASSUMED_FRAMES = 16


def _value_name(v) -> str:
    while hasattr(v, "kind") and v.kind in ("zext", "sext", "trunc"):
        v = v.operands[0]
    return getattr(v, "name", None) or "bound"


def region_estimate(g: TaskGraph, schedules) -> float:
    """Estimated cycles of one call of the region: tasks start as in :func:`_start_times`
    and a FIFO's consumer finishes no earlier than its producer (plus the FIFO's
    latency), then (frames - 1) times the largest interval (a task's latency, or a
    shared accelerator's calls per frame)."""
    lat = {t: (function_cycles(t.function, schedules[t.function]) + 2
               if t.kind == "call" else 1) for t in g.tasks}
    start = _start_times(g, lat)
    fifo = {(c.producer, c.consumers[0]) for c in g.channels if c.kind == "fifo"}
    finish: dict = {}
    for t in nx.topological_sort(task_graph_nx(g)):
        finish[t] = max([start[t] + lat[t]] + [finish[u] + FIFO_LATENCY for u, v in fifo
                                               if v is t])
    load: dict = {}
    for t in g.tasks:
        if t.kind == "call":
            load[g.instance_of[t]] = load.get(g.instance_of[t], 0) + lat[t]
    interval = max(list(lat.values()) + list(load.values()))
    frames = g.frames if g.frames is not None else ASSUMED_FRAMES
    return max(finish.values()) + (frames - 1) * interval


def graph_report(g: TaskGraph, schedules) -> dict:
    """``report.json["dataflow"]`` of one region."""
    lat = {}
    for t in g.tasks:
        if t.kind == "call":
            lat[t] = int(round(function_cycles(t.function, schedules[t.function]))) + 2
        else:
            lat[t] = 1
    G = task_graph_nx(g)
    dist = {}
    for t in nx.topological_sort(G):
        dist[t] = lat[t] + max((dist[p] for p in G.predecessors(t)), default=0)
    crit = max(dist.values())
    # a shared accelerator runs its tasks' calls one after another every frame
    load: dict = {}
    for t in g.tasks:
        if t.kind == "call":
            load[g.instance_of[t]] = load.get(g.instance_of[t], 0) + lat[t]
    interval = max(list(lat.values()) + list(load.values()))
    chans = []
    for c in g.channels:
        cons = c.consumers
        if c.kind == "pipo":
            bits = c.depth * len(cons) * c.mem.depth_words * c.width
        else:
            bits = c.depth * c.width
        chans.append({"name": c.name, "kind": c.kind, "depth": c.depth, "width": c.width,
                      "elements": c.mem.depth_words, "producer": c.producer.name,
                      "consumer": cons[0].name if len(cons) == 1 else [t.name for t in cons],
                      "bits": bits, "bram18": 0 if bits <= 1024 else -(-bits // 18432),
                      "why": c.why, **({"stream": True} if c.mem.stream else {})})
    for sc in g.scalars:
        chans.append({"name": sc.name, "kind": "fifo", "depth": sc.depth, "width": sc.width,
                      "elements": 1, "producer": sc.producer.name,
                      "consumer": [t.name for t in sc.consumers], "bits": sc.depth * sc.width,
                      "bram18": 0, "why": "scalar"})
    return {
        "region": g.func.name,
        "frames": g.frames if g.frames is not None else f"{_value_name(g.frames_bound)} "
                                                          f"- {g.iv_start}",
        "tasks": [{"name": t.name, "function": t.function.name if t.function else None,
                   "kind": t.kind, "line": t.line, "latency": lat[t],
                   "interval": load.get(g.instance_of.get(t), lat[t]),
                   "instance": g.instance_of.get(t)}
                  for t in g.tasks],
        "instances": [{"function": fn.name,
                       "tasks": [t.name for t in g.tasks if g.instance_of.get(t) == i]}
                      for i, fn in enumerate(g.instances)],
        "channels": chans,
        "ports": [{"name": p.mem.name, "direction": p.direction,
                   "users": [t.name for t, _ in p.users]} for p in g.ports],
        "critical_path_latency": crit,
        "max_interval": interval,
        "throughput_bound_cycles": (crit + (g.frames - 1) * interval
                                    if g.frames is not None else None),
    }
