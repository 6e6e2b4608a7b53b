"""Progress of long runs on a terminal: the stage of the flow and counts (calls simulated,
points explored), shown on standard error by ``rich`` while ``pyhls synth``, ``cosim`` and
``dse`` run.

Library code reports without knowing how (or whether) it is shown::

    from hls import progress
    progress.stage("scheduling", "@f, loop for.body")
    progress.count("simulation", done, total, "1.2 M cycles/s")

Those calls go to the reporter of the current context (a :class:`contextvars.ContextVar`):
by default :data:`NULL`, which does nothing, so a library caller, a test or a Dask worker
sees nothing.  The CLI installs a :class:`RichReporter` with :func:`reporting` only when
standard error is a terminal and ``--quiet`` is absent (:func:`for_terminal`).  A reporter
only displays: nothing it is given reaches report.json, the Verilog or standard output,
so the outputs are the same with and without it.
"""

from __future__ import annotations

import contextlib
import sys
from contextvars import ContextVar
from typing import Iterator, TextIO

__all__ = ["Reporter", "NULL", "RichReporter", "stage", "count", "active", "reporting",
           "for_terminal"]


class Reporter:
    """The reporter that shows nothing (the default).  A subclass shows ``stage`` (the
    step of the flow under way, ``detail`` what it works on) and ``count`` (``done`` of
    ``total`` units of ``what``, ``total`` None when unknown)."""

    def stage(self, name: str, detail: str = "") -> None:
        pass

    def count(self, what: str, done: int, total: int | None = None, detail: str = "") -> None:
        pass

    def close(self) -> None:
        pass


#: the reporter that shows nothing
NULL = Reporter()

_current: ContextVar[Reporter] = ContextVar("pyhls_progress", default=NULL)


def stage(name: str, detail: str = "") -> None:
    """The flow enters stage ``name`` (working on ``detail``)."""
    _current.get().stage(name, detail)


def count(what: str, done: int, total: int | None = None, detail: str = "") -> None:
    """``done`` of ``total`` units of ``what`` are finished (``detail``: e.g. a rate)."""
    _current.get().count(what, done, total, detail)


def active() -> bool:
    """Whether a reporter shows anything (what costs something to measure, such as the
    simulator's cycle count, is measured only then)."""
    return _current.get() is not NULL


@contextlib.contextmanager
def reporting(reporter: Reporter) -> Iterator[Reporter]:
    """``reporter`` receives the progress of the code run in the ``with`` block; it is
    closed (its display removed) at the end."""
    token = _current.set(reporter)
    try:
        yield reporter
    finally:
        _current.reset(token)
        reporter.close()


def for_terminal(quiet: bool, stream: TextIO | None = None) -> Reporter:
    """A :class:`RichReporter` on ``stream`` (standard error) when it is a terminal and
    not ``quiet``; else :data:`NULL`."""
    stream = sys.stderr if stream is None else stream
    if quiet or not stream.isatty():
        return NULL
    from rich.console import Console

    return RichReporter(Console(file=stream))


class RichReporter(Reporter):
    """Progress as a ``rich`` live display on ``console``: a spinner line with the stage
    and its detail, and below it a bar for the current count; removed when closed
    (transient).  Standard output is redirected through the display only when it is the
    terminal too (so that its lines appear above the display); piped, it is left alone."""

    def __init__(self, console) -> None:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                                   TextColumn, TimeElapsedColumn)
        from rich.text import Text

        class CountBar(BarColumn):
            """The bar of a count; a stage (no total) has none."""

            def render(self, task):
                return super().render(task) if task.total is not None else Text("")

        class CountDone(MofNCompleteColumn):
            """``done/total`` of a count; nothing for a stage."""

            def render(self, task):
                return super().render(task) if task.total is not None else Text("")

        self.console = console
        self._progress = Progress(
            SpinnerColumn(), TextColumn("[bold]{task.description}"), CountBar(),
            CountDone(), TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            console=console, transient=True, redirect_stderr=True,
            redirect_stdout=bool(getattr(sys.stdout, "isatty", lambda: False)()))
        self._stage = None          # the stage's task (one line, kept)
        self._stage_name = None
        self._count = None          # the count's task (a second line, of the stage)
        self._count_what = None
        self._started = False

    def _start(self) -> None:
        if not self._started:
            self._progress.start()
            self._started = True

    def stage(self, name: str, detail: str = "") -> None:
        self._start()
        if self._count is not None and name != self._stage_name:   # a count ends with its stage
            self._progress.remove_task(self._count)
            self._count = self._count_what = None
        self._stage_name = name
        if self._stage is None:
            self._stage = self._progress.add_task(name, total=None, detail=detail)
        else:
            self._progress.update(self._stage, description=name, detail=detail)

    def count(self, what: str, done: int, total: int | None = None, detail: str = "") -> None:
        self._start()
        if self._count is None or self._count_what != what:
            if self._count is not None:
                self._progress.remove_task(self._count)
            self._count = self._progress.add_task(what, total=total, detail=detail)
            self._count_what = what
        self._progress.update(self._count, completed=done, total=total, detail=detail)

    def refresh(self) -> None:
        """Draw the display now (it redraws itself ten times a second)."""
        if self._started:
            self._progress.refresh()

    def close(self) -> None:
        if self._started:
            self._progress.stop()
            self._started = False
