"""``pyhls dse``: a kernel's space explored on a Dask cluster, and what it writes.

:func:`run_dse` compiles the kernel here (for its space, :func:`design_space`), searches
it (:func:`explore`) with the evaluations as Dask futures (:func:`dask_evaluator`), and
writes into the output directory:

* ``dse.json``: the space (its knobs and their candidates, the number of points), the
  search (and whether the time limit stopped it), every point evaluated in key order (its knobs, key, IR hash, status and
  message, latency as report.json gives it, area, seconds: the one field that depends
  on the run), the front (by latency, then LUTs), the best point by the objective, and
  ``run``: how many points this run took from the result cache and how many it
  evaluated (the other field that depends on the run); ``prerank``: with ``--prerank``
  (:func:`explore`'s pre-ranking), how many points were estimated, how many evaluated
  in full, and each estimate (:func:`prerank_json`);
* ``dse.html``: the points and the front as a picture, and the front's table
  (:func:`hls.report.dse_html`);
* ``pareto_<i>.toml``: the directives file of the ``i``-th front point, which ``pyhls
  synth --directives`` accepts and builds into the design evaluated: the point's knobs
  after the entries of the directives file the exploration was given, if any (which the
  knobs never set again: :func:`design_space`), in that file's format (``.json`` for a
  JSON file); a point's floating-point formats are options, not directives: its front
  entry's ``options`` (``--fp-format FUNC=FMT``, :meth:`DesignPoint.cli_args`).

Every front point is then co-simulated here, one after the other: ``pyhls synth`` of
its directives file (:func:`hls.flow.synthesize`) and :func:`hls.verify.cosim` against
the native run of the testbench (``tb``), or of random stimulus without one
(``cosim_front=False``: not at all); its front entry in dse.json gets ``cosim``:
whether it passed, the stimulus, the cycles of each call, and whether they lie within
the latency evaluated.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path

from .. import progress as shown
from ..errors import HLSError
from ..flow import SynthOptions, flow_for_target, synth_target
from ..frontend._common import warn
from ..report import dse_html
from ._cache import ResultCache
from ._cluster import dask_pool
from ._estimate import estimate
from ._evaluate import Result, compile_design
from ._point import DesignPoint, point_options
from ._search import Budget, Exploration, costs, explore
from ._space import Space, design_space

#: dse.json's layout version
DSE_JSON_VERSION = 1


def point_json(point: DesignPoint) -> dict:
    """A point's knobs as dse.json gives them."""
    loops = [{"function": k.function} | ({"line": k.line} if k.label is None else {"label": k.label})
             | {s: getattr(k, s) for s in ("unroll", "pipeline", "ii") if getattr(k, s) is not None}
             for k in point.loops]
    arrays = [{"function": a.function, "name": a.name, "partition": a.partition}
              | ({"factor": a.factor} if a.partition in ("cyclic", "block") else {})
              for a in point.arrays]
    return {"loops": loops, "arrays": arrays} | (
        {"fp_formats": dict(point.fp_formats)} if point.fp_formats else {})


def result_json(key: tuple, res: Result, budget: Budget | None = None) -> dict:
    """One evaluated point of dse.json (``over_budget``: the resources its estimate
    needs beyond ``budget``, which keep it off the front)."""
    out = {"key": list(key), "knobs": point_json(res.point), "status": res.status,
           "ir_hash": res.ir_hash,
           "latency": res.latency.to_json() if res.latency is not None else None,
           "area": dataclasses.asdict(res.resources) if res.resources is not None else None,
           "seconds": res.time_s}
    if res.message is not None:
        out["message"] = res.message
    over = budget.over(res.resources) if budget is not None and res.ok else []
    if over:
        out["over_budget"] = over
    return out


def run_dse(path, opts: SynthOptions, out_dir: str | Path, max_points: int = 64,
            objective: str = "latency", workers: int = 2, scheduler: str | None = None,
            progress: Callable[[int, list[tuple]], None] | None = None, tb=None,
            cache: str | Path | None = None, time_limit: float | None = None,
            prerank: int = 0, fp_formats: tuple = (),
            budget: Budget | str | None = "device", place_route: int = 0,
            cosim_front: bool = True) -> tuple[Space, Exploration, list[dict]]:
    """Explore the kernel ``path`` (``opts``: its top, target, directives file, ...),
    write dse.json and the front's directives files into ``out_dir``, and co-simulate
    the front with the testbench ``tb`` if given; returns the space, the exploration
    and dse.json's ``pareto`` entries.  ``cache``: the directory of the result cache
    (:class:`ResultCache`; None: none); ``time_limit``: seconds after which the local
    search starts no new round; ``prerank``: how many points the search may estimate
    before evaluating (:func:`explore`'s pre-ranking; 0: none); ``fp_formats``: the
    floating-point formats the functions computing in floating point may take (the
    ``fp`` knobs of :func:`design_space`; none by default: they change the results);
    ``budget``: the resources a front point may need (:class:`Budget`; ``"device"``, the
    default: the target's part, none on a target without one; a ``--budget`` text: those
    limits, the part's for the rest; None: no limit); ``place_route``: place and route
    every front point with that many nextpnr seeds (0: none), its timing in the front
    entry; ``cosim_front``: without a testbench, co-simulate every front point with
    random stimulus (``hls.verify.cosim``'s, as ``pyhls cosim`` without ``--tb``)."""
    if place_route:     # no open flow for the target: say so before anything is built
        flow_for_target(synth_target(opts), place_route)
    design = compile_design(path, opts)
    device = design.comp.target.device
    if budget == "device":
        budget = Budget.of_device(device) if device is not None else None
    elif isinstance(budget, str):
        try:
            budget = Budget.parse(budget, device)
        except ValueError as exc:
            raise HLSError(f"--budget {budget}: {exc}") from None
    space = design_space(design, default_bounds(design), tuple(fp_formats))
    if fp_formats and not any(k.setting == "fp" for k in space.knobs):
        top = design.front.top.loc
        warn(top.file if top else None, top.line if top else None,
             f"--fp-formats {','.join(fp_formats)} ignored: no function of "
             f"{opts.top} computes in floating point without a --fp-format of its own")
    results = ResultCache(cache, design) if cache is not None else None
    t0 = time.monotonic()
    stop = (lambda: time.monotonic() - t0 > time_limit) if time_limit is not None else None
    total = min(max_points, space.size())

    def tick(n: int, front: list[tuple]) -> None:
        left = ""
        if time_limit is not None:
            left = f", {max(0.0, time_limit - (time.monotonic() - t0)):.0f} s left"
        best = min(front)[0] if front else None
        shown.count("design points", n, total, f"front: {len(front)} point(s)"
                    + (f", best {best} cycles" if best is not None else "") + left)
        if progress is not None:
            progress(n, front)

    shown.stage("exploration", f"{space.size()} point(s) in the space")
    with dask_pool(path, opts, workers, scheduler) as (evaluate_many, estimate_many):
        if results is not None:
            evaluate_many = results.wrap(evaluate_many)
        exp = explore(space, evaluate_many, max_points, objective, tick, stop,
                      estimate_many, prerank, budget)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    front = []
    for n, i in enumerate(exp.front):
        key, res = exp.evaluated[i]
        name, text = directives_file(res.point, opts.directives, f"pareto_{n}")
        (out / name).write_text(text)
        lat, lut = costs(res, budget)
        front.append({"point": i, "directives": name, "latency_max": lat, "lut": lut}
                     | ({"options": res.point.cli_args()} if res.point.cli_args() else {}))
        if tb is not None or place_route or cosim_front:
            built = build_point(path, opts, out / name, res, place_route)
        if tb is not None or cosim_front:
            shown.stage("co-simulation of the front", name)
            front[-1]["cosim"] = cosim_point(path, opts, out / name, tb, res, built)
        if place_route:
            front[-1]["timing"] = timing_json(built.report["timing"])
    inputs = [str(p) for p in path] if isinstance(path, (list, tuple)) else [str(path)]
    doc = {"version": DSE_JSON_VERSION, "top": opts.top, "inputs": inputs,
           "objective": objective, "search": exp.search, "max_points": max_points,
           "time_limit": time_limit, "stopped": exp.stopped,
           "costs": ["latency.max", "area.lut"], "space": space.to_json(),
           "budget": budget.to_json() if budget is not None else None,
           "points": [result_json(k, r, budget) for k, r in exp.evaluated],
           "pareto": front, "best": exp.best,
           "prerank": prerank_json(exp, prerank),
           # what this run took from the cache and evaluated (like seconds, the run's own)
           "run": {"cached": results.hits if results is not None else 0,
                   "evaluated": (results.misses if results is not None
                                 else len(exp.evaluated))}}
    (out / "dse.json").write_text(json.dumps(doc, indent=1) + "\n")
    (out / "dse.html").write_text(dse_html(doc))
    return space, exp, front


def default_bounds(design) -> tuple:
    """The pipelined loops of the default point of ``design``'s space (every loop
    rolled, innermost loops pipelined, arrays whole), from its schedule
    (:func:`hls.dse._estimate.estimate`): what the II knobs' candidates come from.
    Empty where the default point is not a design (a user error): no II knobs."""
    plain = design_space(design)
    got = estimate(design, plain.point(plain.default))
    return got.loops if got.ok else ()


def prerank_json(exp: Exploration, budget: int) -> dict:
    """dse.json's ``prerank``: the estimate budget, how many points were estimated and
    how many evaluated in full (of those estimated, and in all), and each estimated
    point's key, estimated costs (``[latency.max, lut]``, None for none), whether the
    estimate put it near the front (``near``: else it was skipped as dominated) and
    whether it was evaluated in full (a near point not evaluated was cut by the
    budget)."""
    done = {k for k, _ in exp.evaluated}
    return {"budget": budget, "estimated": len(exp.estimated),
            "evaluated": len(exp.evaluated),
            "estimated_then_evaluated": sum(k in done for k, _ in exp.estimated),
            "points": [{"key": list(k), "estimate": list(costs(e)) if costs(e) else None,
                        "status": e.status, "near": k in exp.near, "evaluated": k in done}
                       for k, e in exp.estimated]}


def build_point(path, opts: SynthOptions, directives: Path, res: Result, place_route: int = 0):
    """The design of a front point's directives file, built as ``pyhls synth
    --directives`` builds it (with the point's floating-point formats as
    ``--fp-format``), placed and routed with ``place_route`` nextpnr seeds if that is
    not 0."""
    from ..flow import synthesize

    popts = dataclasses.replace(point_options(opts, res.point), directives=str(directives))
    if place_route:
        shown.stage("place and route of the front", directives.name)
        popts = dataclasses.replace(popts, place_route=True, pnr_seeds=place_route)
    return synthesize(path, popts)


def timing_json(timing: dict) -> dict:
    """A front entry's ``timing``: what report.json's timing says of the clock (the
    critical path by its source lines)."""
    cp = timing.get("critical_path") or {}
    return {k: timing[k] for k in ("clock_mhz", "fmax_mhz", "fmax_mhz_estimated", "met", "seed")
            if k in timing} | {"critical_path": cp.get("source_lines", [])}


def cosim_point(path, opts: SynthOptions, directives: Path, tb, res: Result,
                design=None) -> dict:
    """Co-simulate the design of a directives file (what ``pyhls cosim --directives``
    does, with the point's floating-point formats as ``--fp-format``) with the testbench
    ``tb``: whether it passed, each call's cycles, and whether they lie within the
    evaluated latency ``res.latency``.  At a custom format the golden model is the C at
    that format (the frontend's module carries the formats, and ``hls.verify.cosim``
    runs its arithmetic by the reference models: ``golden_ir``), so a point at reduced
    precision is checked bit-exactly at its own precision, not against IEEE results."""
    from ..verify import cosim

    if design is None:
        design = build_point(path, opts, directives, res)
    got = cosim(path, opts.top, tb=tb, cflags=opts.cflags, cc=opts.cc, synth=design,
                depth=dict(opts.depth))
    cycles = [c.cycles for c in got.calls]
    lat = res.latency
    return {"passed": got.passed, "stimulus": "testbench" if tb is not None else "random",
            "cycles": cycles,
            "within_latency": all(lat.min <= c and (lat.max is None or c <= lat.max)
                                  for c in cycles)}


def directives_suffix(base) -> str:
    """The suffix of the front's directives files, given the directives file ``base``."""
    return ".json" if base is not None and Path(base).suffix == ".json" else ".toml"


def directives_file(point: DesignPoint, base, stem: str) -> tuple[str, str]:
    """The name and text of a point's directives file: its knobs after the entries of
    the directives file ``base`` (None: the knobs alone), TOML, or JSON where the base
    is JSON."""
    if base is None:
        return f"{stem}.toml", point.to_toml()
    text = Path(base).read_text()
    if directives_suffix(base) == ".json":
        data = json.loads(text)
        knobs = point_json(point)
        data["loop"] = data.get("loop", []) + knobs["loops"]
        data["array"] = data.get("array", []) + knobs["arrays"]
        return f"{stem}.json", json.dumps(data, indent=1) + "\n"
    return f"{stem}.toml", text.rstrip("\n") + "\n\n# the design point\n" + point.to_toml()


def front_table(exp: Exploration, suffix: str = ".toml") -> str:
    """The front as a table: per point its directives file (``pareto_<i>`` and
    ``suffix``), worst-case latency, area, and its knobs in short (the best point by the
    objective marked ``*``)."""
    rows = [("", "directives", "latency", "LUT", "FF", "DSP", "BRAM18", "knobs")]
    for n, i in enumerate(exp.front):
        res = exp.evaluated[i][1]
        r = res.resources
        rows.append(("*" if i == exp.best else "", f"pareto_{n}{suffix}", str(res.latency.max),
                     str(r.lut), str(r.ff), str(r.dsp), str(r.bram18), _short(res.point)))
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]) - 1)]
    return "".join("  ".join(v.ljust(w) for v, w in zip(row, widths)) + "  " + row[-1] + "\n"
                   for row in rows)


def _short(point: DesignPoint) -> str:
    """A point's knobs on one line: ``L12 u4 p``, ``inner u1 -``, ``a cyclic 2``."""
    parts = []
    for k in point.loops:
        where = f"L{k.line}" if k.label is None else k.label
        pipe = "" if k.pipeline is None else (" p" if k.pipeline else " -")
        ii = f" ii{k.ii}" if k.ii is not None else ""
        parts.append(f"{where} {'full' if k.unroll == 'full' else f'u{k.unroll}'}{pipe}{ii}")
    for a in point.arrays:
        parts.append(f"{a.name} {a.partition}" + (f" {a.factor}" if a.factor else ""))
    parts += [f"{f} {fmt}" for f, fmt in point.fp_formats]
    return ", ".join(parts)
