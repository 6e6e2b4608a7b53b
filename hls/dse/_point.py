"""Design points: the knobs of one design of a kernel, as a hashable value.

A point names loops and arrays as a directives file does (:mod:`hls.directives`): a loop
by its function and its source line or its label (the C label, else the header block's
name, as report.json's ``loops[*]`` give them), an array by its function and its name.
Its loop and array knobs are directives (:meth:`DesignPoint.to_directives`, the text of a
file ``pyhls synth --directives`` accepts: :meth:`DesignPoint.to_toml`); memory sharing
and the clock period are options (:meth:`DesignPoint.cli_args`).  A knob left ``None``
keeps what the compilation has (its directives, pragmas, options, or the flow's own
plans: automatic unrolling and partitioning still run where no knob pins a loop).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from ..directives import PARTITION_KINDS, ArrayDirective, Directives, LoopDirective
from ..errors import HLSError
from ..fpu import FPFormat

#: where the directives of a point come from, in messages
POINT_SOURCE = "design point"


def _count(v, least: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= least


@dataclass(frozen=True, slots=True)
class LoopKnob:
    """The settings of one loop: ``unroll`` (a factor >= 1, 1 meaning not unrolled, or
    ``"full"``), ``pipeline`` (on or off) and ``ii`` (the initiation interval asked for);
    ``None`` leaves a setting to the compilation.  The loop is ``function``'s at source
    ``line`` or with ``label`` (exactly one of them)."""

    function: str
    line: int | None = None
    label: str | None = None
    unroll: int | str | None = None
    pipeline: bool | None = None
    ii: int | None = None

    def __post_init__(self) -> None:
        where = f"loop knob {self.function}/{self.line if self.label is None else self.label}"
        if (self.line is None) == (self.label is None):
            raise HLSError(f"{where}: give exactly one of line and label")
        if self.line is not None and not _count(self.line, 1):
            raise HLSError(f"{where}: line must be a positive integer, not {self.line!r}")
        if self.unroll is not None and self.unroll != "full" and not _count(self.unroll, 1):
            raise HLSError(f"{where}: unroll must be an integer >= 1 or \"full\", not "
                           f"{self.unroll!r}")
        if self.pipeline is not None and not isinstance(self.pipeline, bool):
            raise HLSError(f"{where}: pipeline must be true or false, not {self.pipeline!r}")
        if self.ii is not None and not _count(self.ii, 1):
            raise HLSError(f"{where}: ii must be an integer >= 1, not {self.ii!r}")

    @property
    def key(self) -> tuple:
        """The loop's name: (function, line) or (function, label)."""
        return (self.function, self.line if self.label is None else self.label)

    def directive(self, index: int) -> LoopDirective:
        """The ``[[loop]]`` entry (the ``index``-th of its point, for messages)."""
        return LoopDirective(self.function, self.line, self.label, self.pipeline, self.ii,
                             self.unroll, None, (POINT_SOURCE, f"loop entry {index}"))


@dataclass(frozen=True, slots=True)
class ArrayKnob:
    """How one array (``function``'s argument, global or local array ``name``) is
    partitioned: ``partition`` cyclic, block or complete (with ``factor`` banks for
    cyclic and block), or none (whole, and not partitioned automatically either)."""

    function: str
    name: str
    partition: str
    factor: int = 0

    def __post_init__(self) -> None:
        where = f"array knob {self.function}/{self.name}"
        if self.partition not in PARTITION_KINDS:
            raise HLSError(f"{where}: partition must be one of {', '.join(PARTITION_KINDS)}, "
                           f"not {self.partition!r}")
        if self.partition in ("cyclic", "block") and not _count(self.factor, 2):
            raise HLSError(f"{where}: '{self.partition}' partitioning needs a factor >= 2")
        if self.partition in ("complete", "none") and self.factor != 0:
            raise HLSError(f"{where}: a factor does not apply to '{self.partition}' "
                           "partitioning")

    @property
    def key(self) -> tuple:
        return (self.function, self.name)

    def directive(self, index: int) -> ArrayDirective:
        return ArrayDirective(self.function, self.name, self.partition, self.factor,
                              (POINT_SOURCE, f"array entry {index}"))


def _loop_order(k: LoopKnob) -> tuple:
    return (k.function, k.line is None, k.line or 0, k.label or "")


@dataclass(frozen=True, slots=True)
class DesignPoint:
    """One design of a kernel: a knob per loop and per array it sets (at most one each,
    kept in a canonical order, so that two points with the same knobs are equal and
    hash alike), memory sharing on or off (``--no-share-memories``), the clock period
    in ns (``--clock-period``) and the floating-point format of functions
    (``fp_formats``: ``(function, "eEmM")`` pairs, ``--fp-format``, which changes the
    frontend's module: such a point is evaluated on the kernel compiled with them,
    :func:`point_options`); ``None`` or empty: as the compilation has it."""

    loops: tuple[LoopKnob, ...] = ()
    arrays: tuple[ArrayKnob, ...] = ()
    share_memories: bool | None = None
    clock_period_ns: float | None = None
    fp_formats: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        loops = tuple(sorted(self.loops, key=_loop_order))
        arrays = tuple(sorted(self.arrays, key=lambda k: k.key))
        fps = tuple(sorted(tuple(f) for f in self.fp_formats))
        for func, text in fps:
            try:
                FPFormat.parse(text)
            except ValueError as exc:
                raise HLSError(f"design point: the format of {func}: {exc}") from None
        funcs = [f for f, _ in fps]
        if len(set(funcs)) < len(funcs):
            raise HLSError("design point: more than one floating-point format for "
                           + ", ".join(sorted({f for f in funcs if funcs.count(f) > 1})))
        object.__setattr__(self, "fp_formats", fps)
        for kind, knobs in (("loop", loops), ("array", arrays)):
            keys = [k.key for k in knobs]
            twice = sorted({"/".join(map(str, k)) for k in keys if keys.count(k) > 1})
            if twice:
                raise HLSError(f"design point: more than one {kind} knob for "
                               f"{', '.join(twice)}")
        if self.clock_period_ns is not None and not self.clock_period_ns > 0:
            raise HLSError(f"design point: the clock period must be positive, not "
                           f"{self.clock_period_ns!r} ns")
        object.__setattr__(self, "loops", loops)
        object.__setattr__(self, "arrays", arrays)
        if self.clock_period_ns is not None:
            object.__setattr__(self, "clock_period_ns", float(self.clock_period_ns))

    def to_directives(self, base: Directives | None = None) -> Directives:
        """The directives of the point over ``base`` (the compilation's, pragmas merged
        in): its ``[[loop]]`` entries after the base's (a later entry's settings win), its
        ``[[array]]`` entries in place of the base's for the same arrays; the base's
        dataflow regions and channels kept."""
        loops = [k.directive(i + 1) for i, k in enumerate(self.loops)]
        arrays = [k.directive(i + 1) for i, k in enumerate(self.arrays)]
        if base is None:
            return Directives(loops=loops, arrays=arrays, source=POINT_SOURCE)
        mine = {k.key for k in self.arrays}
        return dataclasses.replace(
            base, loops=list(base.loops) + loops,
            arrays=[d for d in base.arrays if (d.function, d.name) not in mine] + arrays)

    @classmethod
    def from_directives(cls, dirs: Directives, share_memories: bool | None = None,
                        clock_period_ns: float | None = None) -> DesignPoint:
        """The point whose knobs are the ``[[loop]]`` and ``[[array]]`` entries of
        ``dirs`` (several entries for one loop merged, a later setting winning, as the
        flow reads them).  Entries that are not knobs (a loop's ``tripcount``, dataflow
        regions, channels) are an error: a point would drop them."""
        extra = ([f"tripcount of {d.function}/{d.line or d.label}" for d in dirs.loops
                  if d.tripcount is not None]
                 + [f"dataflow region {f}" for f in dirs.dataflow]
                 + [f"channel {c.function}/{c.name}" for c in dirs.channels])
        if extra:
            raise HLSError(f"not design-point knobs: {', '.join(extra)}", dirs.source or None,
                           None)
        loops: dict[tuple, dict] = {}
        for d in dirs.loops:
            key = (d.function, d.line, d.label)
            got = loops.setdefault(key, {})
            got.update({k: v for k, v in (("unroll", d.unroll), ("pipeline", d.pipeline),
                                          ("ii", d.ii)) if v is not None})
        arrays = {(d.function, d.name): d for d in dirs.arrays}
        return cls(tuple(LoopKnob(f, line, label, **s) for (f, line, label), s in loops.items()),
                   tuple(ArrayKnob(d.function, d.name, d.partition, d.factor)
                         for d in arrays.values()),
                   share_memories, clock_period_ns)

    def to_toml(self) -> str:
        """The point's loop and array knobs as a directives file (``pyhls synth
        --directives``); memory sharing and the clock are options (:meth:`cli_args`)."""
        out = []
        for k in self.loops:
            out.append("[[loop]]")
            out.append(f"function = {json.dumps(k.function)}")
            out.append(f"line = {k.line}" if k.label is None else f"label = {json.dumps(k.label)}")
            if k.unroll is not None:
                out.append(f"unroll = {json.dumps(k.unroll)}")
            if k.pipeline is not None:
                out.append(f"pipeline = {json.dumps(k.pipeline)}")
            if k.ii is not None:
                out.append(f"ii = {k.ii}")
            out.append("")
        for a in self.arrays:
            out += ["[[array]]", f"function = {json.dumps(a.function)}",
                    f"name = {json.dumps(a.name)}", f"partition = {json.dumps(a.partition)}"]
            if a.partition in ("cyclic", "block"):
                out.append(f"factor = {a.factor}")
            out.append("")
        return "\n".join(out)

    def cli_args(self) -> list[str]:
        """The ``pyhls synth`` options of the point's memory sharing, clock and
        floating-point formats."""
        out = []
        if self.share_memories is False:
            out.append("--no-share-memories")
        if self.clock_period_ns is not None:
            out += ["--clock-period", repr(self.clock_period_ns)]
        for func, text in self.fp_formats:
            out += ["--fp-format", f"{func}={text}"]
        return out


def point_options(opts, point: DesignPoint):
    """The synthesis options ``opts`` (``hls.flow.SynthOptions``) with the point's
    floating-point formats over its ``fp_format``: what the kernel of a point with
    formats is compiled with (the formats change the frontend's module)."""
    if not point.fp_formats:
        return opts
    fmt = dict(opts.fp_format) | {f: FPFormat.parse(t) for f, t in point.fp_formats}
    return dataclasses.replace(opts, fp_format=fmt)
