"""Design-space exploration: design points of a kernel and their evaluation.

A :class:`DesignPoint` is the knobs of one design (per-loop unroll factor, pipeline and
II, per-array partitioning, memory sharing, clock period), hashable, named as a
directives file names loops and arrays, and convertible to and from
:class:`hls.directives.Directives` and a directives file's text.  :func:`evaluate` runs
the flow on a kernel compiled once (:func:`compile_design`: the frontend runs once) with
a point's knobs and returns a typed :class:`Result` (latency, resources, clock, the files
written, the hash of the lowered design, :func:`ir_hash`, by which points that lower
alike are evaluated once).

The exploration: :func:`design_space` reads a compiled kernel's loops and arrays into a
:class:`Space` of candidate knob values (:mod:`._space`), :func:`explore` searches it and
keeps the Pareto front of worst-case latency and LUTs (:func:`pareto_front`,
:mod:`._search`), optionally pre-ranking the candidates by :func:`estimate` (their
schedules and cost models, no RTL: :mod:`._estimate`), :func:`dask_evaluator`
evaluates the points as Dask futures
(:mod:`._cluster`), a :class:`ResultCache` keeps every result for the next run
(:mod:`._cache`), and :func:`run_dse` (``pyhls dse``) puts them together and writes
dse.json and a directives file per front point (:mod:`._explore`).
"""

from ._cache import ResultCache
from ._cluster import dask_evaluator, evaluate_task
from ._estimate import Estimate, estimate
from ._evaluate import Compiled, Resources, Result, compile_design, evaluate, ir_hash, with_point
from ._explore import front_table, run_dse
from ._point import ArrayKnob, DesignPoint, LoopKnob
from ._search import OBJECTIVES, Exploration, costs, explore, pareto_front
from ._space import Knob, Space, design_space

__all__ = [
    "OBJECTIVES",
    "ArrayKnob",
    "Compiled",
    "DesignPoint",
    "Estimate",
    "Exploration",
    "Knob",
    "LoopKnob",
    "Resources",
    "Result",
    "ResultCache",
    "Space",
    "compile_design",
    "costs",
    "dask_evaluator",
    "design_space",
    "estimate",
    "evaluate",
    "evaluate_task",
    "explore",
    "front_table",
    "ir_hash",
    "pareto_front",
    "run_dse",
    "with_point",
]
