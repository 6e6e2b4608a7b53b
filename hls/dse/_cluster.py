"""Evaluating design points on a Dask cluster.

Every evaluation is a Dask future of :func:`evaluate_task`, a self-contained task: the
kernel's source path, its :class:`hls.flow.SynthOptions` and the :class:`DesignPoint`,
all picklable; the worker compiles the kernel itself, once per worker process and
floating-point formats of the points (:func:`point_options`; the
compiled designs and the results seen so far, by IR hash, are kept in module-level
dicts keyed by the path and the options).  The workers must see the source path (the
same machine, or a shared file system) and have pyhls installed.

:func:`dask_evaluator` starts a ``distributed.LocalCluster`` of single-threaded worker
processes, or connects to a running scheduler (``tcp://HOST:PORT``), at the first batch
(none where the result cache answers every point), and closes what it opened at the
end.  A worker lost mid-run loses nothing: the scheduler runs its tasks again on the
others (each task is pure: the same point gives the same result anywhere).
"""

from __future__ import annotations

import contextlib
import logging
import time
import traceback
from collections.abc import Callable, Iterator

from ..flow import SynthOptions
from ._estimate import Estimate, estimate
from ._evaluate import Compiled, Result, compile_design, evaluate
from ._point import DesignPoint, point_options

#: per worker process: the compiled kernels and, per kernel, the results by IR hash
_COMPILED: dict[tuple, Compiled] = {}
_SEEN: dict[tuple, dict] = {}


def _compiled(path, opts: SynthOptions) -> tuple[tuple, Compiled]:
    key = (repr(path), repr(opts))
    design = _COMPILED.get(key)
    if design is None:
        design = _COMPILED[key] = compile_design(path, opts)
    return key, design


def evaluate_task(path, opts: SynthOptions, point: DesignPoint) -> Result:
    """:func:`evaluate` of ``point`` on the kernel ``path`` compiled with ``opts`` (in
    this process once).  A compiler bug (an exception that is not a user error) is a
    result with status ``"internal-error"`` and the exception's last line: one point
    that crashes the compiler does not end the exploration, and dse.json names it."""
    key, design = _compiled(path, point_options(opts, point))
    t0 = time.perf_counter()
    try:
        return evaluate(design, point, seen=_SEEN.setdefault(key, {}))
    except Exception as exc:    # (recorded in the result: see above)
        last = traceback.format_exception_only(exc)[-1].strip()
        return Result(point, "internal-error", message=last,
                      time_s=round(time.perf_counter() - t0, 3))


def estimate_task(path, opts: SynthOptions, point: DesignPoint) -> Estimate:
    """:func:`hls.dse._estimate.estimate` of ``point``, as :func:`evaluate_task` (a
    compiler bug: an estimate of status ``"internal-error"``, never evaluated)."""
    _, design = _compiled(path, point_options(opts, point))
    t0 = time.perf_counter()
    try:
        return estimate(design, point)
    except Exception as exc:    # (recorded in the estimate)
        last = traceback.format_exception_only(exc)[-1].strip()
        return Estimate(point, "internal-error", message=last,
                        time_s=round(time.perf_counter() - t0, 3))


@contextlib.contextmanager
def dask_evaluator(path, opts: SynthOptions, workers: int = 2, scheduler: str | None = None
                   ) -> Iterator[Callable[[list[DesignPoint]], list[Result]]]:
    """A function evaluating a batch of points as Dask futures, their results in the
    batch's order: on a ``LocalCluster`` of ``workers`` processes with one thread each,
    or on the cluster whose scheduler is at ``scheduler``."""
    with dask_pool(path, opts, workers, scheduler) as (evaluate_many, _):
        yield evaluate_many


@contextlib.contextmanager
def dask_pool(path, opts: SynthOptions, workers: int = 2, scheduler: str | None = None):
    """:func:`dask_evaluator`'s function and, on the same cluster, one estimating a
    batch of points (:func:`estimate_task`)."""
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        clients: list = []

        def client():      # (started at the first batch: a run the cache serves needs none)
            if not clients:
                if scheduler is None:
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.ERROR))
                    clients.append(stack.enter_context(Client(cluster)))
                else:
                    clients.append(stack.enter_context(Client(scheduler)))
            return clients[0]

        def mapper(task):
            def many(points: list[DesignPoint]) -> list:
                n = len(points)
                if not n:
                    return []
                futures = client().map(task, [path] * n, [opts] * n, points, pure=False)
                return client().gather(futures)
            return many

        yield mapper(evaluate_task), mapper(estimate_task)


def stop_processes(procs, timeout: float = 15.0) -> None:
    """Stop the ``subprocess.Popen`` processes of a cluster started by hand (a ``dask
    scheduler`` and its workers): terminate those still running, then wait for each,
    killed when it outlives ``timeout`` seconds."""
    import subprocess

    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
