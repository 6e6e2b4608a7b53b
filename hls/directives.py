"""Synthesis directives: a TOML or JSON file (``--directives FILE``) addressing loops by
function and source line (as ``pyhls synth`` prints them) or by block label.

TOML::

    [[loop]]
    function = "gemm"     # the hardware function holding the loop
    line = 12             # the loop's source line ... or: label = "for_body"
    pipeline = true       # false: keep the loop sequential
    ii = 2                # required initiation interval (an error if it cannot be met,
                          # unless --relax-ii)
    unroll = 4            # copies of the body per iteration ("full": all of them; 1: none)
    tripcount = [1, 64]   # iterations per entry [min, max] (or one number) a loop without
                          # a constant trip count is assumed to run: report.json's latency
                          # bounds rest on it (as Vitis HLS's loop_tripcount; not checked)

    [[array]]
    function = "gemm"     # the hardware function using the array
    name = "A"            # a pointer argument, a global or a local array
    partition = "cyclic"  # cyclic | block | complete | none (none: keep it whole, and
    factor = 4            #   do not partition it automatically); factor: the banks

    [[dataflow]]
    function = "top"      # a dataflow region: its calls are tasks (as --dataflow for the top)
    share = ["f"]         # the calls of f share one accelerator (default: only large ones)
    replicate = ["g"]     # every call of g gets its own (default for small ones)

    [[channel]]
    function = "top"      # the dataflow region
    name = "tmp"          # the local array between two of its calls
    kind = "fifo"         # fifo | pipo (a FIFO must be provably an in-order stream)
    depth = 64            # FIFO depth in elements

JSON: ``{"loop": [{"function": "gemm", "line": 12, "ii": 2}]}``.  clang's loop pragmas
(``#pragma clang loop pipeline(disable)``, ``pipeline_initiation_interval(N)``,
``unroll_count(N)``, ``unroll(full)``) say the
same inside the source; a directives file entry overrides them.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import HLSError

_KEYS = {"function", "line", "label", "pipeline", "ii", "unroll", "partition", "tripcount"}


@dataclass(frozen=True)
class LoopDirective:
    function: str
    line: int | None = None
    label: str | None = None
    pipeline: bool | None = None
    ii: int | None = None
    unroll: int | str | None = None
    tripcount: tuple[int, int] | None = None


@dataclass(frozen=True)
class ArrayDirective:
    function: str
    name: str
    partition: str          # cyclic | block | complete | none
    factor: int = 0


_ARRAY_KEYS = {"function", "name", "partition", "factor"}
PARTITION_KINDS = ("cyclic", "block", "complete", "none")


@dataclass(frozen=True)
class ChannelDirective:
    function: str
    name: str
    kind: str | None = None     # fifo | pipo
    depth: int | None = None


_CHANNEL_KEYS = {"function", "name", "kind", "depth"}


@dataclass
class Directives:
    loops: list[LoopDirective] = field(default_factory=list)
    arrays: list[ArrayDirective] = field(default_factory=list)
    source: str = ""
    #: functions that are dataflow regions
    dataflow: list[str] = field(default_factory=list)
    #: the [[dataflow]] entries as written (function, share, replicate)
    dataflow_entries: list[dict] = field(default_factory=list)
    channels: list[ChannelDirective] = field(default_factory=list)

    def for_loop(self, function: str, line: int | None, label: str) -> dict:
        """The settings of every entry matching the loop (later entries win)."""
        out: dict = {}
        for d in self.loops:
            if d.function != function:
                continue
            if (d.line is not None and d.line == line) or (d.label is not None and d.label == label):
                if d.pipeline is not None:
                    out["pipeline"] = d.pipeline
                if d.ii is not None:
                    out["ii"] = d.ii
                if d.unroll is not None:
                    out["unroll"] = d.unroll
                if d.tripcount is not None:
                    out["tripcount"] = d.tripcount
        return out


def load_directives(path: str | Path) -> Directives:
    p = Path(path)
    if not p.exists():
        raise HLSError(f"directives file '{p}' does not exist", str(p), None)
    text = p.read_text()
    try:
        data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise HLSError(f"malformed directives file: {exc}", str(p), line) from None
    unknown = sorted(set(data) - {"loop", "array", "dataflow", "channel"})
    if unknown:
        raise HLSError(f"unknown section(s) {', '.join(unknown)} in the directives file "
                       "(known: loop, array, dataflow, channel)", str(p), None)
    out = Directives(source=str(p))
    for i, e in enumerate(data.get("loop", [])):
        where = f"loop entry {i + 1}"
        if not isinstance(e, dict):
            raise HLSError(f"{where}: expected a table of settings", str(p), None)
        bad = sorted(set(e) - _KEYS)
        if bad:
            raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: "
                           f"{', '.join(sorted(_KEYS))})", str(p), None)
        if "unroll" in e and not (e["unroll"] == "full" or (
                isinstance(e["unroll"], int) and not isinstance(e["unroll"], bool)
                and e["unroll"] >= 1)):
            raise HLSError(f"{where}: 'unroll' must be an integer >= 1 (1: do not unroll) "
                           "or \"full\"", str(p), None)
        if "partition" in e:
            raise HLSError(f"{where}: partitioning is a property of an array: give it in "
                           "an [[array]] entry (function, name, partition, factor)", str(p), None)
        if not isinstance(e.get("function"), str):
            raise HLSError(f"{where}: 'function' (the function's name) is required", str(p), None)
        if ("line" in e) == ("label" in e):
            raise HLSError(f"{where}: give exactly one of 'line' and 'label'", str(p), None)
        if "line" in e and not (isinstance(e["line"], int) and e["line"] > 0):
            raise HLSError(f"{where}: 'line' must be a positive integer", str(p), None)
        if "pipeline" in e and not isinstance(e["pipeline"], bool):
            raise HLSError(f"{where}: 'pipeline' must be true or false", str(p), None)
        if "ii" in e and not (isinstance(e["ii"], int) and not isinstance(e["ii"], bool)
                              and e["ii"] >= 1):
            raise HLSError(f"{where}: 'ii' must be an integer >= 1", str(p), None)
        out.loops.append(LoopDirective(e["function"], e.get("line"), e.get("label"),
                                       e.get("pipeline"), e.get("ii"), e.get("unroll"),
                                       _tripcount(e["tripcount"], where, str(p))
                                       if "tripcount" in e else None))
    for i, e in enumerate(data.get("array", [])):
        out.arrays.append(_array_entry(e, f"array entry {i + 1}", str(p)))
    for i, e in enumerate(data.get("dataflow", [])):
        where = f"dataflow entry {i + 1}"
        if not isinstance(e, dict) or not isinstance(e.get("function"), str):
            raise HLSError(f"{where}: 'function' (the name of the region's function) is "
                           "required", str(p), None)
        bad = sorted(set(e) - {"function", "share", "replicate"})
        if bad:
            raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: function, "
                           "replicate, share)", str(p), None)
        for k in ("share", "replicate"):
            if k in e and not (isinstance(e[k], list) and all(isinstance(x, str) for x in e[k])):
                raise HLSError(f"{where}: '{k}' must be a list of function names", str(p), None)
        both = set(e.get("share", ())) & set(e.get("replicate", ()))
        if both:
            raise HLSError(f"{where}: {', '.join(sorted(both))} both shared and replicated",
                           str(p), None)
        out.dataflow.append(e["function"])
        out.dataflow_entries.append(dict(e))
    for i, e in enumerate(data.get("channel", [])):
        out.channels.append(_channel_entry(e, f"channel entry {i + 1}", str(p)))
    return out


def _tripcount(v, where: str, path: str) -> tuple[int, int]:
    """A ``tripcount`` setting: one count, or [min, max]."""
    def count(x):
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0
    if count(v):
        return (v, v)
    if isinstance(v, list) and len(v) == 2 and all(map(count, v)) and v[0] <= v[1]:
        return (v[0], v[1])
    raise HLSError(f"{where}: 'tripcount' must be a count >= 0 or [min, max] with "
                   f"0 <= min <= max, not {v!r}", path, None)


def _named_entry(e, where: str, path: str, keys: set) -> None:
    """An entry naming a function and an object of it, with settings among ``keys``."""
    if not isinstance(e, dict):
        raise HLSError(f"{where}: expected a table of settings", path, None)
    bad = sorted(set(e) - keys)
    if bad:
        raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: "
                       f"{', '.join(sorted(keys))})", path, None)
    for k in ("function", "name"):
        if not isinstance(e.get(k), str):
            raise HLSError(f"{where}: '{k}' is required (a string)", path, None)


def _channel_entry(e, where: str, path: str) -> ChannelDirective:
    _named_entry(e, where, path, _CHANNEL_KEYS)
    if "kind" in e and e["kind"] not in ("fifo", "pipo"):
        raise HLSError(f"{where}: 'kind' must be \"fifo\" or \"pipo\", not {e['kind']!r}",
                       path, None)
    if "depth" in e and not (isinstance(e["depth"], int) and not isinstance(e["depth"], bool)
                             and e["depth"] >= 1):
        raise HLSError(f"{where}: 'depth' must be an integer >= 1", path, None)
    if e.get("kind") == "pipo" and "depth" in e:
        raise HLSError(f"{where}: a PIPO channel's banks follow from the graph; 'depth' is "
                       "a FIFO's", path, None)
    return ChannelDirective(e["function"], e["name"], e.get("kind"), e.get("depth"))


def _array_entry(e, where: str, path: str) -> ArrayDirective:
    _named_entry(e, where, path, _ARRAY_KEYS)
    kind = e.get("partition")
    if kind not in PARTITION_KINDS:
        raise HLSError(f"{where}: 'partition' must be one of {', '.join(PARTITION_KINDS)}",
                       path, None)
    factor = e.get("factor", 0)
    if kind in ("cyclic", "block"):
        if not (isinstance(factor, int) and not isinstance(factor, bool) and factor >= 2):
            raise HLSError(f"{where}: '{kind}' partitioning needs 'factor', an integer >= 2",
                           path, None)
    elif "factor" in e:
        raise HLSError(f"{where}: 'factor' does not apply to '{kind}' partitioning", path, None)
    return ArrayDirective(e["function"], e["name"], kind, factor)
